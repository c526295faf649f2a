// Who last changed each file, as the relay told (activity frames): the editor
// says "Ada saved this file" on a file this browser has open, instead of a
// toast for every save in the room.
import type { Person } from "@pier/protocol";
import { connections } from "../app-context.svelte.ts";
import { PerSession } from "../session-scope.svelte.ts";
import type { RoomEvent } from "./room.svelte.ts";

export type FileChange = { by: Person; verb: "saved" | "created" | "renamed" | "deleted"; to?: string; at: number };

/** Paths remembered (the newest win). */
const MAX_PATHS = 200;

export class FileActivity {
  /** The last change another person made, by workspace-relative path. */
  byPath = $state.raw<Record<string, FileChange>>({});

  /** A room event: remembered when it is a file change. */
  note(event: RoomEvent): void {
    const action = event.action;
    if (action.kind !== "file") return;
    const change: FileChange = { by: event.by, verb: action.verb, at: event.at, ...(action.to === undefined ? {} : { to: action.to }) };
    const next = { ...this.byPath, [action.path]: change };
    const keys = Object.keys(next);
    if (keys.length > MAX_PATHS) for (const old of keys.slice(0, keys.length - MAX_PATHS)) delete next[old];
    this.byPath = next;
  }
}

/** Each live session's (session-scope.svelte.ts); `fileActivity` is the shown one's. */
const perSession = new PerSession(
  (base) => {
    const activity = new FileActivity();
    connections.of(base).room.onEvent((event) => activity.note(event));
    return activity;
  },
  (shown) => (fileActivity = shown),
);
export let fileActivity = perSession.shown;
