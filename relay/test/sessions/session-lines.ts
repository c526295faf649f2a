// Test helper: pi session lines as pi 0.87.1 writes them (JSON.stringify of
// the entry, `type` first, a message's `role` first), and a reader that
// counts the bytes a scan reads.
import { open } from "node:fs/promises";
import type { SessionFileHandle, SessionFileReader } from "../../src/sessions/session-summary.ts";

let nextId = 0;
const entryId = () => (++nextId).toString(16).padStart(8, "0");
const TIMESTAMP = "2025-01-02T03:04:05.000Z";

export function header(options: { cwd: string; id?: string; timestamp?: string; parentSession?: string }): string {
  return JSON.stringify({
    type: "session",
    version: 3,
    id: options.id ?? `0198c0de-0000-7000-8000-${entryId().padStart(12, "0")}`,
    timestamp: options.timestamp ?? TIMESTAMP,
    cwd: options.cwd,
    ...(options.parentSession ? { parentSession: options.parentSession } : {}),
  });
}

function messageLine(message: Record<string, unknown>): string {
  return JSON.stringify({ type: "message", id: entryId(), parentId: null, timestamp: TIMESTAMP, message: { ...message, timestamp: 1735787045000 } });
}

export function system(): string {
  return messageLine({ role: "system", content: "", sections: { preamble: "You are an expert coding assistant." }, toolsAdded: [] });
}

export function user(content: string | Record<string, unknown>[]): string {
  return messageLine({ role: "user", content });
}

export function assistant(text: string, cost?: number): string {
  const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost ?? 0 } };
  return messageLine({
    role: "assistant",
    content: [{ type: "text", text }],
    api: "openai-completions",
    provider: "pier-demo",
    model: "pier-demo-model",
    ...(cost === undefined ? {} : { usage }),
    stopReason: "stop",
  });
}

export function toolResult(text: string): string {
  return messageLine({ role: "toolResult", toolCallId: "call_1", toolName: "bash", content: [{ type: "text", text }], isError: false });
}

export function sessionInfo(name: string): string {
  return JSON.stringify({ type: "session_info", id: entryId(), parentId: null, timestamp: TIMESTAMP, name });
}

export function label(): string {
  return JSON.stringify({ type: "label", id: entryId(), parentId: null, timestamp: TIMESTAMP, targetId: "00000001", label: "x" });
}

export const lines = (...all: string[]) => all.map((line) => `${line}\n`).join("");

/** A reader over the real file system that counts the bytes read. */
export function countingReader(): SessionFileReader & { bytes: number; opens: number } {
  const reader = {
    bytes: 0,
    opens: 0,
    async open(path: string): Promise<SessionFileHandle> {
      reader.opens++;
      const handle = await open(path, "r");
      return {
        async read(buffer, offset, length, position) {
          const result = await handle.read(buffer, offset, length, position);
          reader.bytes += result.bytesRead;
          return result;
        },
        close: () => handle.close(),
      };
    },
  };
  return reader;
}
