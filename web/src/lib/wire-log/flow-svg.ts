// The flow graph's geometry (shared by the view and the export) and its
// export as one standalone SVG file: inline styles and nothing it refers to
// outside itself, so it opens anywhere. The file draws what the view draws
// (lanes, arrows, pair colours, folded delta runs, warning marks, gaps, and
// the activation bars on pi's lane), every run folded. Every text in it
// comes from records (types, a sender's name, a field in a warning) and is
// escaped: a record may carry `</text><script>` in any field.
//
// The file is built as pieces (flowSvgPieces: one string per bar, per row),
// so a long graph can be built a slice at a time between frames
// (flow-svg-export.ts) and never as one string grown row by row.

import { clockTime } from "../format.ts";
import { arrowTargets, arrowWords, AUDIENCE, audienceWords, flowLanes, pairSlot, PI_LANE, type ArrowKind, type FlowItem, type FlowLane, type FlowModel } from "./flow-graph.ts";

/** Row height, the time gutter on the left, and the lane headers' band (CSS pixels). */
export const FLOW_ROW = 28;
export const FLOW_GUTTER = 104;
export const FLOW_HEADER = 44;
/** A pause longer than this between two arrows is marked (the axis is the order, not the clock). */
export const FLOW_GAP_MS = 1000;
/** An activation bar's width, and how far apart the bars of pairs pi has at the same time sit (three slots around pi's line). */
export const BAR_WIDTH = 6;
export const BAR_STEP = 7;

/** The centre of lane `i` of `n` in a drawing `width` wide, right of a time gutter `gutter` wide. */
export function laneX(i: number, n: number, width: number, gutter = FLOW_GUTTER): number {
  const span = Math.max(1, width - gutter);
  return gutter + ((i + 0.5) * span) / n;
}

/** The centre of a pair's activation bar, beside pi's line (`piX`): a pair's slot keeps two overlapping bars apart. */
export function barX(piX: number, pairKey: number): number {
  return piX + (pairSlot(pairKey, 3) - 1) * BAR_STEP;
}

/** A pause before an arrow, in words ("+2.3 s", "+125 s"), or null when it is not one. */
export function gapWords(ms: number): string | null {
  if (ms <= FLOW_GAP_MS) return null;
  const seconds = ms / 1000;
  return `+${seconds < 60 ? seconds.toFixed(1) : Math.round(seconds).toLocaleString("en")} s`;
}

/** A command's and its answer's colour: one of these, by pair (colour-blind friendly hues, readable on white and dark). */
export const PAIR_COLOURS = ["#3b5bdb", "#0b7285", "#862e9c", "#c2255c", "#2b8a3e", "#d9480f"] as const;

/** The colour of an arrow with no pair, by kind. */
export function kindColour(kind: ArrowKind): string {
  switch (kind) {
    case "relay":
    case "request":
      return "#7048e8";
    case "stderr":
      return "#a35300";
    case "refusal":
      return "#c92a2a";
    case "deltas":
      return "#868e96";
    default:
      return "#62626d";
  }
}

/** Whether an arrow is drawn in its pair's colour (as the view does: any end of a pair, linked or not yet). */
export function isPaired(item: FlowItem): boolean {
  return item.pairKey !== null && (item.partner !== null || item.kind === "command" || item.kind === "response" || item.kind === "dialog" || item.kind === "answer");
}

export function arrowColour(item: FlowItem): string {
  return isPaired(item) ? PAIR_COLOURS[pairSlot(item.pairKey!, PAIR_COLOURS.length)]! : kindColour(item.kind);
}

/** The words on an arrow. */
export function arrowLabel(item: FlowItem): string {
  if (item.kind === "deltas") return item.count === 1 ? item.label : `${item.label} ×${item.count.toLocaleString("en")}`;
  if (item.kind === "response") return `response ${item.detail}`.trim();
  return item.detail === "" || item.kind === "command" ? item.label : `${item.label} · ${item.detail}`;
}

// Characters XML 1.0 does not allow (C0 controls but tab, LF, CR; U+FFFE/U+FFFF; unpaired surrogates).
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text made safe inside an XML element or a quoted attribute. */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML, "\uFFFD").replace(/[&<>"']/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&#39;"));
}

export interface FlowSvgOptions {
  /** The warnings of an item (a run: of any of its deltas), as sentences; empty when none. */
  warningsOf: (item: FlowItem) => readonly string[];
  /** Whether a pair whose answer has not come is still waiting (pi has it): its bar is drawn open to the bottom. Default: every one. */
  pending?: (pairKey: number) => boolean;
  /** A line under the title (what was captured, when). */
  subtitle?: string;
  /** What the graph does not hold (records dropped before it), said in the file where it shows. */
  leftOut?: string;
}

/** What the file draws, taken from the graph at one moment (a live graph goes on changing while a long export is built). */
export interface FlowDrawing {
  lanes: FlowLane[];
  items: readonly FlowItem[];
  /** Absolute index of items[0]. */
  base: number;
  /** Pairs answered: rows from … to (absolute indexes), both held. */
  spans: { from: number; to: number; pairKey: number }[];
  /** Pairs not answered yet: open from their first row to the bottom. */
  waiting: { from: number; pairKey: number }[];
  /** Who a broadcast goes to: in words, and its lanes (every browser's, or a tap's client's). */
  audience: string;
  audienceLanes: string[];
}

/** The graph as it is now. The newest item (a run of deltas may still grow) is copied; the rest no longer change what is drawn. */
export function flowDrawing(model: FlowModel, pending: (pairKey: number) => boolean = () => true): FlowDrawing {
  const items = model.items.slice();
  const last = items.length - 1;
  if (last >= 0) items[last] = { ...items[last]! };
  const end = model.base + items.length;
  const spans = [...model.spans, ...model.longSpans].filter((span) => span.from >= model.base && span.to < end).map(({ from, to, pairKey }) => ({ from, to, pairKey }));
  const waiting: FlowDrawing["waiting"] = [];
  for (const [pairKey, from] of model.waiting) if (from >= model.base && from < end && pending(pairKey)) waiting.push({ from, pairKey });
  const lanes = flowLanes(model);
  // A broadcast's lanes do not depend on the item: asked once, for a probe sent to the audience.
  const audienceLanes = arrowTargets(model, lanes, { to: AUDIENCE } as FlowItem);
  return { lanes, items, base: model.base, spans, waiting, audience: audienceWords(model), audienceLanes };
}

const FONT = "font-family:ui-sans-serif,system-ui,-apple-system,'Segoe UI',sans-serif";
const MONO = "font-family:ui-monospace,Menlo,Consolas,monospace";
/** A white halo under a label, so the lifelines it crosses do not run through its letters. */
const HALO = "paint-order:stroke;stroke:#ffffff;stroke-width:3px;stroke-linejoin:round";
/** A lane header's border by kind (the view's, in its light scheme). */
const LANE_BORDER: Record<FlowLane["kind"], string> = { pi: "#82a98e", relay: "#a492de", browser: "#8c9bd8", client: "#8c9bd8" };

/** The drawing's size and where things are in it. */
export interface FlowLayout {
  width: number;
  height: number;
  /** Top of the lane headers. */
  top: number;
  /** Bottom of the lifelines. */
  bottom: number;
  xOf: Map<string, number>;
  piX: number;
  /** The y of row `i`'s arrow (its item is items[i]). */
  arrowY: (i: number) => number;
}

export function flowLayout(drawing: FlowDrawing, leftOut?: string): FlowLayout {
  const { lanes } = drawing;
  const width = Math.max(720, FLOW_GUTTER + 170 * lanes.length);
  const top = leftOut ? 90 : 72;
  const height = top + FLOW_HEADER + drawing.items.length * FLOW_ROW + 40;
  const xOf = new Map(lanes.map((lane, i) => [lane.id, laneX(i, lanes.length, width)]));
  return { width, height, top, bottom: height - 24, xOf, piX: xOf.get(PI_LANE)!, arrowY: (i) => top + FLOW_HEADER + i * FLOW_ROW + FLOW_ROW / 2 + 4 };
}

/** How many pieces flowSvgPieces gives (for a progress count). */
export function flowSvgPieceCount(drawing: FlowDrawing): number {
  return 2 + drawing.spans.length + drawing.waiting.length + drawing.items.length + 1;
}

/** The document in pieces: the head, the lanes, one per activation bar (under the arrows), one per row, the end. Joined, they are the file. */
export function* flowSvgPieces(drawing: FlowDrawing, options: FlowSvgOptions): Generator<string, void, void> {
  const { lanes, items, base } = drawing;
  const layout = flowLayout(drawing, options.leftOut);
  const { width, height, top, bottom, xOf, piX, arrowY } = layout;
  const label = (id: string) => lanes.find((lane) => lane.id === id)?.label ?? id;
  const subtitle = `${escapeXml(options.subtitle ?? "")}${options.subtitle ? " · " : ""}one row per arrow, in arrival order (pauses over 1 s marked, not to scale)`;
  yield [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="flow-title">`,
    `<title id="flow-title">Pier flow graph: pi's RPC protocol, ${items.length.toLocaleString("en")} arrows</title>`,
    `<rect x="0" y="0" width="${width}" height="${height}" style="fill:#ffffff"/>`,
    `<text x="16" y="24" style="${FONT};font-size:15px;font-weight:600;fill:#1c1c21">Flow graph</text>`,
    `<text x="16" y="42" style="${FONT};font-size:11.5px;fill:#62626d">${subtitle}</text>`,
    `<text x="16" y="58" style="${FONT};font-size:11.5px;fill:#62626d">Deltas folded into runs; a bar on pi's line is the time pi had a command, in its colour</text>`,
    options.leftOut ? `<text class="left-out" x="16" y="76" style="${FONT};font-size:12px;font-weight:600;fill:#a35300">${escapeXml(options.leftOut)}</text>` : "",
    "",
  ].join("\n");
  const head: string[] = [];
  for (const lane of lanes) {
    const x = xOf.get(lane.id)!;
    head.push(
      `<line x1="${x}" y1="${top + FLOW_HEADER - 6}" x2="${x}" y2="${bottom}" style="stroke:#cfcfd6;stroke-width:1;stroke-dasharray:4 3"/>`,
      `<rect x="${x - 74}" y="${top}" width="148" height="28" rx="6" style="fill:#f0f0f2;stroke:${LANE_BORDER[lane.kind]}"/>`,
      `<text x="${x}" y="${top + 18}" text-anchor="middle" style="${FONT};font-size:12px;font-weight:600;fill:#1c1c21">${escapeXml(clip(lane.label, 22))}</text>`,
    );
  }
  yield `${head.join("\n")}\n`;
  // The activation bars, as the view draws them (lib/.../FlowView: from the row of the command's arrow to its answer's), under the arrows.
  const bar = (pairKey: number, y1: number, y2: number, waiting: boolean, what: string) => {
    const colour = PAIR_COLOURS[pairSlot(pairKey, PAIR_COLOURS.length)]!;
    return `<rect class="activation${waiting ? " waiting" : ""}" data-pair="${pairKey}" x="${barX(piX, pairKey) - BAR_WIDTH / 2}" y="${y1}" width="${BAR_WIDTH}" height="${Math.max(0, y2 - y1)}" style="fill:${colour};fill-opacity:0.22;stroke:${colour};stroke-opacity:0.6;stroke-width:1${waiting ? ";stroke-dasharray:2 2" : ""}"><title>${escapeXml(what)}</title></rect>\n`;
  };
  for (const span of drawing.spans) {
    const command = items[span.from - base]!;
    yield bar(span.pairKey, arrowY(span.from - base), arrowY(span.to - base), false, `pi had ${command.label} until its answer`);
  }
  for (const wait of drawing.waiting) yield bar(wait.pairKey, arrowY(wait.from - base), bottom, true, `pi has ${items[wait.from - base]!.label}: not answered yet`);
  let previousAt: number | null = null;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const rowTop = top + FLOW_HEADER + i * FLOW_ROW;
    const y = arrowY(i);
    const colour = arrowColour(item);
    const warnings = options.warningsOf(item);
    const gap = previousAt === null ? null : gapWords(item.at - previousAt);
    previousAt = item.lastAt;
    const out: string[] = [
      `<g data-kind="${item.kind}"${item.pairKey === null ? "" : ` data-pair="${item.pairKey}"`}><title>${escapeXml(arrowWords(item, label, drawing.audience) + (warnings.length > 0 ? `\nWarning: ${warnings.join("\n")}` : ""))}</title>`,
    ];
    if (gap !== null) {
      out.push(
        `<line class="gap" x1="${FLOW_GUTTER}" y1="${rowTop + 0.5}" x2="${width}" y2="${rowTop + 0.5}" style="stroke:#686873;stroke-width:1;stroke-dasharray:1 3"/>`,
        `<text x="8" y="${rowTop + 9}" style="${MONO};font-size:9.5px;font-style:italic;fill:#62626d">${gap}</text>`,
      );
    }
    out.push(`<text x="8" y="${y + 4}" style="${MONO};font-size:10px;fill:#686873">${escapeXml(clockTime(item.at))}</text>`);
    const from = xOf.get(item.from) ?? 0;
    const targets = (item.to === AUDIENCE ? drawing.audienceLanes : [item.to]).map((id) => xOf.get(id) ?? from);
    const far = targets.reduce((a, b) => (Math.abs(b - from) > Math.abs(a - from) ? b : a), targets[0] ?? from);
    if (far === from) {
      // A note on one lane (a tap's relay frame): a small loop.
      out.push(`<path d="M${from} ${y - 5} h14 v10 h-10" style="fill:none;stroke:${colour};stroke-width:1.5"/>`);
      out.push(`<text x="${from + 18}" y="${y + 4}" style="${MONO};font-size:11px;fill:#1c1c21;${HALO}">${escapeXml(clip(arrowLabel(item), 40))}</text>`);
    } else {
      const dir = far > from ? 1 : -1;
      const thick = item.kind === "deltas" && item.count > 1;
      const dash = item.kind === "relay" || item.kind === "request" ? ";stroke-dasharray:5 3" : "";
      out.push(`<line x1="${from}" y1="${y}" x2="${far - dir * 6}" y2="${y}" style="stroke:${colour};stroke-width:${thick ? 3 : 1.5}${dash}"/>`);
      out.push(`<path d="M${far} ${y} l${-dir * 8} -4 v8 z" style="fill:${colour}"/>`);
      for (const x of targets) if (x !== far) out.push(`<circle cx="${x}" cy="${y}" r="2.5" style="fill:${colour}"/>`);
      out.push(
        `<text x="${(from + far) / 2}" y="${y - 4}" text-anchor="middle" style="${MONO};font-size:11px;fill:#1c1c21;${HALO}">${escapeXml(clip(arrowLabel(item), Math.max(8, Math.floor(Math.abs(far - from) / 7))))}</text>`,
      );
    }
    if (warnings.length > 0) {
      out.push(
        `<rect x="${FLOW_GUTTER - 16}" y="${y - 8}" width="15" height="16" rx="4" style="fill:#fff4e0"/>`,
        `<text x="${FLOW_GUTTER - 8.5}" y="${y + 4}" text-anchor="middle" style="${FONT};font-size:11px;font-weight:700;fill:#a35300">⚠</text>`,
      );
    }
    out.push(`</g>\n`);
    yield out.join("\n");
  }
  yield `</svg>\n`;
}

/** The whole graph (runs folded) as a standalone SVG document, in one go (a short graph, tests). */
export function flowSvg(model: FlowModel, options: FlowSvgOptions): string {
  return [...flowSvgPieces(flowDrawing(model, options.pending), options)].join("");
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
}
