// The page's workbench, `workbench`, wired to the relay connection; other
// parts of the app use `openFile(path)` and `openDiff(...)`. The workbench
// itself is workbench.svelte.ts (one per workspace, its parts beside it).

import { connections } from "../app-context.svelte.ts";
import { PerSession } from "../session-scope.svelte.ts";
import { WorkbenchStore, type OpenDiffOptions } from "./workbench.svelte.ts";

export { WorkbenchStore } from "./workbench.svelte.ts";
export type { DialogButton, DialogRequest, DiffDocument, DiskText, FileDocument, OpenDiffOptions, WorkbenchHost, WorkbenchOptions } from "./workbench.svelte.ts";
export { MIN_CHAT_WIDTH } from "./workbench.svelte.ts";

/** Each live session's workbench, on that session's files (`/live/<id>/api/…`); `workbench` is the shown one's. */
const perSession = new PerSession(
  (base) => {
    const connection = connections.of(base);
    return new WorkbenchStore(
      {
        notify: (level, title, message) => connection.notify(level, title, message),
        canDrive: () => connection.room.canDrive,
        onWorkspaceChanged: (listener) => connection.onWorkspaceChanged(listener),
        // Tabs are kept per workspace folder; a recording played back has no files to open.
        savedTabsKey: () => (connection.readOnly ? null : (connection.hello?.cwd ?? null)),
      },
      { apiBase: base },
    );
  },
  (shown) => (workbench = shown),
  // Unsaved edits keep their session in the page; a dropped one's Monaco models go with it.
  { keep: (store) => store.hasUnsaved, dispose: (store) => store.dispose() },
);
export let workbench = perSession.shown;

/** Opens a workspace file in an editor tab. */
export function openFile(path: string): void {
  workbench.openFile(path);
}

/** Opens a read-only diff in an editor tab (e.g. of a tool's write/edit). */
export function openDiff(options: OpenDiffOptions): void {
  workbench.openDiff(options);
}
