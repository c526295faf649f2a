// Hole 10 of issue 31 (what a viewer may read), against a real pier and pi: a
// viewer could read `.env` and the like through the file API. Files that may
// hold secrets (by name, or ignored by .gitignore) are refused to viewers,
// also through a link or git's HEAD text; drivers read everything; a revoked
// viewer link reads nothing at all.
import type { RelayFrame } from "@pier/protocol";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBrowser, exchangeToken, startPier, type Browser, type RunningPier } from "../support/pier-process.ts";
import { httpJson } from "../workspace/workspace-http.ts";

const hello = fileURLToPath(new URL("../../../e2e/scenarios/hello.json", import.meta.url));

type Frame<T extends RelayFrame["type"]> = Extract<RelayFrame, { type: T }>;

async function makeViewerLink(driver: Browser): Promise<{ url: string; linkId: string }> {
  const before = driver.frames.filter((f) => f.type === "link_created").length;
  driver.send({ type: "pier.create_link", role: "viewer" });
  const frame = await driver.waitUntil(() => driver.frames.filter((f): f is Frame<"link_created"> => f.type === "link_created")[before], "link_created");
  return { url: `http://${new URL(driver.ws.url).host}/?token=${frame.token}`, linkId: frame.link.id };
}

const SECRET = "API_KEY=sk-never-to-a-viewer\n";

describe("what a viewer may read", () => {
  let pier: RunningPier;
  let driver: Browser;
  let viewerCookie: string;
  let link: { url: string; linkId: string };

  beforeAll(async () => {
    pier = await startPier(["--demo", "--demo-scenario", hello]);
    driver = await connectBrowser(pier);
    const ws = driver.hello.demo!.projectDir;
    await writeFile(join(ws, ".env"), SECRET);
    await writeFile(join(ws, ".env.production"), SECRET);
    await writeFile(join(ws, ".env.example"), "API_KEY=\n");
    await writeFile(join(ws, "id_ed25519"), SECRET);
    await writeFile(join(ws, "server.pem"), SECRET);
    await mkdir(join(ws, "config"), { recursive: true });
    await writeFile(join(ws, "config", "secrets.yml"), SECRET);
    await writeFile(join(ws, ".gitignore"), "local-notes.txt\n");
    await writeFile(join(ws, "local-notes.txt"), SECRET);
    await writeFile(join(ws, "notes.txt"), "shared notes\n");
    // A link with an innocent name that leads to .env.
    await symlink(".env", join(ws, "innocent.txt"));
    link = await makeViewerLink(driver);
    viewerCookie = await exchangeToken(link.url, pier.port);
  });
  afterAll(async () => {
    await driver?.close();
    await pier?.stop();
  });

  const read = (path: string, cookie?: string) => httpJson(pier, "GET", `/api/files/content?path=${encodeURIComponent(path)}`, cookie ? { cookie } : {});

  it("a viewer gets 403 with one clear sentence for files that are secrets by name, a driver gets them", async () => {
    for (const path of [".env", ".env.production", "id_ed25519", "server.pem", "config/secrets.yml"]) {
      const asViewer = await read(path, viewerCookie);
      expect({ path, status: asViewer.status, error: asViewer.json?.error }).toEqual({
        path,
        status: 403,
        error: { code: "viewer_secret", message: `${JSON.stringify(path)} may hold secrets (by its name); only a driver can open it.` },
      });
      expect(asViewer.text).not.toContain("sk-never");
      const asDriver = await read(path);
      expect({ path, status: asDriver.status, content: asDriver.json?.content }).toEqual({ path, status: 200, content: SECRET });
    }
  });

  it("a viewer reads .env.example and ordinary files", async () => {
    expect((await read(".env.example", viewerCookie)).json).toMatchObject({ path: ".env.example", content: "API_KEY=\n" });
    expect((await read("notes.txt", viewerCookie)).json).toMatchObject({ content: "shared notes\n" });
  });

  it("a viewer gets 403 for a file .gitignore ignores, a driver gets it", async () => {
    const asViewer = await read("local-notes.txt", viewerCookie);
    expect({ status: asViewer.status, error: asViewer.json?.error }).toEqual({
      status: 403,
      error: { code: "viewer_secret", message: `"local-notes.txt" is ignored by .gitignore, so it is kept from viewers; only a driver can open it.` },
    });
    expect((await read("local-notes.txt")).json).toMatchObject({ content: SECRET });
  });

  it("a link with an innocent name that leads to .env is judged by where it leads", async () => {
    const asViewer = await read("innocent.txt", viewerCookie);
    expect({ status: asViewer.status, code: asViewer.json?.error?.code }).toEqual({ status: 403, code: "viewer_secret" });
    expect(asViewer.text).not.toContain("sk-never");
    expect((await read("innocent.txt")).json).toMatchObject({ content: SECRET });
  });

  it("git's HEAD text of such a file is refused to a viewer too", async () => {
    const asViewer = await httpJson(pier, "GET", `/api/git/head?path=${encodeURIComponent(".env")}`, { cookie: viewerCookie });
    expect({ status: asViewer.status, code: asViewer.json?.error?.code }).toEqual({ status: 403, code: "viewer_secret" });
    expect((await httpJson(pier, "GET", `/api/git/head?path=${encodeURIComponent(".env")}`)).status).toBe(200);
    expect((await httpJson(pier, "GET", `/api/git/head?path=notes.txt`, { cookie: viewerCookie })).status).toBe(200);
  });

  it("a revoked viewer link reads nothing, secret or not", async () => {
    driver.send({ type: "pier.revoke_link", linkId: link.linkId });
    await driver.waitUntil(
      () =>
        driver.frames
          .filter((f): f is Frame<"links"> => f.type === "links")
          .at(-1)
          ?.links.find((l) => l.id === link.linkId && l.revoked),
      "the revoked link listed",
    );
    for (const path of [".env", ".env.example", "notes.txt"]) expect((await read(path, viewerCookie)).status, path).toBe(401);
    expect((await httpJson(pier, "GET", `/api/git/head?path=.env`, { cookie: viewerCookie })).status).toBe(401);
  });
});
