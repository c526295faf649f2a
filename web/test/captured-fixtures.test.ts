// Transcripts captured from a real pi 0.87.1 child behind the relay (demo
// model). Each fixture is pi's stdout as JSONL and ends with the answer to a
// get_messages sent after agent_settled: the reducer's rebuilt transcript
// must equal it. Add more captures to fixtures/ and they are checked too.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { noteCommandSent, reduceAll } from "../src/lib/pi-state/reduce-record.ts";
import { createSessionState } from "../src/lib/pi-state/session-state.ts";

const dir = join(import.meta.dirname, "fixtures");
const fixtures = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));

function load(file: string): Record<string, any>[] {
  return readFileSync(join(dir, file), "utf8")
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line));
}

describe.each(fixtures)("captured transcript %s", (file) => {
  it("rebuilds exactly the messages get_messages returns", () => {
    const records = load(file);
    const answerAt = records.findLastIndex((r) => r.type === "response" && r.command === "get_messages");
    expect(answerAt).toBeGreaterThan(0);
    // Earlier get_messages answers were the capturing browser's own resyncs
    // (after compaction, an RPC bash): replay them as its requests.
    const state = createSessionState();
    for (const r of records.slice(0, answerAt)) {
      if (r.type === "response" && r.command === "get_messages") noteCommandSent(state, r.id, "get_messages", 0);
    }
    reduceAll(records.slice(0, answerAt), state);
    const expected = (records[answerAt]!.data.messages as { role: string }[]).filter((m) => m.role !== "system");
    expect(state.messages).toEqual(expected);
    expect(state.status).toBe("idle");
    expect(state.needsMessages).toBe(false);
    expect(state.stream).toBeNull();
    expect(state.systemPrompt?.role).toBe("system");
    expect(Object.values(state.tools).every((t) => t.status === "done" || t.status === "failed")).toBe(true);
  });
});
