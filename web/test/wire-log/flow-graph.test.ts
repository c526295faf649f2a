// @vitest-environment jsdom
// The flow graph (issue #36 item 3): lanes, arrow kinds, pairing links,
// delta-run folding, warning marks and a standalone, escaped SVG, fed the way
// the inspector feeds it (record log → inspector models → syncFlow).
import { describe, expect, it } from "vitest";
import { appendLog, createRecordLog, type LogDirection, type LogSender, type RecordLog } from "../../src/lib/pi-state/record-log.ts";
import { createInspectorModels, feedEntry, type InspectorModels } from "../../src/lib/wire-log/inspector-feed.ts";
import { warningSeqs, warningsOf } from "../../src/lib/wire-log/expert-checks.ts";
import { AUDIENCE, anyInRange, arrowTargets, createFlow, flowItem, flowLanes, spansAt, syncFlow, waitingAt, type FlowItem, type FlowModel } from "../../src/lib/wire-log/flow-graph.ts";
import { itemOfSeq, openRuns, rowAt, rowCount, rowOfSeq, rowSeq } from "../../src/lib/wire-log/flow-rows.ts";
import { arrowColour, escapeXml, flowSvg } from "../../src/lib/wire-log/flow-svg.ts";

const T0 = 1_700_000_000_000;
const SELF: LogSender = { clientId: "c1", self: true };
const ADA: LogSender = { clientId: "c2", name: "Ada" };

type Step = [LogDirection, unknown, LogSender?];

interface Fed {
  log: RecordLog;
  models: InspectorModels;
  flow: FlowModel;
}

/** Log and feed the steps (a value of undefined is a line that is not JSON), then sync a flow graph. */
function feed(steps: Step[], fed?: Fed, capacity = 10_000): Fed {
  const log = fed?.log ?? createRecordLog(capacity, 1e9);
  const models = fed?.models ?? createInspectorModels(log);
  for (const [direction, value, sender] of steps) {
    const raw = value === undefined ? "not json" : JSON.stringify(value);
    const entry = appendLog(log, direction, raw, value, T0 + log.nextSeq * 10, direction === "out" ? (sender ?? SELF) : undefined);
    feedEntry(models, entry, value, null);
  }
  const flow = fed?.flow ?? createFlow();
  syncFlow(flow, log, models.pairing);
  return { log, models, flow };
}

const hello = (tap?: string) => ({
  type: "hello",
  clientId: "c1",
  pi: { version: "0.87.1", source: "bundled", path: "/pi" },
  replay: { bytes: 0, truncated: false },
  ...(tap ? { tap: { client: tap } } : {}),
});
const delta = (kind = "text_delta") => ({ type: "message_update", assistantMessageEvent: { type: kind, contentIndex: 0, delta: "x" } });
const assistant = { role: "assistant", content: [], timestamp: 1 };
/** A prompt's whole run as pi 0.87.1 sends it, with `deltas` text deltas. */
const promptRun = (id: string, deltas: number, sender: LogSender = SELF): Step[] => [
  ["out", { id, type: "prompt", message: "hi" }, sender],
  ["in", { id, type: "response", command: "prompt", success: true }],
  ["in", { type: "agent_start" }],
  ["in", { type: "turn_start" }],
  ["in", { type: "message_start", message: assistant }],
  ...Array.from({ length: deltas }, (): Step => ["in", delta()]),
  ["in", { type: "message_end", message: assistant }],
  ["in", { type: "turn_end", message: assistant, toolResults: [] }],
  ["in", { type: "agent_end", messages: [] }],
  ["in", { type: "agent_settled" }],
];

const items = (flow: FlowModel) => flow.items;
const byLabel = (flow: FlowModel, label: string) => items(flow).filter((item) => item.label === label);
const one = (flow: FlowModel, label: string): FlowItem => {
  const found = byLabel(flow, label);
  expect(found, label).toHaveLength(1);
  return found[0]!;
};

describe("lanes", () => {
  it("this browser first, other browsers as they send, then the relay and pi", () => {
    const { flow } = feed([
      ["relay", hello()],
      ["out", { id: "c2:1", type: "get_state" }, ADA],
      ["out", { id: "c1:1", type: "get_state" }],
    ]);
    expect(flowLanes(flow).map((lane) => [lane.id, lane.kind, lane.label])).toEqual([
      ["self", "browser", "this browser"],
      ["browser:c2", "browser", "Ada"],
      ["relay", "relay", "relay"],
      ["pi", "pi", "pi"],
    ]);
  });

  it("a page that never sent anything still has its own lane (pi's output comes to it)", () => {
    const { flow } = feed([
      ["relay", hello()],
      ["in", { type: "agent_start" }],
    ]);
    expect(flowLanes(flow).map((lane) => lane.id)).toEqual(["self", "relay", "pi"]);
    expect(arrowTargets(flow, flowLanes(flow), one(flow, "agent_start"))).toEqual(["self"]);
  });

  it("under pier tap: the client's lane instead of browsers, named by the hello; pi's output goes to it; relay frames are notes on the tap", () => {
    const tapClient: LogSender = { clientId: "tap-client", name: "RPC client (tap)" };
    const { flow } = feed([
      ["relay", hello("RPC client (tap)")],
      ["out", { id: "r1", type: "get_state" }, tapClient],
      ["in", { id: "r1", type: "response", command: "get_state", success: true, data: {} }],
      ["in", { type: "agent_start" }],
    ]);
    const lanes = flowLanes(flow);
    expect(lanes.map((lane) => [lane.id, lane.kind, lane.label])).toEqual([
      ["client", "client", "RPC client (tap)"],
      ["relay", "relay", "pier tap"],
      ["pi", "pi", "pi"],
    ]);
    expect(one(flow, "get_state")).toMatchObject({ kind: "command", from: "client", to: "pi" });
    expect(one(flow, "response")).toMatchObject({ kind: "response", from: "pi", to: "client" });
    expect(arrowTargets(flow, lanes, one(flow, "agent_start"))).toEqual(["client"]);
    expect(one(flow, "hello")).toMatchObject({ kind: "relay", from: "relay", to: "relay" });
  });

  it("a sender's name told later becomes its lane's label", () => {
    const { flow } = feed([
      ["out", { id: "c3:1", type: "abort" }, { clientId: "c3" }],
      ["out", { id: "c3:2", type: "abort" }, { clientId: "c3", name: "Grace" }],
    ]);
    expect(flowLanes(flow).find((lane) => lane.id === "browser:c3")?.label).toBe("Grace");
  });
});

describe("arrow kinds", () => {
  it("commands go to pi, responses to who asked, events to every browser, relay frames to this page", () => {
    const { flow } = feed([
      ["relay", hello()],
      ["out", { id: "c2:1", type: "get_state" }, ADA],
      ["in", { id: "c2:1", type: "response", command: "get_state", success: true, data: {} }],
      ["out", { type: "pier.ping" }],
      ["relay", { type: "stderr", line: "warning: something" }],
      ["in", { type: "extension_ui_request", id: "d1", method: "confirm", title: "Sure?", message: "" }],
      ["out", { type: "extension_ui_response", id: "d1", confirmed: true }],
      ["out", { id: "c1:5", type: "bash", command: "ls" }],
      ["relay", { type: "error", code: "forbidden", message: "viewers may not", command: { id: "c1:5", type: "bash" } }],
      ["in", undefined],
    ]);
    expect(items(flow).map((item) => [item.kind, item.label, item.from, item.to])).toEqual([
      ["relay", "hello", "relay", "self"],
      ["command", "get_state", "browser:c2", "pi"],
      ["response", "response", "pi", "browser:c2"],
      ["request", "pier.ping", "self", "relay"],
      ["stderr", "stderr", "pi", "relay"],
      ["dialog", "extension_ui_request", "pi", AUDIENCE],
      ["answer", "extension_ui_response", "self", "pi"],
      ["command", "bash", "self", "pi"],
      ["refusal", "error", "relay", "self"],
      ["event", "invalid", "pi", AUDIENCE],
    ]);
  });
});

describe("pairing", () => {
  it("a command and its response link to each other, share a colour, and span the rows between", () => {
    const { flow, models } = feed([
      ["out", { id: "c1:1", type: "get_state" }],
      ["out", { id: "c2:1", type: "get_messages" }, ADA],
      ["in", { id: "c2:1", type: "response", command: "get_messages", success: true, data: { messages: [] } }],
      ["in", { id: "c1:1", type: "response", command: "get_state", success: true, data: {} }],
    ]);
    const [getState, getMessages, messagesAnswer, stateAnswer] = items(flow);
    expect(getState!.partner).toBe(stateAnswer!.index);
    expect(stateAnswer!.partner).toBe(getState!.index);
    expect(getMessages!.partner).toBe(messagesAnswer!.index);
    expect(arrowColour(getState!)).toBe(arrowColour(stateAnswer!));
    expect(arrowColour(getState!)).not.toBe(arrowColour(getMessages!));
    // The same pair the inspector's pairing made.
    expect(stateAnswer!.pairKey).toBe(getState!.pairKey);
    expect(models.pairing.pairs.get(getState!.pairKey!)?.responseSeq).toBe(stateAnswer!.seq);
    expect(
      spansAt(flow, messagesAnswer!.index)
        .map((span) => span.pairKey)
        .sort(),
    ).toEqual([getState!.pairKey, getMessages!.pairKey].sort());
    expect(spansAt(flow, stateAnswer!.index).map((span) => span.pairKey)).toEqual([getState!.pairKey]);
    expect(spansAt(flow, stateAnswer!.index + 1)).toEqual([]);
  });

  it("a dialog links to its answer; a command never answered stays open", () => {
    const { flow } = feed([
      ["in", { type: "extension_ui_request", id: "d1", method: "select", title: "Pick", options: ["a"] }],
      ["out", { type: "extension_ui_response", id: "d1", value: "a" }, ADA],
      ["out", { id: "c1:9", type: "get_state" }],
      ["in", { type: "agent_start" }],
    ]);
    const [dialog, answer, command, event] = items(flow);
    expect(dialog!.partner).toBe(answer!.index);
    expect(answer!.from).toBe("browser:c2");
    expect(command!.partner).toBeNull();
    expect(waitingAt(flow, event!.index)).toEqual([{ from: command!.index, pairKey: command!.pairKey }]);
    // An answer to a command this page never saw waits for nothing.
    const stray = feed([["in", { id: "c7:1", type: "response", command: "get_state", success: true, data: {} }]]);
    expect(stray.flow.waiting.size).toBe(0);
  });

  it("across a second pull of new entries, a response finds the command synced before", () => {
    const first = feed([["out", { id: "c1:1", type: "get_state" }]]);
    feed([["in", { id: "c1:1", type: "response", command: "get_state", success: true, data: {} }]], first);
    expect(items(first.flow)[0]!.partner).toBe(items(first.flow)[1]!.index);
  });
});

describe("delta runs", () => {
  it("consecutive deltas of one kind are one arrow with a count; anything between starts a new run", () => {
    const { flow } = feed([
      ...promptRun("c1:1", 5),
      ["in", { type: "tool_execution_update", toolCallId: "t", toolName: "bash", args: {}, partialResult: {} }],
      ["in", { type: "tool_execution_update", toolCallId: "t", toolName: "bash", args: {}, partialResult: {} }],
      ["in", delta()],
      ["out", { id: "c1:2", type: "steer", message: "faster" }],
      ["in", delta()],
      ["in", delta()],
    ]);
    const runs = items(flow).filter((item) => item.kind === "deltas");
    expect(runs.map((run) => [run.label, run.count])).toEqual([
      ["message_update", 5],
      ["tool_execution_update", 2],
      ["message_update", 1],
      ["message_update", 2],
    ]);
    expect(runs[0]!.to).toBe(AUDIENCE);
    expect(runs[0]!.detail).toBe("text_delta");
  });

  it("an opened run shows each delta as a row of its own, and a record's row is found either way", () => {
    const { flow } = feed(promptRun("c1:1", 4));
    const run = items(flow).find((item) => item.kind === "deltas")!;
    const closed = openRuns(flow, new Set());
    expect(rowCount(flow, closed)).toBe(items(flow).length);
    const thirdDelta = run.seq + 2;
    expect(itemOfSeq(flow, thirdDelta)).toBe(run);
    expect(rowOfSeq(flow, closed, thirdDelta)).toBe(run.index);

    const open = openRuns(flow, new Set([run.index]));
    expect(rowCount(flow, open)).toBe(items(flow).length + 4);
    expect(rowAt(flow, open, run.index)).toEqual({ item: run, member: -1 });
    expect(rowAt(flow, open, run.index + 3)).toEqual({ item: run, member: 2 });
    expect(rowSeq(rowAt(flow, open, run.index + 3)!)).toBe(thirdDelta);
    expect(rowOfSeq(flow, open, thirdDelta)).toBe(run.index + 3);
    // The message_end after the run, moved down by its 4 deltas.
    const end = one(flow, "message_end");
    expect(rowAt(flow, open, end.index + 4)).toEqual({ item: end, member: -1 });
    expect(rowOfSeq(flow, open, end.seq)).toBe(end.index + 4);
  });
});

describe("warnings", () => {
  it("the expert checks' warnings are found for an arrow, and for a run by any of its deltas", () => {
    const { flow, models } = feed([
      ["relay", hello()],
      ["relay", { type: "replay_end" }],
      // An answer to an id no command carried; deltas with no run going on.
      ["in", { id: "req-9", type: "response", command: "get_state", success: true, data: {} }],
      ["in", delta()],
      ["in", delta()],
    ]);
    const answer = one(flow, "response");
    expect(warningsOf(models.checks, answer.seq)?.[0]?.kind).toBe("unknown-response-id");
    const run = one(flow, "message_update");
    expect(anyInRange(warningSeqs(models.checks), run.seq, run.lastSeq)).toBe(true);
    expect(anyInRange(warningSeqs(models.checks), 1, 2)).toBe(false);
  });

  it("the export marks a warned arrow with ⚠ and says why in its title", () => {
    const { flow, models } = feed([
      ["relay", hello()],
      ["relay", { type: "replay_end" }],
      ["in", { id: "req-9", type: "response", command: "get_state", success: true, data: {} }],
    ]);
    const svg = flowSvg(flow, { warningsOf: (item) => (warningsOf(models.checks, item.seq) ?? []).map((w) => w.text) });
    const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
    const warned = [...doc.querySelectorAll("g")].filter((g) => g.textContent?.includes("⚠"));
    expect(warned).toHaveLength(1);
    expect(warned[0]!.querySelector("title")?.textContent).toContain('No command sent the id "req-9"');
  });
});

describe("the SVG export", () => {
  it("is one well-formed standalone document: inline styles, no external reference, no script", () => {
    const { flow } = feed([["relay", hello()], ...promptRun("c1:1", 3)]);
    const svg = flowSvg(flow, { warningsOf: () => [], subtitle: "Captured today" });
    const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
    expect(doc.querySelector("parsererror")).toBeNull();
    expect(doc.documentElement.tagName).toBe("svg");
    expect(svg).not.toMatch(/<style|href=|url\(|<script|<image|<foreignObject/i);
    const texts = [...doc.querySelectorAll("text")].map((t) => t.textContent);
    expect(texts).toEqual(expect.arrayContaining(["this browser", "relay", "pi", "prompt", "response prompt ✓", "message_update ×3", "agent_settled"]));
  });

  it("escapes record fields: a crafted </text><script> in a type, a sender's name and a detail stays text", () => {
    const evil = '</text><script>alert("x")</script><text>';
    const { flow } = feed([
      ["out", { id: "c9:1", type: evil }, { clientId: "c9", name: `Mallory ${evil}` }],
      ["in", { type: `${evil}&amp;\u0001` }],
      ["in", { type: "tool_execution_start", toolCallId: "t", toolName: evil, args: {} }],
    ]);
    const svg = flowSvg(flow, { warningsOf: () => [`field ${evil}`], subtitle: evil });
    expect(svg).not.toContain("<script");
    expect(svg).toContain("&lt;/text&gt;&lt;script&gt;");
    const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
    expect(doc.querySelector("parsererror")).toBeNull();
    expect(doc.querySelectorAll("script")).toHaveLength(0);
    const texts = [...doc.querySelectorAll("text, title")].map((t) => t.textContent ?? "");
    expect(texts.some((t) => t.includes('<script>alert("x")</script>'))).toBe(true);
    expect(texts.some((t) => t.includes("&amp;"))).toBe(true);
  });

  it("escapeXml: markup, quotes and characters XML cannot hold", () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    expect(escapeXml("a\u0000b\u001Fc\tok\n")).toBe("a\uFFFDb\uFFFDc\tok\n");
    expect(escapeXml("\uD83D\uDE00 \uD800 \uDC00")).toBe("\uD83D\uDE00 \uFFFD \uFFFD");
  });
});

describe("bounds", () => {
  it("entries the log dropped leave from the front; indexes of the others stay; links to dropped items are gone", () => {
    const fed = feed([], undefined, 50);
    for (let i = 0; i < 20; i++) feed(promptRun(`c1:${i}`, 10), fed);
    const { flow, log } = fed;
    expect(flow.base).toBeGreaterThan(0);
    expect(items(flow)[0]!.lastSeq).toBeGreaterThanOrEqual(log.firstSeq);
    expect(items(flow)[0]!.index).toBe(flow.base);
    for (const span of flow.spans) expect(span.from).toBeGreaterThanOrEqual(flow.base);
    for (const item of items(flow)) if (item.partner !== null && item.partner >= flow.base) expect(flowItem(flow, item.partner)?.partner).toBe(item.index);
    expect(flow.waiting.size).toBeLessThan(3);
  });

  it("100,000 records: only new entries are looked at on each sync, and a stream's deltas are one arrow", () => {
    const log = createRecordLog(200_000, 1e12);
    const models = createInspectorModels(log);
    const flow = createFlow();
    let fedSoFar = 0;
    const add = (steps: Step[]) => {
      for (const [direction, value, sender] of steps) {
        const entry = appendLog(log, direction, JSON.stringify(value), value, T0 + fedSoFar++, direction === "out" ? (sender ?? SELF) : undefined);
        feedEntry(models, entry, value, null);
      }
    };
    add(promptRun("c1:1", 99_991));
    syncFlow(flow, log, models.pairing);
    expect(log.nextSeq - 1).toBe(100_000);
    expect(items(flow).length).toBe(10);
    const run = one(flow, "message_update");
    expect(run.count).toBe(99_991);
    // A sync with nothing new does no work on old entries: scannedTo stands at the end.
    expect(syncFlow(flow, log, models.pairing)).toBe(false);
    expect(flow.scannedTo).toBe(log.nextSeq);
  });
});
