// `pier replay FILE [OTHER]` serves the page and the capture (and OTHER, to
// compare it with), and no relay. Its link leads to `/?replay`; the page then
// asks for the capture's name (a live relay answers 404: the page connects as
// usual).

import { openCaptureProgressively, type OpenResult } from "./open-capture.ts";
import { REPLAY_CAPTURE_PATH, REPLAY_COMPARE_PATH, REPLAY_PROBE_PATH, type ServedCompare } from "./replay-session.svelte.ts";

export interface ServedReplayInfo {
  name: string;
  /** The second capture `pier replay A B` opens compared with the first, or null. */
  compare: { name: string } | null;
}

/** What `pier replay` says about its capture, or null when this is a live relay. */
export async function probeServedReplay(): Promise<ServedReplayInfo | null> {
  try {
    const response = await fetch(REPLAY_PROBE_PATH, { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } });
    if (!response.ok) return null;
    const body = (await response.json()) as { name?: unknown; compare?: { name?: unknown } };
    if (typeof body.name !== "string") return null;
    return { name: body.name, compare: typeof body.compare?.name === "string" ? { name: body.compare.name } : null };
  } catch {
    return null;
  }
}

/** The served capture, read like a dropped one (a large one opens before it is read through). */
export async function fetchServedCapture(info: ServedReplayInfo): Promise<OpenResult> {
  try {
    const response = await fetch(REPLAY_CAPTURE_PATH, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) return { ok: false, message: `${info.name} could not be loaded (HTTP ${response.status}).` };
    return openCaptureProgressively(info.name, await response.text());
  } catch (error) {
    return { ok: false, message: `${info.name} could not be loaded: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/**
 * The second capture, as a File: "Compare with…" then reads it as one picked
 * by hand (its limits, its checks, its refusals in words).
 */
export async function fetchServedCompare(compare: { name: string }): Promise<ServedCompare> {
  try {
    const response = await fetch(REPLAY_COMPARE_PATH, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) return { ok: false, message: `${compare.name} could not be loaded (HTTP ${response.status}).` };
    return { ok: true, file: new File([await response.blob()], compare.name, { type: "application/x-ndjson" }) };
  } catch (error) {
    return { ok: false, message: `${compare.name} could not be loaded: ${error instanceof Error ? error.message : String(error)}` };
  }
}
