// Follow mode: this browser shows what a driver looks at (their open file,
// the first line on their screen, their pane on a narrow screen), read-only,
// until the person navigates on their own. The relay carries each driver's
// focus (pier.focus → focus frames, room.focus); workspace/follow-sync.svelte.ts
// reports ours and applies the leader's; CodeEditor scrolls and reports lines.
import type { Person } from "@pier/protocol";
import { PerSession } from "../session-scope.svelte.ts";

export class FollowMode {
  /** The driver followed (by clientId), or null. */
  leader = $state<string | null>(null);
  /** Their name when following began or last seen (for notes after they left). */
  leaderName = $state("");
  /** Why following stopped, or what could not be followed ("Ada's file … could not be opened"). */
  note = $state<string | null>(null);
  /** The first line on screen in this browser's editor (CodeEditor keeps it current), for our own focus. */
  topLine = $state<number | null>(null);
  /** A line the editor should bring to the top of `path` (the leader's); `seq` says "again". */
  reveal = $state<{ path: string; line: number; seq: number } | null>(null);
  /** What the leader's focus put on screen, to tell it from the person's own navigation. */
  expectedFile: string | null = null;
  expectedPane: string | null = null;
  #revealSeq = 0;

  get following(): boolean {
    return this.leader !== null;
  }

  start(person: Person): void {
    this.leader = person.clientId;
    this.leaderName = person.name;
    this.note = null;
    this.expectedFile = null;
    this.expectedPane = null;
  }

  /** Stop following; `why` is said to the person (null: they asked, nothing to explain). */
  stop(why: string | null): void {
    if (this.leader === null) return;
    this.leader = null;
    this.reveal = null;
    this.expectedFile = null;
    this.expectedPane = null;
    this.note = why;
  }

  /** The person navigated on their own (scrolled, opened another file, switched pane). */
  ownNavigation(what: string): void {
    if (this.leader === null) return;
    this.stop(`Stopped following ${this.leaderName}: you ${what}.`);
  }

  revealLine(path: string, line: number): void {
    this.reveal = { path, line, seq: ++this.#revealSeq };
  }
}

/** Following is within one live session (session-scope.svelte.ts); `follow` is the shown one's. */
const perSession = new PerSession(
  () => new FollowMode(),
  (shown) => (follow = shown),
);
export let follow = perSession.shown;
