import { describe, expect, it } from "vitest";
import {
  allBars,
  applyTimeline,
  createTimeline,
  listLanes,
  MAX_DELTA_SAMPLES,
  openBars,
  timeExtent,
  timelineItemAt,
  visibleBars,
  visibleInstants,
  type Bar,
  type TimelineModel,
} from "../../src/lib/wire-log/timeline.ts";
import type { WireEntry } from "../../src/lib/wire-log/wire-entry.ts";
import { fixtureEntries, fixtureNames, ME, random, sequence } from "./support.ts";

function feed(entries: readonly WireEntry[], model: TimelineModel = createTimeline()): TimelineModel {
  for (const e of entries) applyTimeline(model, e);
  return model;
}

const byKind = (model: TimelineModel, kind: Bar["kind"]): Bar[] => allBars(model).filter((b) => b.kind === kind);
const parentOf = (model: TimelineModel, bar: Bar): Bar | undefined => allBars(model).find((b) => b.id === bar.parentId);

describe("pi lane: runs, agents, turns, messages, tools", () => {
  it.each(fixtureNames())("nests and closes every bar of %s", (name) => {
    const entries = fixtureEntries(name);
    const model = feed(entries);
    const bars = allBars(model);
    // Everything the transcripts opened, they closed: they end idle.
    expect(openBars(model)).toEqual([]);
    for (const bar of bars) {
      expect(bar.end, `${bar.kind} ${bar.label}`).not.toBeNull();
      expect(bar.end!).toBeGreaterThanOrEqual(bar.start);
      const parent = parentOf(model, bar);
      if (bar.parentId !== null) {
        expect(parent, `parent of ${bar.label}`).toBeDefined();
        expect(bar.depth).toBe(parent!.depth + 1);
        expect(bar.start).toBeGreaterThanOrEqual(parent!.start);
        expect(bar.end!).toBeLessThanOrEqual(parent!.end!);
      }
    }
    const count = (type: string) => entries.filter((e) => (e.value as { type?: string }).type === type).length;
    expect(byKind(model, "agent")).toHaveLength(count("agent_start"));
    expect(byKind(model, "turn")).toHaveLength(count("turn_start"));
    expect(byKind(model, "message")).toHaveLength(count("message_start"));
    expect(byKind(model, "tool")).toHaveLength(count("tool_execution_start"));
    expect(byKind(model, "run").length).toBeLessThanOrEqual(count("agent_settled"));
    for (const agent of byKind(model, "agent")) expect(parentOf(model, agent)!.kind).toBe("run");
  });

  it("counts a message's deltas by kind and samples their times", () => {
    const entries = fixtureEntries("text-with-thinking");
    const model = feed(entries);
    const assistant = byKind(model, "message").filter((b) => b.role === "assistant");
    const steps = entries.map((e) => (e.value as { assistantMessageEvent?: { type: string } }).assistantMessageEvent?.type).filter((t): t is string => t !== undefined);
    const total = assistant.reduce((n, b) => ({ text: n.text + b.deltas!.text, thinking: n.thinking + b.deltas!.thinking }), { text: 0, thinking: 0 });
    expect(total.text).toBe(steps.filter((t) => t === "text_delta").length);
    expect(total.thinking).toBe(steps.filter((t) => t === "thinking_delta").length);
    expect(total.thinking).toBeGreaterThan(0);
    for (const bar of assistant) {
      const all = bar.deltas!.text + bar.deltas!.thinking + bar.deltas!.toolcall + bar.deltas!.other;
      expect(bar.deltaTimes!.length).toBe(Math.min(all, MAX_DELTA_SAMPLES));
    }
    const system = byKind(model, "message").find((b) => b.role === "system")!;
    expect(system.label).toBe("system prompt");
  });

  it("keeps the sample of a long stream bounded and spread over the whole message", () => {
    const items: [WireEntry["direction"], unknown][] = [["in", { type: "message_start", message: { role: "assistant", content: [] } }]];
    for (let i = 0; i < 20_000; i++) items.push(["in", { type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "x" } }]);
    items.push(["in", { type: "message_end", message: { role: "assistant", content: [], stopReason: "stop", durationMs: 2500 } }]);
    const model = feed(sequence(items, 0, 1));
    const [bar] = byKind(model, "message");
    expect(bar!.deltas!.text).toBe(20_000);
    expect(bar!.deltaTimes!.length).toBeLessThan(MAX_DELTA_SAMPLES);
    expect(bar!.deltaTimes!.length).toBeGreaterThan(MAX_DELTA_SAMPLES / 4);
    expect(bar!.deltaTimes![0]).toBe(1);
    expect(bar!.deltaTimes!.at(-1)!).toBeGreaterThan(15_000);
    expect(bar!.durationMs).toBe(2500);
  });

  it("hangs nested tool calls under their caller (pi 1.6)", () => {
    const model = feed(fixtureEntries("pi-1.6.0/nested-tools"));
    const tools = byKind(model, "tool");
    const caller = tools.find((t) => t.toolName === "nested_probe")!;
    const nested = tools.filter((t) => t.toolCallId!.startsWith(`${caller.toolCallId}/`));
    expect(nested.map((t) => t.toolName)).toEqual(["bash", "read"]);
    for (const bar of nested) {
      expect(bar.parentId).toBe(caller.id);
      expect(bar.row).toBe("tool+1");
      expect(bar.durationMs).toEqual(expect.any(Number));
    }
    expect(nested[0]!.updates).toBe(4);
    expect(nested[1]!.isError).toBe(true);
    expect(caller.row).toBe("tool");
    expect(parentOf(model, caller)!.kind).toBe("turn");
    expect(listLanes(model).find((l) => l.id === "pi")!.rows).toContain("tool+1");
  });

  it("draws retry waits between attempts, inside one run", () => {
    const model = feed(fixtureEntries("auto-retry"));
    expect(byKind(model, "run")).toHaveLength(1);
    const retries = byKind(model, "retry");
    expect(retries.map((r) => r.label)).toEqual(["retry wait 1/3 (20 ms)", "retry wait 2/3 (40 ms)", "retry wait 3/3 (80 ms)"]);
    expect(retries.every((r) => r.endedBy === "retry-started")).toBe(true);
    expect(byKind(model, "agent").map((a) => a.label)).toEqual(["agent", "agent (retry)", "agent (retry)", "agent (retry)"]);
  });

  it("ends a cancelled retry wait at auto_retry_end, and the run at agent_settled", () => {
    const entries = fixtureEntries("abort-retry");
    const model = feed(entries);
    const [retry] = byKind(model, "retry");
    const end = entries.find((e) => (e.value as { type?: string }).type === "auto_retry_end")!;
    expect(retry!.endSeq).toBe(end.seq);
    expect(retry!.endedBy).toBeNull();
  });

  it("marks an aborted run (pi 1.6) and an orphaned tool closed by the settle", () => {
    const model = feed(fixtureEntries("pi-1.6.0/handled-and-aborted"));
    expect(byKind(model, "run").map((r) => r.label)).toEqual(["run (aborted)", "run (aborted)"]);
    const model2 = feed(
      sequence([
        ["in", { type: "agent_start" }],
        ["in", { type: "turn_start" }],
        ["in", { type: "tool_execution_start", toolCallId: "t1", toolName: "bash", args: {} }],
        ["in", { type: "agent_end", messages: [], willRetry: false }],
        ["in", { type: "agent_settled", aborted: true }],
      ]),
    );
    const [tool] = byKind(model2, "tool");
    expect(tool).toMatchObject({ endedBy: "settled", end: expect.any(Number) });
  });

  it("draws a manual compaction outside any run", () => {
    const model = feed(fixtureEntries("manual-compaction"));
    const [compaction] = byKind(model, "compaction");
    expect(compaction).toMatchObject({ label: "compaction (manual)", parentId: null, row: "run", depth: 0 });
    expect(compaction!.end).not.toBeNull();
  });

  it("leaves running bars open (end null) while pi works", () => {
    const lines = fixtureEntries("bash-tool-streamed");
    const cut = lines.findIndex((e) => (e.value as { type?: string }).type === "tool_execution_update");
    const model = feed(lines.slice(0, cut + 1));
    expect(
      openBars(model)
        .map((b) => b.kind)
        .sort(),
    ).toEqual(["agent", "run", "tool", "turn"]);
    expect(openBars(model).every((b) => b.end === null && b.endSeq === null)).toBe(true);
  });

  it("opens a message for deltas whose message_start it never saw", () => {
    const model = feed(sequence([["in", { type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "x" } }]]));
    expect(byKind(model, "message")).toEqual([expect.objectContaining({ role: "assistant", end: null })]);
  });
});

describe("other lanes", () => {
  it("puts each browser's commands on its own lane, relay frames and stderr on theirs", () => {
    const other = { clientId: "c2", name: "laptop" };
    const model = feed(
      sequence([
        ["relay", { type: "hello", clientId: "c1" }],
        ["out", { id: "c1:1", type: "get_state" }, ME],
        ["out", { id: "c2:1", type: "abort" }, other],
        ["relay", { type: "stderr", line: "warning: something" }],
        ["in", { type: "response", command: "get_state", success: true, id: "c1:1" }],
      ]),
    );
    expect(listLanes(model).map((l) => [l.id, l.kind, l.label])).toEqual([
      ["relay", "relay", "relay"],
      ["browser:c1", "browser", "this browser"],
      ["browser:c2", "browser", "laptop"],
      ["stderr", "stderr", "stderr"],
      ["pi", "pi", "pi"],
    ]);
    expect(visibleInstants(model, 0, Infinity, "browser:c2").map((i) => i.kind)).toEqual(["abort"]);
    expect(visibleInstants(model, 0, Infinity, "stderr").map((i) => i.label)).toEqual(["warning: something"]);
    expect(visibleInstants(model, 0, Infinity, "pi").map((i) => i.label)).toEqual(["get_state ✓"]);
  });

  it("draws dialogs as bars until answered or timed out; other UI requests as instants", () => {
    const model = feed(
      sequence(
        [
          ["in", { type: "extension_ui_request", id: "d1", method: "select", title: "Allow?", options: ["a"], timeout: 25 }],
          ["in", { type: "extension_ui_request", id: "d2", method: "editor", title: "Edit" }],
          ["in", { type: "extension_ui_request", id: "n", method: "notify", message: "hello" }],
          ["out", { type: "extension_ui_response", id: "d2", cancelled: true }, ME],
          ["in", { type: "queue_update", steering: [], followUp: [] }],
        ],
        1000,
        10,
      ),
    );
    const dialogs = allBars(model).filter((b) => b.kind === "dialog");
    expect(dialogs.map((d) => [d.label, d.end, d.endedBy])).toEqual([
      ["select: Allow?", 1025, "timeout"],
      ["editor: Edit (cancelled)", 1030, "answered"],
    ]);
    expect(visibleInstants(model, 0, Infinity, "extension-ui").map((i) => i.label)).toEqual(["notify: hello"]);
  });

  it("closes everything when pi exits", () => {
    const model = feed(
      sequence([
        ["in", { type: "agent_start" }],
        ["in", { type: "extension_ui_request", id: "d", method: "confirm", title: "?", message: "" }],
        ["relay", { type: "child_exited", child: {} }],
      ]),
    );
    expect(openBars(model)).toEqual([]);
    expect(allBars(model).every((b) => b.endedBy === "pi-exited")).toBe(true);
  });
});

describe("queries", () => {
  it("links a record's seq to the bar it opened or closed, or to its instant", () => {
    const entries = fixtureEntries("file-tools");
    const model = feed(entries);
    const start = entries.find((e) => (e.value as { type?: string }).type === "tool_execution_start")!;
    const end = entries.find((e) => (e.value as { type?: string }).type === "tool_execution_end")!;
    const bar = timelineItemAt(model, start.seq) as Bar;
    expect(bar.kind).toBe("tool");
    expect(timelineItemAt(model, end.seq)).toBe(bar);
    expect(bar.startSeq).toBe(start.seq);
    expect(bar.endSeq).toBe(end.seq);
  });

  it("visibleBars returns exactly the bars a brute force finds, for random windows", () => {
    const rand = random(7);
    const model = createTimeline();
    let at = 0;
    let seq = 0;
    const push = (value: unknown) => applyTimeline(model, { seq: ++seq, at: (at += Math.floor(rand() * 50)), direction: "in", raw: "", value });
    for (let run = 0; run < 60; run++) {
      push({ type: "agent_start" });
      for (let turn = 0; turn < 1 + rand() * 4; turn++) {
        push({ type: "turn_start" });
        push({ type: "message_start", message: { role: "assistant", content: [] } });
        for (let d = 0; d < rand() * 30; d++) push({ type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "x" } });
        push({ type: "message_end", message: { role: "assistant", content: [], stopReason: "toolUse" } });
        const ids = ["a", "b", "c"].slice(0, 1 + Math.floor(rand() * 3)).map((x) => `${run}-${turn}-${x}`);
        for (const id of ids) push({ type: "tool_execution_start", toolCallId: id, toolName: "read", args: {} });
        for (const id of ids.reverse()) push({ type: "tool_execution_end", toolCallId: id, toolName: "read", result: {}, isError: false });
        push({ type: "turn_end", message: {}, toolResults: [] });
      }
      push({ type: "agent_end", messages: [], willRetry: false });
      if (run < 59) push({ type: "agent_settled" });
    }
    const bars = allBars(model);
    expect(openBars(model).length).toBeGreaterThan(0); // the last run is still going
    for (let i = 0; i < 300; i++) {
      const from = rand() * at;
      const to = from + rand() * at * (i % 3 === 0 ? 0.01 : 0.3);
      const expected = bars
        .filter((b) => b.start <= to && (b.end ?? Infinity) >= from)
        .map((b) => b.id)
        .sort((x, y) => x - y);
      const got = visibleBars(model, from, to)
        .map((b) => b.id)
        .sort((x, y) => x - y);
      expect(got).toEqual(expected);
    }
    const extent = timeExtent(model)!;
    expect(visibleBars(model, extent.from, extent.to)).toHaveLength(bars.length);
  });

  it("keeps rows sorted when the clock steps back", () => {
    const model = feed([
      { seq: 1, at: 1000, direction: "in", raw: "", value: { type: "agent_start" } },
      { seq: 2, at: 900, direction: "in", raw: "", value: { type: "turn_start" } },
      { seq: 3, at: 950, direction: "in", raw: "", value: { type: "turn_end" } },
    ]);
    const [turn] = byKind(model, "turn");
    expect(turn).toMatchObject({ start: 1000, end: 1000 });
  });
});

describe("bounds", () => {
  it("keeps the newest runs beyond maxRuns and forgets what came before them", () => {
    const model = createTimeline({ maxRuns: 3 });
    const items: [WireEntry["direction"], unknown][] = [];
    for (let i = 0; i < 10; i++) {
      items.push(["out", { type: "prompt", id: `p${i}` }]);
      items.push(["in", { type: "agent_start" }]);
      items.push(["in", { type: "turn_start" }]);
      items.push(["in", { type: "turn_end" }]);
      items.push(["in", { type: "agent_end" }]);
      items.push(["in", { type: "agent_settled" }]);
    }
    const entries = sequence(items, 0, 10);
    feed(entries, model);
    expect(byKind(model, "run")).toHaveLength(3);
    expect(byKind(model, "turn")).toHaveLength(3);
    expect(visibleInstants(model, 0, Infinity, "browser:local").length).toBeLessThanOrEqual(4);
    expect(timelineItemAt(model, entries[1]!.seq)).toBeUndefined();
    expect(timeExtent(model)!.from).toBe(byKind(model, "run")[0]!.start);
    expect(model.bySeq.size).toBeLessThan(40);
  });

  it("caps every row", () => {
    const model = createTimeline({ maxItemsPerRow: 100 });
    feed(sequence(Array.from({ length: 1000 }, () => ["in", { type: "queue_update", steering: [], followUp: [] }] as [WireEntry["direction"], unknown])), model);
    expect(visibleInstants(model, -Infinity, Infinity)).toHaveLength(100);
  });

  it("never throws on junk", () => {
    const model = createTimeline();
    const junk = [
      undefined,
      null,
      1,
      "x",
      [],
      {},
      { type: 1 },
      { type: "message_update", assistantMessageEvent: 5 },
      { type: "tool_execution_end" },
      { type: "extension_ui_request" },
      { type: "stderr" },
    ];
    for (const value of junk) for (const direction of ["in", "out", "relay"] as const) applyTimeline(model, { seq: 1, at: 5, direction, raw: "", value });
    expect(listLanes(model).length).toBeGreaterThan(0);
  });
});

describe("replays", () => {
  it("marks bars opened by the relay's replay (their times are replay times)", () => {
    const model = feed(
      sequence([
        ["relay", { type: "hello", clientId: "c1" }],
        ["in", { type: "agent_start" }],
        ["relay", { type: "replay_end" }],
        ["in", { type: "turn_start" }],
      ]),
    );
    expect(byKind(model, "agent")[0]!.replayed).toBe(true);
    expect(byKind(model, "turn")[0]!.replayed).toBeUndefined();
  });
});
