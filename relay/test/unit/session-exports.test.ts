import { mkdir, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionExports } from "../../src/sessions/session-exports.ts";

// A real HTTP server whose only route is SessionExports.serve, and real
// requests to it, each on a connection of its own. The grant a request's
// cookie would carry comes in an x-grant header here (default: the driver
// who asked for the export, DRIVER).
const DRIVER = "grant-driver";
let exports: SessionExports;
let server: Server;

beforeEach(async () => {
  exports = await SessionExports.create();
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    void exports.serve(res, url.pathname.slice(1), url.searchParams.get("name"), String(req.headers["x-grant"] ?? DRIVER));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});

afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
  await exports.close();
});

/** An export `name` the DRIVER asked pi for, written as pi would. */
async function exported(name: string, content: string, grant = DRIVER): Promise<void> {
  expect(exports.refuseOutputPath(join(exports.dir, name), grant)).toBeNull();
  await writeFile(join(exports.dir, name), content);
}

function get(path: string, grant = DRIVER): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { port } = server.address() as AddressInfo;
    const req = request({ host: "127.0.0.1", port, path, agent: false, headers: { "x-grant": grant } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const page = `<!DOCTYPE html><title>export</title>${"x".repeat(200_000)}`;

describe("SessionExports.serve: each export once", () => {
  it("serves an export whole, with its download name, and then it is gone", async () => {
    await exported("one.html", page);
    const first = await get("/one.html?name=Greeter");
    expect(first).toEqual({ status: 200, body: page });
    expect((await get("/one.html")).status).toBe(404);
    expect(await readdir(exports.dir)).toEqual([]);
  });

  it("gives it to exactly one of several requests made at the same moment; the others get a 404, none is cut off", async () => {
    for (let round = 0; round < 5; round++) {
      await exported("race.html", page);
      const answers = await Promise.all(Array.from({ length: 8 }, () => get("/race.html")));
      expect(answers.filter((a) => a.status === 200).map((a) => a.body)).toEqual([page]);
      expect(answers.filter((a) => a.status === 404)).toHaveLength(7);
    }
  });

  it("serves no folder and no symlink (to a file outside, say)", async () => {
    for (const name of ["folder.html", "link.html"]) expect(exports.refuseOutputPath(join(exports.dir, name), DRIVER)).toBeNull();
    await mkdir(join(exports.dir, "folder.html"));
    const outside = join(exports.dir, "..", `pier-outside-${process.pid}.html`);
    await writeFile(outside, "secret");
    await symlink(outside, join(exports.dir, "link.html"));
    expect((await get("/folder.html")).status).toBe(404);
    expect((await get("/link.html")).status).toBe(404);
    expect((await get("/..%2fx.html")).status).toBe(400);
    await rm(outside);
  });
});

describe("SessionExports: an export is the asking browser's alone", () => {
  it("answers another browser (a viewer who saw the command go by) 404, and the export stays for its owner", async () => {
    await exported("mine.html", page);
    expect(await get("/mine.html", "grant-viewer")).toEqual({ status: 404, body: expect.stringContaining("No such export") });
    expect(await get("/mine.html")).toEqual({ status: 200, body: page });
  });

  it("serves nothing that no browser asked pi for, even if a file of that name is in the folder", async () => {
    await writeFile(join(exports.dir, "planted.html"), page);
    expect((await get("/planted.html")).status).toBe(404);
  });

  it("refuses a second browser's export of a name another browser's export is waiting under", () => {
    expect(exports.refuseOutputPath(join(exports.dir, "same.html"), DRIVER)).toBeNull();
    expect(exports.refuseOutputPath(join(exports.dir, "same.html"), "grant-other")).toMatch(/another browser's export has that name/);
    expect(exports.refuseOutputPath(join(exports.dir, "same.html"), DRIVER)).toBeNull();
  });

  it("refuses exports past a hundred waiting, with a sentence", () => {
    for (let i = 0; i < 100; i++) expect(exports.refuseOutputPath(join(exports.dir, `e${i}.html`), DRIVER)).toBeNull();
    expect(exports.refuseOutputPath(join(exports.dir, "one-more.html"), DRIVER)).toMatch(/100 exports are waiting/);
  });
});
