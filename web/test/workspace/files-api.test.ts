// The workspace files client against a real HTTP server on loopback: every
// route under the workspace's base, the relay's error codes, a 409's
// `current`. The server answers like the relay's file service for the few
// routes used here.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilesApi, FilesApiError } from "../../src/lib/workspace/files-api.ts";

let server: Server;
let origin = "";
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      seen.push(`${request.method} ${request.url}${body ? ` ${body}` : ""}`);
      const url = new URL(request.url ?? "/", "http://x");
      const send = (status: number, value: unknown) => {
        response.writeHead(status, { "Content-Type": "application/json" });
        response.end(JSON.stringify(value));
      };
      if (url.pathname === "/live/abc/api/files/tree") return send(200, { root: "/w", entries: [], truncated: false });
      if (url.pathname === "/live/abc/api/files/content" && request.method === "GET") {
        if (url.searchParams.get("path") === "gone.ts") return send(404, { error: { code: "not_found", message: "No such file: gone.ts" } });
        return send(200, { path: url.searchParams.get("path"), content: "hi", version: "v1", size: 2, readOnly: false });
      }
      if (url.pathname === "/live/abc/api/files/content" && request.method === "PUT") {
        const { baseVersion } = JSON.parse(body) as { baseVersion: string | null };
        if (baseVersion !== "v1") return send(409, { error: { code: "conflict", message: "changed on disk" }, current: { content: "theirs", version: "v2" } });
        return send(200, { version: "v3" });
      }
      response.writeHead(404);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("files API client", () => {
  it("sends every route under the workspace's base", async () => {
    const api = createFilesApi({ base: `${origin}/live/abc` });
    expect(await api.tree()).toEqual({ root: "/w", entries: [], truncated: false });
    expect(await api.read("src/a b.ts")).toMatchObject({ content: "hi", version: "v1" });
    expect(seen).toContain("GET /live/abc/api/files/content?path=src%2Fa%20b.ts");
  });

  it("a save answers the new version, or the conflict with what is on disk now", async () => {
    const api = createFilesApi({ base: `${origin}/live/abc` });
    expect(await api.save("a.ts", "mine", "v1")).toEqual({ version: "v3" });
    expect(await api.save("a.ts", "mine", "v0")).toEqual({ kind: "conflict", current: { content: "theirs", version: "v2" } });
    expect(seen.at(-1)).toBe('PUT /live/abc/api/files/content {"path":"a.ts","content":"mine","baseVersion":"v0"}');
  });

  it("failures carry the relay's status and code; a route the server lacks is a plain 404", async () => {
    const api = createFilesApi({ base: `${origin}/live/abc` });
    const missing = await api.read("gone.ts").catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(FilesApiError);
    expect(missing).toMatchObject({ status: 404, code: "not_found", message: "No such file: gone.ts" });
    const elsewhere = await createFilesApi({ base: `${origin}/live/other` })
      .gitStatus()
      .catch((error: unknown) => error);
    expect(elsewhere).toMatchObject({ status: 404, code: "not_found", message: `GET ${origin}/live/other/api/git/status answered 404` });
  });

  it("a relay that cannot be reached is a network error", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const failure = await createFilesApi({ base: `http://127.0.0.1:${port}` })
      .tree()
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 0, code: "network" });
  });

  it("refuses a base that would make wrong URLs", () => {
    expect(() => createFilesApi({ base: "live/abc" })).toThrow(/must start with "\/"/);
    expect(() => createFilesApi({ base: "/live/abc/" })).toThrow(/not end with "\/"/);
    expect(() => createFilesApi({ base: "/live/abc" })).not.toThrow();
    expect(() => createFilesApi()).not.toThrow();
  });
});
