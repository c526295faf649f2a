// The Search view's store against a real HTTP server on loopback that answers
// as the relay does (NDJSON, written in pieces): typing is debounced into one
// request, results show before the answer ends, a new search closes the
// request before it (the relay then kills git), and refusals become a sentence.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SearchStore } from "../../src/lib/workspace/search-store.svelte.ts";

type Handler = (request: IncomingMessage, response: ServerResponse, url: URL) => void;

let server: Server;
let base = "";
let handler: Handler = () => {};
const requests: URL[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://x");
    requests.push(url);
    handler(request, response, url);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const line = (record: unknown) => JSON.stringify(record) + "\n";
const match = (path: string, n: number) => ({ type: "match", path, line: n, text: `x needle ${n}`, ranges: [[2, 8]] });
const done = { type: "done", files: 2, lines: 3, matches: 3, truncated: false, notRepo: false, elapsedMs: 1 };

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("SearchStore", () => {
  it("debounces typing into one request and shows results as they stream in", async () => {
    requests.length = 0;
    let finish = () => {};
    handler = (_request, response) => {
      response.writeHead(200, { "Content-Type": "application/x-ndjson" });
      // The first file's lines, then a pause before the rest: the page must not wait for the end.
      response.write(line(match("a.ts", 1)) + line(match("a.ts", 4)).slice(0, 10));
      setTimeout(() => response.write(line(match("a.ts", 4)).slice(10)), 10);
      finish = () => response.end(line(match("b.ts", 2)) + line(done));
    };
    const store = new SearchStore(base);
    for (const text of ["n", "ne", "nee", "needle"]) {
      store.pattern = text;
      store.schedule();
    }
    await until(() => store.files[0]?.lines.length === 2, "the first file's two lines");
    expect(store.status).toBe("searching");
    expect(requests.map((url) => url.searchParams.get("q"))).toEqual(["needle"]);
    finish();
    await until(() => store.status === "done", "the end");
    expect(store.files.map((file) => [file.path, file.lines.map((l) => l.line), file.matches])).toEqual([
      ["a.ts", [1, 4], 2],
      ["b.ts", [2], 1],
    ]);
    expect(store.summary).toMatchObject({ files: 2, matches: 3 });
    expect(store.matchCount).toBe(3);
  });

  it("closes the request of a search it replaces, and shows its lines only until the new ones come", async () => {
    const closed: string[] = [];
    handler = (request, response, url) => {
      const q = url.searchParams.get("q")!;
      response.writeHead(200, { "Content-Type": "application/x-ndjson" });
      response.on("close", () => closed.push(q));
      if (q === "slow") response.write(line(match("slow.ts", 1)));
      else response.end(line(match("fast.ts", 1)) + line(done));
    };
    const store = new SearchStore(base);
    store.pattern = "slow";
    void store.search();
    await until(() => store.files.length === 1, "the slow search's first line");
    store.pattern = "fast";
    const searching = store.search();
    // The lines shown stay until the new search's first ones (no flicker while typing).
    expect(store.files.map((file) => file.path)).toEqual(["slow.ts"]);
    await searching;
    await until(() => closed.includes("slow"), "the slow request to close");
    expect(store.files.map((file) => file.path)).toEqual(["fast.ts"]);
    expect(store.status).toBe("done");
  });

  it("says what the relay refused, and what went wrong after the answer began", async () => {
    handler = (_request, response, url) => {
      if (url.searchParams.get("regex") === "1") {
        response.writeHead(400, { "Content-Type": "application/json" });
        response.end(JSON.stringify({ error: { code: "bad_request", message: "The regular expression is not valid: Unterminated group" } }));
      } else {
        response.writeHead(200, { "Content-Type": "application/x-ndjson" });
        response.end(line({ type: "error", message: "git grep refused the search: bad pathspec" }));
      }
    };
    const store = new SearchStore(base);
    store.pattern = "(a";
    store.regex = true;
    await store.search();
    expect(store.status).toBe("error");
    expect(store.error).toBe("The regular expression is not valid: Unterminated group");
    store.regex = false;
    await store.search();
    expect(store.error).toBe("git grep refused the search: bad pathspec");
    // An empty query searches nothing.
    store.pattern = "";
    await store.search();
    expect(store.status).toBe("idle");
  });

  it("searches again after files change on disk: once per burst while shown, on showing when hidden, never under a replace preview", async () => {
    let generation = 1;
    requests.length = 0;
    handler = (_request, response) => {
      response.writeHead(200, { "Content-Type": "application/x-ndjson" });
      response.end(line(match(`v${generation}.ts`, 1)) + line(done));
    };
    const store = new SearchStore(base);
    store.pattern = "needle";
    store.shown();
    await store.search();
    expect(store.files.map((file) => file.path)).toEqual(["v1.ts"]);

    generation = 2;
    for (let i = 0; i < 5; i++) store.diskChanged();
    await until(() => store.files[0]?.path === "v2.ts", "the results after the change");
    expect(requests.length).toBe(2);

    store.hidden();
    generation = 3;
    store.diskChanged();
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(requests.length).toBe(2);
    store.shown();
    await until(() => store.files[0]?.path === "v3.ts", "the results once shown again");
    expect(requests.length).toBe(3);

    store.preview = { files: [], truncated: false, skipped: [], chosen: new Set() };
    generation = 4;
    store.diskChanged();
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(requests.length).toBe(3);
    expect(store.files[0]?.path).toBe("v3.ts");
  });
});
