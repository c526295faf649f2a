// The small facts a records list row shows beside a record: who sent a
// command (when it was another browser), how long pi took to answer it, and
// the run it started, joined or ended. Asked for the rows on screen only,
// from the pairing model: O(log runs) per row.

import type { LogEntry } from "../pi-state/record-log.ts";
import { pairOf, runOf, type CommandPair, type PairingState } from "./pairing.ts";

export interface RecordBadges {
  /** Another browser's name (or id); null for this page and for pi. */
  sender: string | null;
  /** "12 ms", "…" while waiting, "refused", "lost"; null when the record is not part of a pair. */
  latency: string | null;
  outcome: CommandPair["outcome"] | null;
  /** "run 3", "run 3 ends"; null outside runs' edges. */
  run: string | null;
  /** Longer words for a tooltip. */
  title: string;
}

/** 12 → "12 ms", 1234 → "1.23 s", 61000 → "61 s". */
export function formatLatency(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return s < 10 ? `${s.toFixed(2)} s` : s < 100 ? `${s.toFixed(1)} s` : `${Math.round(s)} s`;
}

export function senderName(sender: { clientId: string; name?: string | undefined } | null | undefined): string {
  if (sender === null || sender === undefined) return "";
  return sender.name ?? `browser ${sender.clientId.slice(0, 8)}`;
}

function latencyWords(pair: CommandPair): string | null {
  switch (pair.outcome) {
    case "pending":
      return "…";
    case "refused":
      return "refused";
    case "lost":
      return "lost";
    default:
      return pair.latencyMs === null ? null : formatLatency(pair.latencyMs);
  }
}

export function recordBadges(pairing: PairingState, entry: LogEntry): RecordBadges {
  const sender = entry.direction === "out" && entry.sender !== undefined && entry.sender.self !== true ? senderName(entry.sender) : null;
  const pair = pairOf(pairing, entry.seq);
  let latency: string | null = null;
  let run: string | null = null;
  const title: string[] = [];
  if (sender !== null) title.push(`Sent by ${sender}`);
  if (pair !== undefined) {
    latency = latencyWords(pair);
    const what = pair.kind === "dialog" ? `dialog ${pair.commandType}` : pair.commandType;
    if (pair.outcome === "pending") title.push(`${what}: waiting for ${pair.kind === "dialog" ? "an answer" : "pi"}`);
    else if (pair.latencyMs !== null) title.push(`${what}: answered in ${formatLatency(pair.latencyMs)}${pair.outcome === "failed" ? " (failed)" : ""}`);
    else title.push(`${what}: ${pair.outcome}${pair.error !== undefined ? ` (${pair.error})` : ""}`);
    if (pair.runId !== null && pair.kind === "command") {
      run = `run ${pair.runId}`;
      title.push(pair.runRole === "started" ? `started run ${pair.runId}` : `joined run ${pair.runId}`);
    }
  } else if (entry.type === "agent_settled" || entry.type === "agent_start") {
    const span = runOf(pairing, entry.seq);
    if (span !== undefined && span.endSeq === entry.seq) {
      run = `run ${span.runId} ends`;
      title.push(`Run ${span.runId} is over${span.endAt !== null ? ` after ${formatLatency(span.endAt - span.startAt)}` : ""}`);
    } else if (span !== undefined && span.startSeq === entry.seq) {
      run = `run ${span.runId}`;
      title.push(`Run ${span.runId} begins`);
    }
  }
  return { sender, latency, outcome: pair?.outcome ?? null, run, title: title.join("; ") };
}

/** "json.md#agent-and-turn-events" → where a person finds it in pi's docs. */
export function docsPlace(docs: string): { file: string; section: string | null } {
  const hash = docs.indexOf("#");
  const file = hash === -1 ? docs : docs.slice(0, hash);
  const anchor = hash === -1 ? "" : docs.slice(hash + 1);
  const section = anchor === "" ? null : anchor.replace(/-/g, " ").replace(/^\w/, (c) => c.toUpperCase());
  return { file: `docs/${file}`, section };
}
