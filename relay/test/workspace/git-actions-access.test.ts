// The git action routes' own check (workspace-api.ts), behind the relay's
// door: a request the door let through that is not a driver's is refused
// with 403 driver_only, and a driver's in an untrusted folder with 403
// not_trusted, before git runs. (Through the real relay a viewer's change is
// already refused at the door: git-actions-http.contract.test.ts.)
import { execFileSync } from "node:child_process";
import { createServer, request as httpRequest, type Server } from "node:http";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GitFacts } from "../../src/workspace/git-facts.ts";
import { createWorkspaceApi } from "../../src/workspace/workspace-api.ts";
import { WorkspaceFiles } from "../../src/workspace/workspace-files.ts";

let root: string;
let server: Server;
let port: number;
/** Who the next request is, as the relay's grant would say. */
let role: { driver: boolean; trusted: boolean } = { driver: false, trusted: false };

function post(path: string, body: unknown): Promise<{ status: number; json: any }> {
  const payload = Buffer.from(JSON.stringify(body));
  const host = `127.0.0.1:${port}`;
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: "127.0.0.1", port, path, method: "POST", headers: { Host: host, Origin: `http://${host}`, "Content-Type": "application/json", "Content-Length": String(payload.length) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString("utf8")) }));
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "pier-git-access-")));
  execFileSync("git", ["init", "-q", "-b", "main", root]);
  const files = new WorkspaceFiles(root);
  const api = createWorkspaceApi({
    files,
    git: new GitFacts(files.paths),
    log: () => {},
    isDriver: () => role.driver,
    repoCommands: async () => role.driver && role.trusted,
  });
  server = createServer((request, response) => void api(request, response, new URL(request.url ?? "/", "http://x.invalid")));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server?.close();
  await rm(root, { recursive: true, force: true });
});

describe("git action routes: who may", () => {
  const changes: [string, unknown][] = [
    ["/api/git/commit", { message: "x" }],
    ["/api/git/branch/create", { name: "x" }],
    ["/api/git/branch/switch", { name: "main" }],
    ["/api/git/branch/delete", { name: "x" }],
    ["/api/git/pull", {}],
    ["/api/git/push", {}],
    ["/api/git/init", {}],
  ];

  it("a viewer: 403 driver_only on every change, with a sentence", async () => {
    role = { driver: false, trusted: true };
    for (const [path, body] of changes) {
      const answer = await post(path, body);
      expect([answer.status, answer.json.error.code], path).toEqual([403, "driver_only"]);
      expect(answer.json.error.message).toMatch(/Only a driver can commit/);
    }
  });

  it("a driver in an untrusted folder: 403 not_trusted for all but git init", async () => {
    role = { driver: true, trusted: false };
    for (const [path, body] of changes) {
      const answer = await post(path, body);
      if (path === "/api/git/init") expect([answer.status, answer.json.error.code]).toEqual([409, "already_a_repo"]);
      else expect([answer.status, answer.json.error.code], path).toEqual([403, "not_trusted"]);
    }
  });

  it("a driver in a trusted folder reaches git (here: nothing staged)", async () => {
    role = { driver: true, trusted: true };
    // An identity of the test's own, whatever the machine's git config holds.
    for (const who of ["AUTHOR", "COMMITTER"]) {
      process.env[`GIT_${who}_NAME`] = "Pier Test";
      process.env[`GIT_${who}_EMAIL`] = "test@pier.invalid";
    }
    const answer = await post("/api/git/commit", { message: "x" });
    expect([answer.status, answer.json.error.code]).toEqual([409, "nothing_staged"]);
  });
});
