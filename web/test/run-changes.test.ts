import { describe, expect, it } from "vitest";
import { changedPaths, runsWithChanges } from "../src/lib/transcript/run-changes.ts";
import { runFileState } from "../src/lib/transcript/run-file-state.ts";
import { rowKey, transcriptRows } from "../src/lib/transcript/transcript-rows.ts";
import type { ConversationMessage } from "../src/lib/pi-types.ts";

const user = (text: string) => ({ role: "user", content: text, timestamp: 1 }) as ConversationMessage;
const call = (id: string, name: string, args: Record<string, unknown>) => ({ type: "toolCall", id, name, arguments: args });
const assistant = (...calls: ReturnType<typeof call>[]) =>
  ({ role: "assistant", content: [{ type: "text", text: "ok" }, ...calls], stopReason: calls.length ? "toolUse" : "stop", timestamp: 1 }) as unknown as ConversationMessage;
const result = (id: string, isError = false) => ({ role: "toolResult", toolCallId: id, toolName: "edit", content: [], isError, timestamp: 1 }) as unknown as ConversationMessage;

const CWD = "/home/me/project";

describe("changedPaths", () => {
  it("lists the files write and edit changed, each once, in the order of their first change", () => {
    const messages = [
      user("go"),
      assistant(call("a", "write", { path: "b.txt", content: "x" }), call("b", "read", { path: "r.txt" }), call("c", "edit", { path: "./a.txt", edits: [] })),
      result("a"),
      result("b"),
      result("c"),
      assistant(call("d", "edit", { path: `${CWD}/b.txt` }), call("e", "bash", { command: "touch z" })),
      result("d"),
      result("e"),
    ];
    expect(changedPaths(messages, 0, messages.length, CWD)).toEqual(["b.txt", "a.txt"]);
  });

  it("leaves out failed calls, calls that never got a result, and paths outside the workspace", () => {
    const messages = [
      user("go"),
      assistant(call("a", "edit", { path: "failed.txt" }), call("b", "write", { path: "/etc/hosts", content: "" }), call("c", "write", { path: "unanswered.txt", content: "" })),
      result("a", true),
      result("b"),
      assistant(call("d", "edit", { path: "failed.txt" }), call("e", "write", { file_path: "other.txt", content: "" })),
      result("d", true),
      result("e"),
    ];
    expect(changedPaths(messages, 0, messages.length, CWD)).toEqual(["other.txt"]);
  });

  it("fails if a failed edit is counted: the same file edited once more, successfully, is listed", () => {
    const messages = [user("go"), assistant(call("a", "edit", { path: "f.txt" })), result("a", true), assistant(call("b", "edit", { path: "f.txt" })), result("b")];
    expect(changedPaths(messages, 0, 3, CWD)).toEqual([]);
    expect(changedPaths(messages, 0, 5, CWD)).toEqual(["f.txt"]);
  });
});

describe("runsWithChanges", () => {
  const messages = [
    user("one"),
    assistant(call("a", "write", { path: "one.txt", content: "" })),
    result("a"),
    assistant(),
    user("two: nothing written"),
    assistant(),
    user("three"),
    assistant(call("b", "edit", { path: "three.txt" })),
    result("b"),
  ];

  it("gives each run that changed files its list, from its prompt to the next prompt", () => {
    expect(runsWithChanges(messages, false, CWD)).toEqual([
      { start: 0, end: 4, paths: ["one.txt"] },
      { start: 6, end: 9, paths: ["three.txt"] },
    ]);
  });

  it("has no list for the run still going", () => {
    expect(runsWithChanges(messages, true, CWD)).toEqual([{ start: 0, end: 4, paths: ["one.txt"] }]);
  });

  it("puts a run's row after its last message, before the next prompt", () => {
    const rows = transcriptRows(null, messages, [], [], runsWithChanges(messages, false, CWD));
    expect(rows.map(rowKey)).toEqual(["message:0", "message:1", "message:3", "run-changes:0", "message:4", "message:5", "message:6", "message:7", "run-changes:6"]);
  });
});

describe("a steering message inside a run (issue #34 review)", () => {
  const steer = (text: string) => user(text);
  const stopped = () => ({ role: "assistant", content: [{ type: "text", text: "done" }], stopReason: "stop", timestamp: 1 }) as unknown as ConversationMessage;

  it("does not split the run's list: the run goes on to its end (agent_settled), the steer included", () => {
    const messages = [
      user("fix both files"),
      assistant(call("a", "edit", { path: "a.txt" })),
      result("a"),
      steer("also b, please"),
      assistant(call("b", "edit", { path: "b.txt" })),
      result("b"),
      stopped(),
      user("next task"),
      assistant(call("c", "write", { path: "c.txt", content: "" })),
      result("c"),
      stopped(),
    ];
    expect(runsWithChanges(messages, false, CWD)).toEqual([
      { start: 0, end: 7, paths: ["a.txt", "b.txt"] },
      { start: 7, end: 11, paths: ["c.txt"] },
    ]);
  });

  it("counts two steers in a row, and one right after the assistant asked for tools, as the same run", () => {
    const asked = assistant(call("a", "edit", { path: "a.txt" }));
    const messages = [user("go"), asked, steer("one"), steer("two"), result("a"), stopped()];
    expect(runsWithChanges(messages, false, CWD)).toEqual([{ start: 0, end: 6, paths: ["a.txt"] }]);
  });

  it("starts a run at a prompt after an aborted turn or a compaction", () => {
    const aborted = { role: "assistant", content: [], stopReason: "aborted", timestamp: 1 } as unknown as ConversationMessage;
    const summary = { role: "compactionSummary", summary: "s", tokensBefore: 1, timestamp: 1 } as unknown as ConversationMessage;
    const messages = [
      user("one"),
      assistant(call("a", "write", { path: "one.txt", content: "" })),
      result("a"),
      aborted,
      user("two"),
      assistant(call("b", "write", { path: "two.txt", content: "" })),
      result("b"),
      summary,
      user("three"),
      assistant(call("c", "write", { path: "three.txt", content: "" })),
      result("c"),
    ];
    expect(runsWithChanges(messages, false, CWD).map((run) => run.paths)).toEqual([["one.txt"], ["two.txt"], ["three.txt"]]);
  });
});

describe("runFileState", () => {
  it("reviews what is not staged first, else what is staged, and says when git lists the file no more", () => {
    expect(runFileState(undefined)).toEqual({ kind: "clean", words: "no changes now" });
    expect(runFileState({ path: "a", status: "modified", index: " ", worktree: "M" })).toMatchObject({ side: "unstaged", words: "modified" });
    expect(runFileState({ path: "a", status: "modified", index: "M", worktree: "M" })).toMatchObject({ side: "unstaged", words: "modified, partly staged" });
    expect(runFileState({ path: "a", status: "modified", index: "M", worktree: " " })).toMatchObject({ side: "staged", words: "modified, staged" });
    expect(runFileState({ path: "a", status: "untracked", index: "?", worktree: "?" })).toMatchObject({ side: "unstaged", words: "new, not staged" });
  });
});
