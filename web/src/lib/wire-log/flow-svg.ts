// The flow graph's geometry (shared by the view and the export) and its
// export as one standalone SVG file: inline styles and nothing it refers to
// outside itself, so it opens anywhere. Every text in it comes from records
// (types, a sender's name, a field in a warning) and is escaped: a record may
// carry `</text><script>` in any field.

import { clockTime } from "../format.ts";
import { arrowTargets, arrowWords, audienceWords, flowLanes, pairSlot, type ArrowKind, type FlowItem, type FlowModel } from "./flow-graph.ts";

/** Row height, the time gutter on the left, and the lane headers' band (CSS pixels). */
export const FLOW_ROW = 28;
export const FLOW_GUTTER = 104;
export const FLOW_HEADER = 44;
/** A pause longer than this between two arrows is marked (the axis is the order, not the clock). */
export const FLOW_GAP_MS = 1000;
/** The export holds at most this many arrows (the newest). */
export const MAX_EXPORT_ROWS = 20_000;

/** The centre of lane `i` of `n` in a drawing `width` wide, right of a time gutter `gutter` wide. */
export function laneX(i: number, n: number, width: number, gutter = FLOW_GUTTER): number {
  const span = Math.max(1, width - gutter);
  return gutter + ((i + 0.5) * span) / n;
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

export function arrowColour(item: FlowItem): string {
  if (item.pairKey !== null && (item.partner !== null || item.kind === "command" || item.kind === "response")) return PAIR_COLOURS[pairSlot(item.pairKey, PAIR_COLOURS.length)]!;
  return kindColour(item.kind);
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
  /** A line under the title (what was captured, when). */
  subtitle?: string;
}

const FONT = "font-family:ui-sans-serif,system-ui,-apple-system,'Segoe UI',sans-serif";
const MONO = "font-family:ui-monospace,Menlo,Consolas,monospace";
/** A white halo under a label, so the lifelines it crosses do not run through its letters. */
const HALO = "paint-order:stroke;stroke:#ffffff;stroke-width:3px;stroke-linejoin:round";

/** The whole graph (runs folded) as a standalone SVG document. */
export function flowSvg(model: FlowModel, options: FlowSvgOptions): string {
  const lanes = flowLanes(model);
  const items = model.items.length > MAX_EXPORT_ROWS ? model.items.slice(-MAX_EXPORT_ROWS) : model.items;
  const width = Math.max(720, FLOW_GUTTER + 170 * lanes.length);
  const top = 56;
  const height = top + FLOW_HEADER + items.length * FLOW_ROW + 40;
  const xOf = new Map(lanes.map((lane, i) => [lane.id, laneX(i, lanes.length, width)]));
  const label = (id: string) => lanes.find((lane) => lane.id === id)?.label ?? id;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="flow-title">`,
    `<title id="flow-title">Pier flow graph: pi's RPC protocol, ${items.length.toLocaleString("en")} arrows</title>`,
    `<rect x="0" y="0" width="${width}" height="${height}" style="fill:#ffffff"/>`,
    `<text x="16" y="24" style="${FONT};font-size:15px;font-weight:600;fill:#1c1c21">Flow graph</text>`,
    `<text x="16" y="42" style="${FONT};font-size:11.5px;fill:#62626d">${escapeXml(options.subtitle ?? "")}${options.subtitle ? " · " : ""}one row per arrow, in arrival order (pauses over 1 s marked, not to scale); deltas folded into runs</text>`,
  );
  const bottom = height - 24;
  for (const lane of lanes) {
    const x = xOf.get(lane.id)!;
    out.push(`<line x1="${x}" y1="${top + FLOW_HEADER - 6}" x2="${x}" y2="${bottom}" style="stroke:#cfcfd6;stroke-width:1;stroke-dasharray:4 3"/>`);
    out.push(`<rect x="${x - 74}" y="${top}" width="148" height="28" rx="6" style="fill:#f0f0f2;stroke:#cfcfd6"/>`);
    out.push(`<text x="${x}" y="${top + 18}" text-anchor="middle" style="${FONT};font-size:12px;font-weight:600;fill:#1c1c21">${escapeXml(clip(lane.label, 22))}</text>`);
  }
  let previousAt: number | null = null;
  items.forEach((item, i) => {
    const y = top + FLOW_HEADER + i * FLOW_ROW + FLOW_ROW / 2 + 4;
    const colour = arrowColour(item);
    const warnings = options.warningsOf(item);
    const gap = previousAt !== null && item.at - previousAt > FLOW_GAP_MS ? ` +${((item.at - previousAt) / 1000).toFixed(1)} s` : "";
    previousAt = item.lastAt;
    out.push(`<g><title>${escapeXml(arrowWords(item, label, audienceWords(model)) + (warnings.length > 0 ? `\nWarning: ${warnings.join("\n")}` : ""))}</title>`);
    out.push(`<text x="8" y="${y + 4}" style="${MONO};font-size:10px;fill:#686873">${escapeXml(clockTime(item.at) + gap)}</text>`);
    const from = xOf.get(item.from) ?? 0;
    const targets = arrowTargets(model, lanes, item).map((id) => xOf.get(id) ?? from);
    const far = targets.reduce((a, b) => (Math.abs(b - from) > Math.abs(a - from) ? b : a), targets[0] ?? from);
    const dash = item.kind === "deltas" ? ";stroke-dasharray:2 2" : item.kind === "relay" || item.kind === "request" ? ";stroke-dasharray:5 3" : "";
    if (far === from) {
      // A note on one lane (a tap's relay frame): a small loop.
      out.push(`<path d="M${from} ${y - 5} h16 v10 h-12" style="fill:none;stroke:${colour};stroke-width:1.4"/>`);
      out.push(`<text x="${from + 22}" y="${y + 4}" style="${MONO};font-size:11px;fill:#1c1c21;${HALO}">${escapeXml(clip(arrowLabel(item), 40))}</text>`);
    } else {
      const dir = far > from ? 1 : -1;
      out.push(`<line x1="${from}" y1="${y}" x2="${far - dir * 6}" y2="${y}" style="stroke:${colour};stroke-width:${item.kind === "deltas" ? 2.5 : 1.5}${dash}"/>`);
      out.push(`<path d="M${far} ${y} l${-dir * 8} -4 v8 z" style="fill:${colour}"/>`);
      for (const x of targets) if (x !== far) out.push(`<circle cx="${x}" cy="${y}" r="2.5" style="fill:${colour}"/>`);
      const mid = (from + far) / 2;
      out.push(
        `<text x="${mid}" y="${y - 4}" text-anchor="middle" style="${MONO};font-size:11px;fill:#1c1c21;${HALO}">${escapeXml(clip(arrowLabel(item), Math.max(8, Math.floor(Math.abs(far - from) / 7))))}</text>`,
      );
    }
    if (warnings.length > 0) out.push(`<text x="${FLOW_GUTTER - 16}" y="${y + 4}" style="${FONT};font-size:12px;font-weight:700;fill:#a35300">⚠</text>`);
    out.push(`</g>`);
  });
  out.push(`</svg>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${out.join("\n")}\n`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
}
