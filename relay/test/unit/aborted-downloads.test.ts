// A browser that goes away mid-download (a closed tab, a navigation away
// while the editor's 7 MB worker loads): the file pier was sending must be
// closed, not left open until pier exits. Real HTTP server and requests; the
// server's descriptors are read from /proc/self/fd (same process).
import { readdirSync, readlinkSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionExports } from "../../src/sessions/session-exports.ts";
import { serveStatic } from "../../src/static-files.ts";

const BIG = 16 * 1024 * 1024;
let root: string;
let exports: SessionExports;
let server: Server;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "pier-aborted-"));
  await writeFile(join(root, "index.html"), "<!doctype html><title>x</title>");
  await writeFile(join(root, "big.js"), Buffer.alloc(BIG, 0x61));
  exports = await SessionExports.create();
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname.startsWith("/export/")) return void exports.serve(res, url.pathname.slice("/export/".length), null, "grant-test");
    void serveStatic(root, url.pathname, res, false);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await exports.close();
  await rm(root, { recursive: true, force: true });
});

/** Descriptors this process holds on `path` (deleted files read "<path> (deleted)"). */
function openOn(path: string): number {
  let count = 0;
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith(path)) count++;
    } catch {
      // Closed while we looked.
    }
  }
  return count;
}

/** Starts a download and drops the connection after its first bytes. */
function abandon(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const { port } = server.address() as AddressInfo;
    const req = request({ host: "127.0.0.1", port, path, agent: false }, (res) => {
      expect(res.statusCode).toBe(200);
      res.once("data", () => {
        req.destroy();
        resolve();
      });
    });
    req.on("error", (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
  });
}

describe.skipIf(process.platform !== "linux")("a download the browser abandons", () => {
  it("closes the web app's file it was sending", async () => {
    const file = join(root, "big.js");
    for (let i = 0; i < 3; i++) await abandon("/big.js");
    await expect.poll(() => openOn(file), { timeout: 3000 }).toBe(0);
  });

  it("closes a session export it was sending", async () => {
    const file = join(exports.dir, "big.html");
    expect(exports.refuseOutputPath(file, "grant-test")).toBeNull();
    await writeFile(file, Buffer.alloc(BIG, 0x61));
    await abandon("/export/big.html");
    await expect.poll(() => openOn(file), { timeout: 3000 }).toBe(0);
  });
});
