// The room: who is here, with which role, and what the others did. Fed by
// the relay's frames (hello, presence, command_sent, activity, links,
// link_created, focus, suggestion, suggestion_resolved); the components for
// presence, links, suggestions, follow mode and attribution read it.
//
// Names are other people's text: components must render them as text.
import { roleMaySend, type Focus, type LinkInfo, type Person, type RelayFrame, type Suggestion } from "@pier/protocol";
import { describeCommand, type RoomAction } from "./room-actions.ts";

/** Something another person did that this browser should hear about. */
export type RoomEvent = {
  id: number;
  at: number;
  by: Person;
  action: RoomAction;
  /** "Ada aborted the run": a whole sentence, plain text. */
  text: string;
  /** Whether it changes what everyone sees (new session, switch, abort…): announced, never silent. */
  disruptive: boolean;
};

/** How many events to keep (the announcements and attribution need only recent ones). */
const MAX_EVENTS = 200;

export class Room {
  /** This browser's person (its role decides what the relay lets it do); null before the first hello. */
  you = $state.raw<Person | null>(null);
  /** Everyone connected, this browser included, in the order they came. */
  people = $state.raw<Person[]>([]);
  /** A `pier tap` page: it watches another client's pi and may send pi nothing, not even a read (the relay refuses it). */
  tap = $state(false);
  /** Links drivers made (drivers only get them). */
  links = $state.raw<LinkInfo[]>([]);
  /** The last link this browser made, with its secret (only ever sent to its maker). */
  created = $state.raw<{ link: LinkInfo; token: string } | null>(null);
  /** Open suggestions: to drivers, everyone's; to a viewer, their own. */
  suggestions = $state.raw<Suggestion[]>([]);
  /** What each driver looks at, by clientId (for follow mode). */
  focus = $state.raw<Record<string, Focus>>({});
  /** What the others did, oldest first (bounded). */
  events = $state.raw<RoomEvent[]>([]);
  #eventSeq = 0;
  /** Session changes sent by someone, by command id, until pi answers (noteRecord). */
  readonly #awaiting = new Map<string, { by: Person; action: RoomAction; at: number }>();
  readonly #listeners = new Set<(event: RoomEvent) => void>();

  get role(): Person["role"] | null {
    return this.you?.role ?? null;
  }

  get isViewer(): boolean {
    return this.you?.role === "viewer";
  }

  get isDriver(): boolean {
    return this.you?.role === "driver";
  }

  /**
   * May this browser send pi commands, answer dialogs and change files? The
   * one check the UI asks (the relay enforces it anyway). True before the
   * first hello: nothing can be sent then, and a driver's page should not
   * flash read-only while it connects.
   */
  get canDrive(): boolean {
    return this.you?.role !== "viewer";
  }

  /** May this page send pi this command (drivers: any; viewers: queries only)? */
  maySend(commandType: string): boolean {
    if (this.tap) return false;
    return this.you === null || roleMaySend(this.you.role, commandType);
  }

  personById(clientId: string): Person | undefined {
    return this.people.find((p) => p.clientId === clientId);
  }

  /** Hear about each new event (announcements); returns the unsubscribe function. */
  onEvent(listener: (event: RoomEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A relay frame: true when it was the room's (the caller need not look further). */
  apply(frame: RelayFrame, at: number): void {
    switch (frame.type) {
      case "hello":
        this.tap = frame.tap !== undefined;
        this.you = frame.you;
        this.people = frame.people;
        this.suggestions = [];
        this.focus = {};
        // Links come again from the relay (to drivers) right after the hello.
        if (frame.you.role !== "driver") this.links = [];
        return;
      case "presence":
        this.#presence(frame);
        return;
      case "command_sent": {
        const action = describeCommand(frame.line);
        if (action === null) return;
        // What an extension may still cancel is said once pi confirms it (noteRecord), not when it was sent.
        const id = CONFIRMED_BY_PI.has(action.kind) ? commandIdOf(frame.line) : null;
        if (id === null) this.#record(frame.sender, action, frame.at || at);
        else this.#awaiting.set(id, { by: frame.sender, action, at: frame.at || at });
        if (this.#awaiting.size > MAX_AWAITING) this.#awaiting.delete(this.#awaiting.keys().next().value!);
        return;
      }
      case "activity":
        if (frame.by !== null && frame.by.clientId !== this.you?.clientId) {
          this.#record(frame.by, { kind: "file", verb: frame.action, path: frame.path, ...(frame.to === undefined ? {} : { to: frame.to }) }, frame.at || at);
        }
        return;
      case "links":
        this.links = frame.links;
        return;
      case "link_created":
        this.created = { link: frame.link, token: frame.token };
        if (!this.links.some((l) => l.id === frame.link.id)) this.links = [...this.links, frame.link];
        return;
      case "focus":
        this.focus = { ...this.focus, [frame.clientId]: frame.focus };
        return;
      case "suggestion":
        if (!this.suggestions.some((s) => s.id === frame.suggestion.id)) this.suggestions = [...this.suggestions, frame.suggestion];
        return;
      case "suggestion_resolved":
        this.suggestions = this.suggestions.filter((s) => s.id !== frame.id);
        return;
      default:
        return;
    }
  }

  /**
   * A record from pi: the answer to someone's new_session, switch_session,
   * fork or clone says whether it happened (an extension may cancel it:
   * data.cancelled), and only then is it told.
   */
  noteRecord(value: unknown): void {
    if (this.#awaiting.size === 0 || typeof value !== "object" || value === null) return;
    const record = value as { type?: unknown; id?: unknown; success?: unknown; data?: { cancelled?: unknown } | null };
    if (record.type !== "response" || typeof record.id !== "string") return;
    const waiting = this.#awaiting.get(record.id);
    if (waiting === undefined) return;
    this.#awaiting.delete(record.id);
    if (record.success === true && record.data?.cancelled !== true) this.#record(waiting.by, waiting.action, waiting.at);
  }

  /** Forget everyone and everything (a replay going back to its start; the hello that follows fills it again). */
  reset(): void {
    this.you = null;
    this.people = [];
    this.links = [];
    this.created = null;
    this.suggestions = [];
    this.focus = {};
    this.events = [];
    this.#awaiting.clear();
  }

  #presence(frame: Extract<RelayFrame, { type: "presence" }>): void {
    if (frame.event === "left") {
      this.people = this.people.filter((p) => p.clientId !== frame.clientId);
      if (frame.clientId in this.focus) {
        const { [frame.clientId]: _gone, ...rest } = this.focus;
        this.focus = rest;
      }
      return;
    }
    const came = frame.event === "arrived" ? frame.people : [frame.person];
    // One new list for the whole frame: a class arriving together redraws the people once.
    const people = [...this.people];
    for (const person of came) {
      const index = people.findIndex((p) => p.clientId === person.clientId);
      if (index === -1) people.push(person);
      else people[index] = person;
      if (person.clientId === this.you?.clientId) this.you = person;
    }
    this.people = people;
  }

  #record(by: Person, action: RoomAction, at: number): void {
    const { text, disruptive } = sentence(by, action);
    const event: RoomEvent = { id: ++this.#eventSeq, at, by, action, text, disruptive };
    const events = [...this.events, event];
    this.events = events.length > MAX_EVENTS ? events.slice(events.length - MAX_EVENTS) : events;
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        console.error("room listener failed", error);
      }
    }
  }
}

/** Session changes an extension can cancel (session_before_* handlers): told when pi confirms them. */
const CONFIRMED_BY_PI = new Set<RoomAction["kind"]>(["new_session", "switch_session", "fork", "clone"]);
/** Sent session changes remembered while pi has not answered (pi answers each; a lost one must not grow the map). */
const MAX_AWAITING = 100;

function commandIdOf(line: string): string | null {
  try {
    const id = (JSON.parse(line) as { id?: unknown }).id;
    return typeof id === "string" ? id : null;
  } catch {
    return null;
  }
}

/** "Ada aborted the run", and whether it changes what everyone sees. */
export function sentence(by: Person, action: RoomAction): { text: string; disruptive: boolean } {
  const who = by.name;
  switch (action.kind) {
    case "prompt":
      return { text: `${who} sent a prompt`, disruptive: false };
    case "steer":
      return { text: `${who} steered the run`, disruptive: false };
    case "follow_up":
      return { text: `${who} queued a follow-up`, disruptive: false };
    case "abort":
      return { text: `${who} aborted the run`, disruptive: true };
    case "new_session":
      return { text: `${who} started a new session`, disruptive: true };
    case "switch_session":
      return { text: `${who} switched to another session`, disruptive: true };
    case "fork":
      return { text: `${who} forked the session`, disruptive: true };
    case "clone":
      return { text: `${who} cloned the session`, disruptive: true };
    case "compact":
      return { text: `${who} compacted the conversation`, disruptive: true };
    case "answer":
      return { text: `${who} answered a dialog${action.summary ? `: ${action.summary}` : ""}`, disruptive: false };
    case "model":
      return { text: `${who} changed the model`, disruptive: false };
    case "setting":
      return { text: `${who} changed a setting (${action.command})`, disruptive: false };
    case "rename":
      return { text: `${who} renamed the session`, disruptive: false };
    case "bash":
      return { text: `${who} ran a shell command`, disruptive: false };
    case "file":
      return { text: `${who} ${action.verb} ${action.path}${action.to ? ` → ${action.to}` : ""}`, disruptive: false };
  }
}
