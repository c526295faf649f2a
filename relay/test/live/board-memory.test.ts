// The board file's reader: only what pier writes is taken (every field
// checked), since the file's paths and branch names go to pi's and git's
// command lines on the next start.
import { describe, expect, it } from "vitest";
import { parseBoard } from "../../src/live/board-memory.ts";

const commit = "a".repeat(40);
const agent = { id: "2", cwd: "/work/app", sessionFile: "/home/u/.pi/agent/sessions/x.jsonl", createdAt: 1, worktree: null };
const worktree = { branch: "agent/one", base: { branch: "main", commit }, path: "/work/app.worktrees/agent-one", repo: "/work/app" };
const board = (agents: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ version: 1, folder: "/work", pid: 42, agents, ...extra });

describe("parseBoard", () => {
  it("reads what pier writes", () => {
    expect(parseBoard(board([agent, { ...agent, id: "3", sessionFile: null, worktree }]))).toEqual({
      folder: "/work",
      pid: 42,
      agents: [agent, { ...agent, id: "3", sessionFile: null, worktree }],
    });
  });

  it.each([
    ["not JSON", "{"],
    ["another version", board([], { version: 2 })],
    ["a relative folder", board([], { folder: "work" })],
    ["no pid", board([], { pid: 0 })],
    ["an id that is not a number", board([{ ...agent, id: "../2" }])],
    ["the same id twice", board([agent, agent])],
    ["a relative cwd", board([{ ...agent, cwd: "app" }])],
    ["a NUL in a path", board([{ ...agent, sessionFile: "/x\u0000y" }])],
    ["a branch that reads as an option", board([{ ...agent, worktree: { ...worktree, branch: "--force" } }])],
    ["a base branch with a space", board([{ ...agent, worktree: { ...worktree, base: { branch: "a b", commit } } }])],
    ["a commit that is not one", board([{ ...agent, worktree: { ...worktree, base: { branch: "main", commit: "HEAD" } } }])],
    ["an agents list that is not one", JSON.stringify({ version: 1, folder: "/w", pid: 1, agents: {} })],
  ])("refuses %s", (_what, text) => {
    expect(parseBoard(text)).toBeNull();
  });
});
