// The two directions of follow mode, as effects that live as long as the page:
//  - a driver tells the relay what it looks at (pier.focus), debounced, and
//    only while someone else is here to follow;
//  - a follower applies the leader's focus (opens the file, brings the line
//    to the top, switches pane) and stops following when the person
//    navigates on their own or the leader leaves.
import type { Focus } from "@pier/protocol";
import { untrack } from "svelte";
import { connection } from "../app-context.svelte.ts";
import { workbench } from "./workbench-store.svelte.ts";
import { follow } from "../room/follow.svelte.ts";

/** Scrolling sends many changes a second; the relay hears the one it settles on. */
export const FOCUS_DEBOUNCE_MS = 150;

const PANES = new Set(["editor", "chat"]);

export function startFollowSync(): () => void {
  return $effect.root(() => {
    reportOwnFocus();
    applyLeaderFocus();
    noticeOwnNavigation();
  });
}

function reportOwnFocus(): void {
  let lastSent: string | null = null;
  $effect(() => {
    const room = connection.room;
    const clientId = connection.clientId;
    if (!connection.connected || !room.isDriver || room.people.length < 2 || clientId === null) return;
    const tab = workbench.activeTab;
    const file = tab?.kind === "file" ? tab.path : null;
    const focus: Focus = {
      file,
      line: file !== null ? follow.topLine : null,
      pane: workbench.narrow ? workbench.mobilePane : null,
    };
    // The connection in the key: a new one (a reconnect) starts with no focus at the relay.
    const key = `${clientId}\u0000${JSON.stringify(focus)}`;
    if (key === lastSent) return;
    const timer = setTimeout(() => {
      if (connection.request({ type: "pier.focus", focus })) lastSent = key;
    }, FOCUS_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  });
}

function applyLeaderFocus(): void {
  $effect(() => {
    const leader = follow.leader;
    if (leader === null) return;
    const person = connection.room.people.find((p) => p.clientId === leader);
    const focus = connection.room.focus[leader];
    untrack(() => {
      if (person === undefined) {
        follow.stop(`${follow.leaderName} left, so you are no longer following them.`);
        return;
      }
      follow.leaderName = person.name;
      if (focus !== undefined) apply(focus);
    });
  });

  // The leader's file could not be opened here (deleted, unreadable): say so, keep following.
  $effect(() => {
    const leader = follow.leader;
    const file = leader === null ? null : (connection.room.focus[leader]?.file ?? null);
    if (file === null) return;
    const doc = workbench.docs[file];
    if (doc?.status === "error") follow.note = `${follow.leaderName}'s file ${file} could not be opened here: ${doc.error ?? "unknown error"}`;
    else if (doc?.status === "ready" || doc?.status === "readonly") follow.note = null;
  });
}

function apply(focus: Focus): void {
  if (focus.file !== null) {
    follow.expectedFile = focus.file;
    workbench.openFile(focus.file);
    if (focus.line !== null) follow.revealLine(focus.file, focus.line);
  }
  if (focus.pane !== null && PANES.has(focus.pane) && workbench.narrow && (focus.pane !== "editor" || workbench.editorOpen)) {
    follow.expectedPane = focus.pane;
    workbench.mobilePane = focus.pane as "editor" | "chat";
  } else {
    follow.expectedPane = null;
  }
}

/** Another tab or pane than the leader's, chosen here: the person took over. */
function noticeOwnNavigation(): void {
  $effect(() => {
    const tab = workbench.activeTab;
    if (!follow.following || follow.expectedFile === null) return;
    const path = tab?.kind === "file" ? tab.path : null;
    if (path !== follow.expectedFile) untrack(() => follow.ownNavigation(tab ? "opened another tab" : "closed the file"));
  });
  $effect(() => {
    const pane = workbench.mobilePane;
    if (!follow.following || follow.expectedPane === null || !workbench.narrow) return;
    if (pane !== follow.expectedPane) untrack(() => follow.ownNavigation(`switched to the ${pane}`));
  });
}
