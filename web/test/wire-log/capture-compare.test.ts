import { describe, expect, it } from "vitest";
import { CaptureWriter } from "../../src/lib/wire-log/capture.ts";
import {
  alignKeys,
  compareCaptureTexts,
  compareSides,
  diffShapes,
  myersMatches,
  shapeOf,
  sideFromEvents,
  sideFromText,
  summaryLines,
  valueDifferences,
  type CompareEvent,
  type Comparison,
  type CompareRow,
} from "../../src/lib/wire-log/capture-compare.ts";
import { fixtureLines, fixtureText, random } from "./support.ts";

const encoder = new TextEncoder();
const START = Date.parse("2026-05-01T10:00:00.000Z");

/** A capture as the inspector writes it: the hello (naming pi's version), then per fixture line the command that asked for it and pi's bytes. */
function captureOf(lines: readonly string[], piVersion: string, seed = 1): string {
  const rand = random(seed);
  const writer = new CaptureWriter({ startedAt: START, pier: "0.1.0" });
  let at = START;
  writer.addFrame(JSON.stringify({ type: "hello", clientId: "c1", relayVersion: "0.1.0", pi: { version: piVersion, source: "option" } }), at);
  for (const line of lines) {
    const value = JSON.parse(line) as Record<string, unknown>;
    if (value["type"] === "response" && typeof value["id"] === "string") {
      const command: Record<string, unknown> = { id: value["id"], type: value["command"] };
      if (value["command"] === "prompt") command["message"] = "Use the tools please";
      writer.addSent(JSON.stringify(command), (at += 1));
    }
    // Bytes in random chunks, as pi's pipe hands them over.
    const bytes = encoder.encode(`${line}\n`);
    for (let offset = 0; offset < bytes.length;) {
      const size = 1 + Math.floor(rand() * 300);
      writer.addBytes(bytes.subarray(offset, offset + size), (at += 1));
      offset += size;
    }
  }
  writer.finish();
  return writer.text();
}

function compareTexts(a: string, b: string): Comparison {
  const result = compareCaptureTexts({ name: "a.jsonl", text: a }, { name: "b.jsonl", text: b });
  if (!result.ok) throw new Error(result.message);
  return result.comparison;
}

const records = (rows: readonly CompareRow[]) => rows.filter((r): r is Extract<CompareRow, { kind: "record" }> => r.kind === "record");
const keyOf = (comparison: Comparison, row: Extract<CompareRow, { kind: "record" }>) => (row.a ?? row.b)!.key;

describe("shapes", () => {
  it("are paths and types, not values", () => {
    const a = shapeOf({ type: "x", id: "1", n: 3, list: [{ k: "a" }, { k: "b", extra: true }], nothing: null });
    expect([...a.entries()].sort()).toEqual(
      [
        ["type", "string"],
        ["id", "string"],
        ["n", "number"],
        ["list", "array"],
        ["list[]", "object"],
        ["list[].k", "string"],
        ["list[].extra", "boolean"],
        ["nothing", "null"],
      ].sort(),
    );
    expect(shapeOf({ type: "y", id: "2", n: 4 })).toEqual(shapeOf({ type: "z", id: "9", n: 0.5 }));
  });

  it("diff: added, removed, changed type", () => {
    const diff = diffShapes(shapeOf({ type: "a", gone: 1, kind: "x" }), shapeOf({ type: "a", added: [], kind: null }));
    expect(diff).toEqual({ onlyA: ["gone"], onlyB: ["added"], changed: [{ path: "kind", a: "string", b: "null" }] });
  });

  it("a huge record costs a bounded shape", () => {
    const big = { type: "response", data: { messages: Array.from({ length: 50_000 }, (_, i) => ({ role: "user", content: `m${i}` })) } };
    const shape = shapeOf(big);
    expect(shape.get("data.messages[].role")).toBe("string");
    expect(shape.size).toBeLessThan(20);
  });
});

describe("alignment of key sequences", () => {
  const ints = (text: string) => Int32Array.from(text, (c) => c.charCodeAt(0));
  const lcs = (a: string, b: string) =>
    myersMatches(ints(a), ints(b))!
      .map(([i]) => a[i])
      .join("");

  it("finds a longest common subsequence, in order", () => {
    expect(lcs("ABCABBA", "CBABAC")).toHaveLength(4);
    expect(lcs("abcdef", "abcdef")).toBe("abcdef");
    expect(lcs("abc", "xyz")).toBe("");
    expect(lcs("", "abc")).toBe("");
    const rand = random(7);
    for (let trial = 0; trial < 200; trial++) {
      const gen = () => Array.from({ length: Math.floor(rand() * 12) }, () => "abc"[Math.floor(rand() * 3)]).join("");
      const a = gen();
      const b = gen();
      const matches = myersMatches(ints(a), ints(b))!;
      // Matches pair equal keys, strictly increasing on both sides, and are as many as the dynamic-programming LCS.
      for (let k = 0; k < matches.length; k++) {
        const [i, j] = matches[k]!;
        expect(a[i]).toBe(b[j]);
        if (k > 0) expect(i > matches[k - 1]![0] && j > matches[k - 1]![1]).toBe(true);
      }
      const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
      for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) dp[i]![j] = a[i - 1] === b[j - 1] ? dp[i - 1]![j - 1]! + 1 : Math.max(dp[i - 1]![j]!, dp[i]![j - 1]!);
      expect(matches.length).toBe(dp[a.length]![b.length]);
    }
  });

  it("gives up past its edit limit, and alignKeys still pairs what it can", () => {
    const a = ints("ab".repeat(100));
    const b = ints("ba".repeat(100));
    expect(myersMatches(a, b, 1)).toBeNull();
    const matches = alignKeys(ints(`x${"a".repeat(3000)}y`), ints(`x${"b".repeat(3000)}y`));
    expect(matches).toEqual([
      [0, 0],
      [3001, 3001],
    ]);
  });
});

describe("two captures of one prompt: pi 0.87.1 and 1.6.0", () => {
  const old = captureOf(fixtureLines("nested-tools"), "0.87.1");
  const newer = captureOf(fixtureLines("pi-1.6.0/nested-tools"), "1.6.0", 2);
  const comparison = compareTexts(old, newer);

  it("reads pi's version from each capture's hello and finds one run on each side", () => {
    expect(comparison.a.piVersion).toBe("0.87.1");
    expect(comparison.b.piVersion).toBe("1.6.0");
    expect(comparison.summary.runsA).toBe(1);
    expect(comparison.summary.runsB).toBe(1);
    expect(comparison.rows[0]).toEqual({ kind: "title", title: "Run 1: “Use the tools please”", status: "same" });
  });

  it("flags the fields 1.6.0 added, and not the values that differ", () => {
    const { summary } = comparison;
    expect(summary.fieldsOnlyB).toContain("agent_settled › aborted");
    // 0.87.1 answers a prompt with no data; 1.6.0 says what became of it (data.disposition).
    expect(summary.fieldsOnlyB).toContain("response prompt › data");
    // A field added with fields under it is named once.
    expect(summary.fieldsOnlyB).toContain("message_end toolResult › message.nestedCalls");
    expect(summary.fieldsOnlyB.some((f) => f.includes("nestedCalls."))).toBe(false);
    // Ids, timestamps and text differ between any two runs: a pair that differs only in them is the same.
    const sameEnd = records(comparison.rows).find((r) => r.status === "same" && r.a?.key === "message_end user")!;
    const values = valueDifferences(comparison.a.records[sameEnd.a!.first]!.value, comparison.b.records[sameEnd.b!.first]!.value);
    expect(values.map((v) => v.path)).toContain("message.timestamp");
    for (const field of [...summary.fieldsOnlyA, ...summary.fieldsOnlyB, ...summary.fieldsChanged]) expect(field).not.toMatch(/› (id|message\.timestamp)$/);
    const settled = records(comparison.rows).find((r) => r.a?.key === "agent_settled")!;
    expect(settled.status).toBe("changed");
    expect(settled.diff).toEqual({ onlyA: [], onlyB: ["aborted"], changed: [] });
    // The same record types in the same places are not flagged.
    const starts = records(comparison.rows).filter((r) => r.a?.key === "agent_start" || r.a?.key === "turn_start");
    expect(starts.length).toBeGreaterThan(0);
    for (const row of starts) expect(row.status).toBe("same");
    expect(summaryLines(summary).join("\n")).toMatch(/fields? only in B/);
  });

  it("collapses each message's deltas into one row with its count, aligned however many each side has", () => {
    const deltas = records(comparison.rows).filter((r) => keyOf(comparison, r) === "message_update");
    expect(deltas.length).toBeGreaterThan(0);
    for (const row of deltas) {
      expect(row.a).not.toBeNull();
      expect(row.b).not.toBeNull();
    }
    const countA = deltas.reduce((n, r) => n + r.a!.count, 0);
    expect(countA).toBe(fixtureLines("nested-tools").filter((l) => l.includes('"type":"message_update"')).length);
  });

  it("a capture against itself has no differences", () => {
    const same = compareTexts(old, captureOf(fixtureLines("nested-tools"), "0.87.1", 9));
    expect(same.summary.same).toBe(same.summary.rows);
    expect(summaryLines(same.summary)).toEqual([`${same.summary.rows} of ${same.summary.rows} rows the same`]);
  });
});

describe("runs", () => {
  const line = (value: unknown) => encoder.encode(`${JSON.stringify(value)}\n`);
  const bytes = (...values: unknown[]): CompareEvent => ({ kind: "bytes", bytes: new Uint8Array(values.flatMap((v) => [...line(v)])) });
  const prompt = (message: string): CompareEvent => ({ kind: "sent", text: JSON.stringify({ id: `c1:${message}`, type: "prompt", message }) });
  const run = (...middle: unknown[]) =>
    bytes({ type: "response", command: "prompt", success: true }, { type: "agent_start" }, ...middle, { type: "agent_end", messages: [] }, { type: "agent_settled" });

  it("the i-th run faces the i-th run; a run only one side has is a gap of its own", () => {
    const a = sideFromEvents("a", [bytes({ type: "response", command: "get_state", success: true, data: {} }), prompt("one"), run({ type: "turn_start" }), prompt("two"), run({ type: "turn_start" })]);
    const b = sideFromEvents("b", [prompt("one"), run({ type: "turn_start" }, { type: "queue_update", steering: [], followUp: [] })]);
    const { rows, summary } = compareSides(a, b);
    expect(rows.filter((r) => r.kind === "title")).toEqual([
      { kind: "title", title: "Before the first run", status: "only-a" },
      { kind: "title", title: "Run 1: “one”", status: "same" },
      { kind: "title", title: "Run 2: “two”", status: "only-a" },
    ]);
    expect(summary.runsA).toBe(2);
    expect(summary.runsB).toBe(1);
    expect(summary.typesOnlyB).toEqual(["queue_update"]);
    const queue = records(rows).find((r) => r.b?.key === "queue_update")!;
    expect(queue).toMatchObject({ a: null, status: "only-b" });
    // Each record of run 2 is A's alone.
    const afterRun2 = rows.slice(rows.findIndex((r) => r.kind === "title" && r.title.startsWith("Run 2")) + 1);
    expect(afterRun2.every((r) => r.kind === "record" && r.status === "only-a")).toBe(true);
  });

  it("a capture with no agent_settled (pi before it had one) ends its runs at agent_end", () => {
    const oldRun = bytes({ type: "response", command: "prompt", success: true }, { type: "agent_start" }, { type: "agent_end", messages: [] });
    const side = sideFromEvents("a", [prompt("one"), oldRun, bytes({ type: "response", command: "get_state", success: true, data: {} }), prompt("two"), oldRun]);
    const { rows } = compareSides(side, side);
    expect(rows.filter((r) => r.kind === "title").map((r) => (r as { title: string }).title)).toEqual(["Run 1: “one”", "After run 1", "Run 2: “two”"]);
  });

  it("leaves out relay frames and pier.* requests, keeps lines that are not JSON", () => {
    const side = sideFromEvents("a", [
      { kind: "frame", text: JSON.stringify({ type: "peers", count: 2 }) },
      { kind: "sent", text: JSON.stringify({ type: "pier.files.list", id: "x" }) },
      { kind: "bytes", bytes: encoder.encode('not json\n{"type":"agent_start"}') },
    ]);
    expect(side.records.map((r) => r.key)).toEqual(["(not JSON)", "agent_start"]);
  });
});

describe("values, on demand", () => {
  it("lists the leaves whose values differ, not the changes of type", () => {
    const a = { type: "response", id: "c1:1", data: { model: "x", list: [1, 2], kind: "s" } };
    const b = { type: "response", id: "c2:9", data: { model: "x", list: [1, 3, 4], kind: null } };
    expect(valueDifferences(a, b)).toEqual([
      { path: "id", a: '"c1:1"', b: '"c2:9"' },
      { path: "data.list.length", a: "2", b: "3" },
      { path: "data.list[1]", a: "2", b: "3" },
    ]);
  });
});

describe("bad input", () => {
  const good = captureOf(fixtureLines("nested-tools").slice(0, 5), "0.87.1");

  it("names the file that is not a capture", () => {
    expect(compareCaptureTexts({ name: "good.jsonl", text: good }, { name: "notes.txt", text: "just notes\n" })).toEqual({
      ok: false,
      message: "notes.txt cannot be compared: Line 1 is not JSON: this is not a Pier capture file.",
    });
    const broken = good.split("\n");
    broken.splice(2, 0, "{oops");
    expect(compareCaptureTexts({ name: "broken.jsonl", text: broken.join("\n") }, { name: "good.jsonl", text: good })).toEqual({
      ok: false,
      message: "broken.jsonl cannot be compared: Line 3: not JSON.",
    });
    const both = compareCaptureTexts({ name: "x.jsonl", text: "" }, { name: "y.jsonl", text: "{}" });
    expect(both.ok).toBe(false);
    expect(!both.ok && both.message).toMatch(/^x\.jsonl cannot be compared: .* y\.jsonl cannot be compared: /);
  });

  it("a header alone holds nothing to compare", () => {
    expect(sideFromText("empty.jsonl", good.slice(0, good.indexOf("\n") + 1))).toEqual({ ok: false, message: "empty.jsonl cannot be compared: it holds no recorded events." });
  });
});

describe("size", () => {
  it("two captures of 100,000 records each compare (collapsed deltas, per-run alignment)", () => {
    const build = (name: string, deltasPerMessage: number, extraEvery: number): ReturnType<typeof sideFromEvents> => {
      const events: CompareEvent[] = [];
      for (let r = 0; r < 100; r++) {
        const values: unknown[] = [{ type: "response", command: "prompt", success: true }, { type: "agent_start" }];
        for (let m = 0; m < 10; m++) {
          values.push({ type: "message_start", message: { role: "assistant", content: [] } });
          for (let d = 0; d < deltasPerMessage; d++) values.push({ type: "message_update", usage: {}, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "x" } });
          values.push({ type: "message_end", message: { role: "assistant", content: [{ type: "text", text: "x" }] } });
          if (m % extraEvery === 0) values.push({ type: "tool_execution_start", toolCallId: "t", toolName: "read", args: {} });
        }
        values.push({ type: "agent_end", messages: [] }, { type: "agent_settled" });
        events.push({ kind: "sent", text: JSON.stringify({ type: "prompt", message: `run ${r}` }) });
        events.push({ kind: "bytes", bytes: encoder.encode(values.map((v) => `${JSON.stringify(v)}\n`).join("")) });
      }
      return sideFromEvents(name, events);
    };
    const a = build("a", 98, 2);
    const b = build("b", 90, 4);
    expect(a.records.length).toBeGreaterThan(100_000);
    expect(b.records.length).toBeGreaterThan(90_000);
    const { summary } = compareSides(a, b);
    expect(summary.runsA).toBe(100);
    // A has a tool_execution_start after messages 0, 2, 4, 6, 8 of each run, B after 0, 4, 8.
    expect(summary.onlyA).toBe(100 * 2);
    expect(summary.onlyB).toBe(0);
  }, 60_000);
});
