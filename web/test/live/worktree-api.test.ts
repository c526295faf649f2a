// The worktree card's HTTP calls against a real HTTP server that answers as
// the relay does (JSON errors with a sentence, a merge conflict with its
// files): what is sent, what is read from the answer, what a refusal says.
import { LIVE_API_PATHS } from "@pier/protocol";
import { describe, expect, it } from "vitest";
import { standInRelay, type Seen } from "./stand-in-relay.ts";
import { worktreeApi } from "../../src/lib/live/worktree-api.ts";

const relay = standInRelay();
const seen = relay.seen;

const api = () => worktreeApi((input, init) => relay.fetch(input, init));
/** The last request: its method, path and body (what these calls are about). */
function last(): Omit<Seen, "type"> {
  const request = seen.at(-1);
  if (request === undefined) throw new Error("the server saw no request");
  const { type: _type, ...rest } = request;
  return rest;
}

describe("the worktree card's API calls", () => {
  it("reads a diff and one file's sides by GET with the id (and path) in the query", async () => {
    relay.next = { status: 200, body: JSON.stringify({ id: "3", totals: { files: 1, added: 1, deleted: 0 }, files: [], truncated: false }) };
    const diff = await api().diff("3");
    expect(diff).toMatchObject({ ok: true, value: { id: "3", totals: { files: 1 } } });
    expect(last()).toEqual({ method: "GET", path: `${LIVE_API_PATHS.diff}?id=3`, body: null });
    relay.next = { status: 200, body: JSON.stringify({ id: "3", path: "a b.txt", base: { content: null, reason: "absent" }, current: { content: "x", reason: null } }) };
    expect(await api().diffFile("3", "a b.txt")).toMatchObject({ ok: true, value: { current: { content: "x" } } });
    expect(last().path).toBe(`${LIVE_API_PATHS.diffFile}?id=3&path=a+b.txt`);
  });

  it("merges with the mode asked for and reads `merged`; a conflict keeps the relay's sentence and the files", async () => {
    relay.next = { status: 200, body: JSON.stringify({ merged: { mode: "ff", into: "main", head: "abc", committed: null }, card: null }) };
    expect(await api().merge("3", "ff")).toEqual({ ok: true, value: { mode: "ff", into: "main", head: "abc", committed: null } });
    expect(last()).toEqual({ method: "POST", path: LIVE_API_PATHS.merge, body: { id: "3", mode: "ff" } });
    const conflicts = [{ path: "a.txt", base: { content: "main's\n", reason: null }, worktree: { content: "mine\n", reason: null } }];
    relay.next = { status: 409, body: JSON.stringify({ error: { code: "conflict", message: "feature-x and main both changed a.txt" }, conflicts, conflicted: ["a.txt"] }) };
    expect(await api().merge("3", "merge")).toEqual({ ok: false, error: "feature-x and main both changed a.txt", conflicts });
  });

  it("previews a discard without confirm, discards with it; a refusal without JSON says the status", async () => {
    relay.next = { status: 200, body: JSON.stringify({ preview: { uncommitted: ["draft.txt"], unmerged: [], missing: false } }) };
    expect(await api().discardPreview("4")).toEqual({ ok: true, value: { uncommitted: ["draft.txt"], unmerged: [], missing: false } });
    expect(last().body).toEqual({ id: "4" });
    relay.next = { status: 200, body: JSON.stringify({ discarded: { path: "/p", branch: "b", missing: false } }) };
    expect(await api().discard("4")).toMatchObject({ ok: true, value: { branch: "b" } });
    expect(last().body).toEqual({ id: "4", confirm: true });
    relay.next = { status: 502, body: "<html>bad gateway</html>" };
    expect(await api().discard("4")).toEqual({ ok: false, error: "pier answered 502 Bad Gateway" });
  });

  it("says so when pier cannot be reached", async () => {
    const unreachable = worktreeApi(() => Promise.reject(new TypeError("Failed to fetch")));
    expect(await unreachable.diff("1")).toEqual({ ok: false, error: "Cannot reach pier: Failed to fetch" });
  });
});
