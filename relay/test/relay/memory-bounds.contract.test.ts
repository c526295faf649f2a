// What the relay keeps per link opened and per connection is bounded, against
// a real pier and pi: a viewer link opened past its cap is refused with a
// sentence (a script opening it in a loop no longer grows the relay), the
// relay's total of viewers' sessions is capped too and a revoke frees its
// share, and one browser's WebSockets are capped. How much memory that saves
// is measured, not tested: bench/memory-bounds.bench.ts.
import { Agent, request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_GRANTS, MAX_GRANTS_PER_LINK } from "../../src/access-links.ts";
import { MAX_CONNECTIONS_PER_GRANT } from "../../src/connection-limits.ts";
import { attemptUpgrade, connectBrowser, startPier, type Browser, type RunningPier } from "../support/pier-process.ts";

type Answer = { status: number; cookie: string | null; body: string };

describe("memory bounds", () => {
  let pier: RunningPier;
  let driver: Browser;
  // Keep-alive, as a script hammering a link would: thousands of GETs in a few seconds.
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const opened: Browser[] = [];

  beforeAll(async () => {
    pier = await startPier(["--demo"]);
    driver = await connectBrowser(pier);
  });
  afterAll(async () => {
    agent.destroy();
    await Promise.all(opened.map((browser) => browser.close()));
    await driver?.close();
    await pier?.stop();
  });

  /** A GET with pier's own Host, on the keep-alive agent. */
  const get = (path: string, cookie?: string) =>
    new Promise<Answer>((resolve, reject) => {
      const headers = { Host: pier.host, ...(cookie ? { Cookie: cookie } : {}) };
      const request = httpRequest({ host: "127.0.0.1", port: pier.port, path, agent, headers }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (text: string) => (body += text));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, cookie: response.headers["set-cookie"]?.[0]?.split(";")[0] ?? null, body }));
        response.on("error", reject);
      });
      request.on("error", reject);
      request.end();
    });

  /** `count` GETs of a link, 8 at a time. */
  const open = async (path: string, count: number): Promise<Answer[]> => {
    const answers: Answer[] = [];
    let sent = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (sent < count) {
          sent++;
          answers.push(await get(path));
        }
      }),
    );
    return answers;
  };

  const viewerLink = async (): Promise<{ path: string; linkId: string }> => {
    const before = driver.frames.filter((frame) => frame.type === "link_created").length;
    driver.send({ type: "pier.create_link", role: "viewer" });
    const created = await driver.waitUntil(() => driver.frames.filter((frame) => frame.type === "link_created")[before], "link_created");
    if (created.type !== "link_created") throw new Error("unreachable");
    return { path: `/?token=${created.token}`, linkId: created.link.id };
  };

  const revoke = async (linkId: string) => {
    driver.send({ type: "pier.revoke_link", linkId });
    await driver.waitUntil(() => driver.frames.some((frame) => frame.type === "links" && frame.links.some((link) => link.id === linkId && link.revoked)), "the link listed as revoked");
  };

  it("refuses a viewer link opened past its cap with 429 and a sentence, and frees its sessions when it is revoked", { timeout: 60_000 }, async () => {
    const link = await viewerLink();
    const answers = await open(link.path, MAX_GRANTS_PER_LINK);
    expect(answers.filter((answer) => answer.status === 303 && answer.cookie !== null)).toHaveLength(MAX_GRANTS_PER_LINK);
    const past = await get(link.path);
    expect(past.status).toBe(429);
    expect(past.cookie).toBeNull();
    expect(past.body).toContain("This link has been opened too many times");

    // A session it opened gets in (a page, a socket) until the link is revoked; then neither.
    const cookie = answers[0]!.cookie!;
    expect((await get("/api/sessions", cookie)).status).not.toBe(401);
    await revoke(link.linkId);
    expect((await get("/api/sessions", cookie)).status).toBe(401);
    expect((await attemptUpgrade(pier, { cookie })).status).toBe(401);
    expect((await get(link.path)).status).toBe(401);
  });

  it("caps every viewer's session together with 503 and a sentence, and lets in again once a revoke freed some", { timeout: 120_000 }, async () => {
    // The first test's sessions were freed: MAX_GRANTS.viewer fit again.
    const links = [];
    for (let i = 0; i < MAX_GRANTS.viewer / MAX_GRANTS_PER_LINK; i++) {
      const link = await viewerLink();
      const answers = await open(link.path, MAX_GRANTS_PER_LINK);
      expect(answers.every((answer) => answer.status === 303)).toBe(true);
      links.push(link);
    }
    const late = await viewerLink();
    const refused = await get(late.path);
    expect(refused.status).toBe(503);
    expect(refused.body).toContain("too many sessions open");
    // The driver is not locked out: its session and a fresh driver link still work.
    expect((await get("/api/sessions", pier.cookie)).status).not.toBe(401);
    const fresh = new URL(await pier.freshUrl());
    expect((await get(fresh.pathname + fresh.search)).status).toBe(303);

    await revoke(links[0]!.linkId);
    const admitted = await get(late.path);
    expect(admitted.status).toBe(303);
    for (const link of links.slice(1)) await revoke(link.linkId);
  });

  it("caps one browser's WebSockets with 429 and a sentence, not other browsers', and lets it in again once one closed", { timeout: 60_000 }, async () => {
    const link = await viewerLink();
    const [mine, theirs] = [(await get(link.path)).cookie!, (await get(link.path)).cookie!];
    for (let i = 0; i < MAX_CONNECTIONS_PER_GRANT; i++) opened.push(await connectBrowser(pier, { cookie: mine, parseRecords: false }));
    const refused = await attemptUpgrade(pier, { cookie: mine });
    expect(refused.status).toBe(429);
    expect(refused.body).toContain("tabs or windows open already");

    opened.push(await connectBrowser(pier, { cookie: theirs, parseRecords: false }));
    await opened[0]!.close();
    // The slot comes back when the socket has closed on the relay's side too.
    await expect.poll(async () => (await attemptUpgrade(pier, { cookie: mine })).status, { timeout: 5000 }).toBe("open");
  });
});
