// `pier replay FILE` serves the page and the capture, and no relay. Its link
// leads to `/?replay`; the page then asks for the capture's name (a live
// relay answers 404: the page connects as usual).

import { openCaptureProgressively, type OpenResult } from "./open-capture.ts";
import { REPLAY_CAPTURE_PATH, REPLAY_PROBE_PATH } from "./replay-session.svelte.ts";

export interface ServedReplayInfo {
  name: string;
}

/** What `pier replay` says about its capture, or null when this is a live relay. */
export async function probeServedReplay(): Promise<ServedReplayInfo | null> {
  try {
    const response = await fetch(REPLAY_PROBE_PATH, { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } });
    if (!response.ok) return null;
    const body = (await response.json()) as { name?: unknown };
    return typeof body.name === "string" ? { name: body.name } : null;
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
