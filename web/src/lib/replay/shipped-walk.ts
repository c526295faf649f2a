// The demo tour as a guided walk, shipped with the app
// (web/public/walks/demo-tour.jsonl, made by scripts/record-demo-walk.mjs):
// fetched from the page's own origin and read like any dropped capture.

import { openCaptureText, type OpenResult } from "./open-capture.ts";

export const DEMO_WALK_PATH = "/walks/demo-tour.jsonl";
export const DEMO_WALK_NAME = "demo-tour.jsonl";

export async function fetchDemoWalk(): Promise<OpenResult> {
  try {
    const response = await fetch(DEMO_WALK_PATH, { credentials: "same-origin" });
    if (!response.ok) return { ok: false, message: `The recorded tour could not be loaded (HTTP ${response.status}).` };
    return openCaptureText(DEMO_WALK_NAME, await response.text());
  } catch (error) {
    return { ok: false, message: `The recorded tour could not be loaded: ${error instanceof Error ? error.message : String(error)}` };
  }
}
