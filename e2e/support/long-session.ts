// A long, valid pi session file (format v3: a header line, then message
// entries chained by id/parentId) for pi's `--session <file>`. Used by the
// long-session e2e spec and bench/render.bench.ts so both open the same kind
// of transcript. Messages alternate user/assistant with varied lengths (code
// blocks, lists, thinking) so row heights differ as they do in real use.
//
// Plain TypeScript with erasable types only: Node runs it with type stripping.
import { randomUUID } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const BASE_TIME = Date.parse("2026-01-05T09:00:00.000Z");

const usage = {
  input: 120,
  output: 40,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 160,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** The text of user message number `n` (1-based over user messages). */
export function userText(n: number): string {
  const lines = [`Question ${n}: how does step ${n} of the refactor work?`];
  if (n % 3 === 0) lines.push("Please keep the answer short, and show the code.");
  if (n % 7 === 0) lines.push("Also: which tests cover it?", "And what would break if we removed it?");
  return lines.join("\n");
}

/** The markdown of assistant message number `n`. */
export function assistantText(n: number): string {
  const parts = [`Answer ${n}. Step ${n} moves the parsing out of the request handler so it can be tested on its own.`];
  if (n % 2 === 0) parts.push("It keeps the public interface the same; only the internals move.");
  if (n % 4 === 0) {
    parts.push(["```ts", `export function step${n}(input: string): number {`, "  const trimmed = input.trim();", "  return trimmed.length;", "}", "```"].join("\n"));
  }
  if (n % 5 === 0) parts.push(["- the handler calls the parser", "- the parser returns errors as values", "- the tests feed it bad input"].join("\n"));
  return parts.join("\n\n");
}

export interface LongSession {
  /** The session file, for `pi --session <file>`. */
  file: string;
  /** The folder it is in (also the session's cwd). */
  dir: string;
  messageCount: number;
  firstUserText: string;
  lastAssistantText: string;
}

/** The JSONL text of a session with `messageCount` messages (rounded up to even). */
export function longSessionJsonl(messageCount: number, cwd: string): string {
  const pairs = Math.ceil(messageCount / 2);
  const lines: string[] = [JSON.stringify({ type: "session", version: 3, id: randomUUID(), timestamp: new Date(BASE_TIME).toISOString(), cwd })];
  let parentId: string | null = null;
  let seq = 0;
  const entry = (message: Record<string, unknown>, at: number) => {
    const id = (++seq).toString(16).padStart(8, "0");
    lines.push(JSON.stringify({ type: "message", id, parentId, timestamp: new Date(at).toISOString(), message }));
    parentId = id;
  };
  for (let n = 1; n <= pairs; n++) {
    const at = BASE_TIME + n * 60_000;
    entry({ role: "user", content: userText(n), timestamp: at }, at);
    const content: Record<string, unknown>[] = [];
    if (n % 6 === 0) content.push({ type: "thinking", thinking: `Step ${n}: the user wants the short version.` });
    content.push({ type: "text", text: assistantText(n) });
    entry(
      {
        role: "assistant",
        content,
        api: "openai-completions",
        provider: "pier-demo",
        model: "pier-demo-model",
        usage,
        stopReason: "stop",
        timestamp: at + 2000,
      },
      at + 2000,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Writes a long session into a new temporary folder. */
export async function writeLongSession(messageCount: number): Promise<LongSession> {
  const dir = await mkdtemp(join(tmpdir(), "pier-long-session-"));
  const file = join(dir, "long-session.jsonl");
  await writeFile(file, longSessionJsonl(messageCount, dir));
  const pairs = Math.ceil(messageCount / 2);
  return { file, dir, messageCount: pairs * 2, firstUserText: userText(1).split("\n")[0]!, lastAssistantText: `Answer ${pairs}.` };
}
