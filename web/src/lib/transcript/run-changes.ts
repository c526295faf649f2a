// "What this run changed" (issue #34 item 1): the files a prompt's run wrote
// or edited with pi's built-in `write` and `edit` tools, read from the run's
// tool calls. A run is a prompt and what follows it up to the next prompt
// pi took when idle: pi's run goes on until agent_settled, and a steering
// message it takes in between (pi hands it over after a turn's tool results)
// is part of it, not the start of another list. From the messages alone (a
// loaded session has no events) a user message that follows a tool result,
// an assistant turn that asked for tools, or another user message was taken
// mid-run; one after an ended turn (stop, error, aborted), a compaction or
// nothing starts a run. A follow-up pi took after a turn that stopped reads
// as a new prompt, and gets its own list. Only calls pi answered without an
// error count: a failed edit
// changed nothing, and a call with no result never ran. Paths outside the
// workspace are left out (the workbench cannot open them). Pure, for tests.
import type { ConversationMessage } from "../pi-types.ts";
import { stringArg, workspacePath } from "../tools/tool-details.ts";

/** The tools whose successful calls change a file. */
const WRITING_TOOLS = new Set(["edit", "write"]);

export interface RunChanges {
  /** Index of the run's user message. */
  start: number;
  /** Index just after the run's last message (the next user message, or the end). */
  end: number;
  /** Workspace-relative paths the run changed, first change first, each once. */
  paths: string[];
}

/**
 * The changed paths of the calls in messages[start, end), de-duplicated in
 * the order of their first call.
 */
export function changedPaths(messages: readonly ConversationMessage[], start: number, end: number, cwd: string | null): string[] {
  // The writing calls first: most runs have none, and then no result is read
  // (every run of a session is read again whenever its message list changes:
  // 50,000 messages cost the page ~18 ms when each run's results were mapped).
  const calls: Extract<Extract<ConversationMessage, { role: "assistant" }>["content"][number], { type: "toolCall" }>[] = [];
  for (let i = start; i < end; i++) {
    const message = messages[i];
    if (message?.role !== "assistant" || !Array.isArray(message.content)) continue;
    for (const block of message.content) if (block.type === "toolCall" && WRITING_TOOLS.has(block.name)) calls.push(block);
  }
  if (calls.length === 0) return [];
  const failed = new Map<string, boolean>();
  for (let i = start; i < end; i++) {
    const message = messages[i];
    if (message?.role === "toolResult") failed.set(message.toolCallId, message.isError === true);
  }
  const paths: string[] = [];
  const seen = new Set<string>();
  for (const call of calls) {
    // No result (interrupted before it ran) or an error: nothing changed.
    if (failed.get(call.id) !== false) continue;
    const raw = stringArg(call.arguments, "path", "file_path", "filePath");
    const path = raw === null ? null : workspacePath(raw, cwd);
    if (path === null || seen.has(path)) continue;
    seen.add(path);
    paths.push(path);
  }
  return paths;
}

/**
 * Every finished run that changed a file. `lastRunning`: the last run is
 * still going (its list comes when it ends).
 */
export function runsWithChanges(messages: readonly ConversationMessage[], lastRunning: boolean, cwd: string | null): RunChanges[] {
  const runs: RunChanges[] = [];
  let start = -1;
  const close = (end: number) => {
    if (start === -1) return;
    const paths = changedPaths(messages, start, end, cwd);
    if (paths.length > 0) runs.push({ start, end, paths });
  };
  for (let i = 0; i < messages.length; i++) {
    if (messages[i]!.role !== "user" || (start !== -1 && takenMidRun(messages[i - 1]))) continue;
    close(i);
    start = i;
  }
  if (!lastRunning) close(messages.length);
  return runs;
}

/** Whether a user message after `before` was one pi took while its run went on (a steer), not a new prompt. */
function takenMidRun(before: ConversationMessage | undefined): boolean {
  if (before === undefined) return false;
  if (before.role === "toolResult" || before.role === "user") return true;
  return before.role === "assistant" && before.stopReason === "toolUse";
}
