// What the workbench's parts need from the page around them, passed in so
// that each part works (and is tested) without the relay connection.

import { viewersCant } from "../room/viewer-hint.ts";

export interface WorkbenchContext {
  /** Tells the person something (the alerts list). */
  notify(level: "error" | "info", title: string, message: string): void;
  /** May this page change files? A viewer's may not (the relay would answer 403). */
  canDrive(): boolean;
}

/** For a viewer: says why nothing happens and returns true (the caller stops). */
export function viewerRefused(context: WorkbenchContext, what: string): boolean {
  if (context.canDrive()) return false;
  context.notify("info", "Read-only", viewersCant(what));
  return true;
}
