// @vitest-environment jsdom
// The flow graph's SVG export (issue #36 item 3): it draws what the view
// draws, the activation bars on pi's lane included, at the view's geometry;
// it is whole (30,000 arrows, built in slices that give the event loop back,
// cancellable); what the graph does not hold is said in the file. The
// escaping tests are in flow-graph.test.ts (flowSvg is these same pieces).
import { describe, expect, it } from "vitest";
import { appendLog, createRecordLog, type LogDirection, type LogSender, type RecordLog } from "../../src/lib/pi-state/record-log.ts";
import { createInspectorModels, feedEntry, type InspectorModels } from "../../src/lib/wire-log/inspector-feed.ts";
import { createFlow, syncFlow, type FlowModel } from "../../src/lib/wire-log/flow-graph.ts";
import { BAR_WIDTH, PAIR_COLOURS, arrowColour, barX, flowDrawing, flowLayout, flowSvg, gapWords } from "../../src/lib/wire-log/flow-svg.ts";
import { flowSvgBlob, seqsIn } from "../../src/lib/wire-log/flow-svg-export.ts";

const T0 = 1_700_000_000_000;
const SELF: LogSender = { clientId: "c1", self: true };

type Step = [LogDirection, unknown, number?];

interface Fed {
  log: RecordLog;
  models: InspectorModels;
  flow: FlowModel;
}

/** Log and feed the steps (each 10 ms after the one before, or `pause` ms), the flow graph synced as the page does (often: the pairing keeps only recent pairs). */
function feed(steps: Step[], capacity = 100_000): Fed {
  const log = createRecordLog(capacity, 1e12);
  const models = createInspectorModels(log);
  const flow = createFlow();
  let t = T0;
  for (const [direction, value, pause] of steps) {
    t += pause ?? 10;
    const entry = appendLog(log, direction, JSON.stringify(value), value, t, direction === "out" ? SELF : undefined);
    feedEntry(models, entry, value, null);
    if (log.nextSeq % 100 === 0) syncFlow(flow, log, models.pairing);
  }
  syncFlow(flow, log, models.pairing);
  return { log, models, flow };
}

const parse = (svg: string) => {
  const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
  expect(doc.querySelector("parsererror")).toBeNull();
  return doc;
};
const num = (element: Element, name: string) => Number(element.getAttribute(name));
const noWarnings = { warningsOf: () => [] };

describe("activation bars", () => {
  it("a command's bar runs on pi's lane from its arrow to its answer's, at the view's x, in the pair's colour", () => {
    const { flow } = feed([
      ["out", { id: "c1:1", type: "get_state" }],
      ["out", { id: "c1:2", type: "get_messages" }],
      ["in", { type: "agent_start" }],
      ["in", { id: "c1:2", type: "response", command: "get_messages", success: true, data: { messages: [] } }],
      ["in", { id: "c1:1", type: "response", command: "get_state", success: true, data: {} }],
    ]);
    const drawing = flowDrawing(flow);
    const layout = flowLayout(drawing);
    const doc = parse(flowSvg(flow, noWarnings));
    const bars = [...doc.querySelectorAll("rect.activation")];
    expect(bars).toHaveLength(2);
    const [getState, getMessages] = flow.items;
    for (const [command, answerRow] of [
      [getState!, 4],
      [getMessages!, 3],
    ] as const) {
      const bar = doc.querySelector(`rect.activation[data-pair="${command.pairKey}"]`)!;
      expect(num(bar, "x")).toBe(barX(layout.piX, command.pairKey!) - BAR_WIDTH / 2);
      expect(num(bar, "width")).toBe(BAR_WIDTH);
      expect(num(bar, "y")).toBe(layout.arrowY(command.index - flow.base));
      expect(num(bar, "y") + num(bar, "height")).toBe(layout.arrowY(answerRow));
      expect(bar.getAttribute("style")).toContain(`fill:${arrowColour(command)}`);
      // Its command's and its answer's arrows are drawn in that colour too.
      const ends = [...doc.querySelectorAll(`g[data-pair="${command.pairKey}"] line`)].map((line) => line.getAttribute("style"));
      expect(ends).toHaveLength(2);
      for (const style of ends) expect(style).toContain(`stroke:${arrowColour(command)}`);
    }
    // Pi's lane: the bar sits beside the lifeline, within a slot of it.
    expect(layout.piX).toBe(layout.xOf.get("pi"));
    for (const bar of bars) expect(Math.abs(num(bar, "x") + BAR_WIDTH / 2 - layout.piX)).toBeLessThanOrEqual(7);
  });

  it("a command pi still has is drawn open to the bottom, dashed; one the page knows is over is not", () => {
    const { flow } = feed([
      ["out", { id: "c1:1", type: "prompt", message: "hi" }],
      ["in", { type: "agent_start" }],
    ]);
    const open = parse(flowSvg(flow, noWarnings)).querySelector("rect.activation.waiting")!;
    const layout = flowLayout(flowDrawing(flow));
    expect(num(open, "y")).toBe(layout.arrowY(0));
    expect(num(open, "y") + num(open, "height")).toBe(layout.bottom);
    expect(open.getAttribute("style")).toContain("stroke-dasharray:2 2");
    expect(parse(flowSvg(flow, { ...noWarnings, pending: () => false })).querySelectorAll("rect.activation")).toHaveLength(0);
  });
});

describe("what the view draws, the file draws", () => {
  it("a pause over a second: the view's words and a dotted line across the row", () => {
    const { flow } = feed([
      ["in", { type: "agent_start" }],
      ["in", { type: "turn_start" }, 2_300],
      ["in", { type: "turn_end" }, 125_000],
    ]);
    const doc = parse(flowSvg(flow, noWarnings));
    expect(doc.querySelectorAll("line.gap")).toHaveLength(2);
    const texts = [...doc.querySelectorAll("text")].map((t) => t.textContent);
    expect(texts).toEqual(expect.arrayContaining(["+2.3 s", "+125 s"]));
    expect(gapWords(1000)).toBeNull();
    expect(gapWords(125_000)).toBe("+125 s");
  });

  it("a run of deltas is one thick arrow with a count; a dialog not answered yet is in its pair's colour, as in the view", () => {
    const update = { type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "x" } };
    const { flow } = feed([
      ["in", update],
      ["in", update],
      ["in", update],
      ["in", { type: "extension_ui_request", id: "d1", method: "select", title: "Pick", options: ["a"] }],
    ]);
    const doc = parse(flowSvg(flow, noWarnings));
    const run = doc.querySelector('g[data-kind="deltas"]')!;
    expect(run.querySelector("line")!.getAttribute("style")).toContain("stroke-width:3");
    expect([...run.querySelectorAll("text")].map((t) => t.textContent)).toContain("message_update ×3");
    const dialog = flow.items[1]!;
    expect(arrowColour(dialog)).toBe(PAIR_COLOURS[dialog.pairKey! % PAIR_COLOURS.length]);
  });

  it("what the graph does not hold is said in the file, as visible text, escaped", () => {
    const { flow } = feed([["in", { type: "agent_start" }]]);
    const doc = parse(flowSvg(flow, { ...noWarnings, leftOut: "Not in it: the 98,000 older records <dropped> & gone." }));
    expect(doc.querySelector("text.left-out")?.textContent).toBe("Not in it: the 98,000 older records <dropped> & gone.");
  });
});

describe("a whole export, in slices", () => {
  /** `pairs` commands each answered at once: two arrows and one bar each. */
  const pairs = (n: number): Step[] =>
    Array.from({ length: n }, (_, i): Step[] => [
      ["out", { id: `c1:${i}`, type: "get_state" }],
      ["in", { id: `c1:${i}`, type: "response", command: "get_state", success: true, data: {} }],
    ]).flat();

  it("30,000 arrows: every one is in the file, with every bar, built in many slices that give the event loop back", async () => {
    const { flow } = feed(pairs(15_000));
    expect(flow.items).toHaveLength(30_000);
    const progress: number[] = [];
    let yields = 0;
    const blob = await flowSvgBlob(flowDrawing(flow), {
      ...noWarnings,
      sliceMs: 2,
      onProgress: (done, total) => progress.push(done / total),
      yieldToPage: async () => {
        yields++;
        await new Promise((resolve) => setTimeout(resolve, 0));
      },
    });
    expect(blob.type).toBe("image/svg+xml");
    const svg = await blob.text();
    expect(svg.match(/<g data-kind="/g)).toHaveLength(30_000);
    expect(svg.match(/<rect class="activation"/g)).toHaveLength(15_000);
    expect(svg).toContain("30,000 arrows</title>");
    expect(svg.endsWith("</svg>\n")).toBe(true);
    expect(yields).toBeGreaterThan(3);
    expect(progress.length).toBe(yields + 1);
    expect(progress.at(-1)).toBe(1);
    // The same file as the one built in one go.
    expect(svg).toBe(flowSvg(flow, noWarnings));
  }, 60_000);

  it("stops between slices when cancelled, and says so", async () => {
    const { flow } = feed(pairs(2_000));
    const controller = new AbortController();
    let slices = 0;
    const export_ = flowSvgBlob(flowDrawing(flow), {
      ...noWarnings,
      sliceMs: 0,
      signal: controller.signal,
      onProgress: () => {
        slices++;
        if (slices === 2) controller.abort(new DOMException("cancelled", "AbortError"));
      },
    });
    await expect(export_).rejects.toThrow("cancelled");
    expect(slices).toBe(2);
  });

  it("a live graph that changes while it is exported: the file is the graph as it was when asked", async () => {
    const fed = feed(pairs(3));
    const drawing = flowDrawing(fed.flow);
    const entry = appendLog(fed.log, "in", '{"type":"agent_start"}', { type: "agent_start" }, T0 + 1e6);
    feedEntry(fed.models, entry, { type: "agent_start" }, null);
    syncFlow(fed.flow, fed.log, fed.models.pairing);
    expect(fed.flow.items).toHaveLength(7);
    const svg = await (await flowSvgBlob(drawing, noWarnings)).text();
    expect(svg.match(/<g data-kind="/g)).toHaveLength(6);
  });

  it("seqsIn: the warned seqs of a run, by binary search", () => {
    expect(seqsIn([2, 5, 9, 12], 5, 11)).toEqual([5, 9]);
    expect(seqsIn([2, 5, 9, 12], 13, 20)).toEqual([]);
    expect(seqsIn([], 1, 2)).toEqual([]);
  });
});
