// The people around one pi: who is here (presence), what each may do (the
// role their link granted), the links drivers make and revoke, who answered
// an extension dialog first, viewers' suggested prompts, and what drivers
// look at (for viewers who follow them). Everything here is relay state the
// pages are told about in relay frames; pi never sees any of it.
import { CLOSE_REVOKED, roleMaySend, type Focus, type Person, type RelayFrame, type RelayRequest, type Role, type Suggestion } from "@pier/protocol";
import type { AccessLinks, Grant } from "./access-links.ts";
import type { BrowserClient } from "./browser-hub.ts";
import { Coalescer } from "./coalescer.ts";
import { People } from "./people.ts";

/** Dialog answers remembered (by request id) to refuse a second answer. */
const REMEMBERED_ANSWERS = 1000;
const MAX_OPEN_SUGGESTIONS = 100;

export type RoomRefusal = { code: "forbidden" | "already_answered" | "request_failed"; message: string };

export class Room {
  readonly people = new People();
  readonly #links: AccessLinks;
  readonly #clients = new Map<string, BrowserClient>();
  /** extension_ui request id → who answered it, and when. */
  readonly #answered = new Map<string, { person: Person; at: number }>();
  readonly #suggestions = new Map<string, Suggestion>();
  /** The last focus each driver reported. */
  readonly #focus = new Map<string, Focus>();
  readonly #log: (line: string) => void;
  /** Renames and focus changes, one frame per person per window with the latest value (coalescer.ts). */
  readonly #renames = new Coalescer<string>();
  readonly #focusChanges = new Coalescer<string>();
  /** The links list changes with every joiner (a use more): a class of 20 arriving sends drivers a few lists, not 20. */
  readonly #linksChanges = new Coalescer<"links">();
  /** Joiners are told at once, and those of the next window together: a class of 20 costs each open page a few frames, not 20. */
  readonly #arrivals = new Coalescer<"arrivals">();
  /** Who joined since the others were last told, in the order they came. */
  #arriving: string[] = [];
  #suggestionSeq = 0;
  /** The live session this room is the people of (what a viewer link made here opens). */
  readonly #liveId: string;
  readonly #unsubscribe: Array<() => void>;

  constructor(links: AccessLinks, log: (line: string) => void, liveId = "1") {
    this.#links = links;
    this.#log = log;
    this.#liveId = liveId;
    // Links are pier's, not one session's: a revoke made in any session closes this session's browsers of that link too.
    this.#unsubscribe = [
      links.onRevoked((linkId) => {
        for (const victim of this.people.fromLink(linkId)) {
          this.#clients.get(victim.clientId)?.socket.close(CLOSE_REVOKED, "the link this page was opened with was revoked");
        }
      }),
      links.onChanged(() => this.#sendLinks()),
    ];
  }

  /** Dialogs answered (of those remembered), for a joining page's hello. */
  answeredDialogs(): { id: string; by: string; at: number }[] {
    return [...this.#answered].map(([id, { person, at }]) => ({ id, by: person.name, at }));
  }

  /** pi restarted: its dialog ids start over. */
  forgetAnswers(): void {
    this.#answered.clear();
  }

  /** This session is gone: stop hearing of links. */
  dispose(): void {
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#linksChanges.dispose();
    this.#arrivals.dispose();
  }

  /** A browser connecting with `grant` is counted in (for its hello); `welcome` follows once it is connected. */
  admit(clientId: string, grant: Grant): Person {
    return this.people.join(clientId, grant);
  }

  /** The admitted browser is connected: everyone hears of it, and it gets what its hello did not carry. */
  welcome(client: BrowserClient): void {
    const person = this.people.get(client.id);
    if (person === undefined) return;
    this.#clients.set(client.id, client);
    // The newcomer's hello listed everyone already; the others hear of it.
    this.#arriving.push(client.id);
    this.#arrivals.changed("arrivals", () => this.#announceArrivals());
    // What a latecomer needs besides the hello: drivers' focus, and for a driver the links and open suggestions.
    for (const [clientId, focus] of this.#focus) if (clientId !== client.id) client.sendFrame({ type: "focus", clientId, focus });
    // Every driver's list of links, the newcomer's included: the link it came by has one use more.
    this.#sendLinks();
    if (person.role === "driver") {
      for (const suggestion of this.#suggestions.values()) client.sendFrame({ type: "suggestion", suggestion });
    }
  }

  leave(client: BrowserClient): void {
    if (!this.#clients.delete(client.id)) return;
    this.#renames.forget(client.id);
    this.#focusChanges.forget(client.id);
    this.#focus.delete(client.id);
    this.people.leave(client.id);
    const arriving = this.#arriving.indexOf(client.id);
    if (arriving !== -1) this.#arriving.splice(arriving, 1);
    this.broadcast({ type: "presence", event: "left", clientId: client.id });
  }

  roleOf(client: BrowserClient): Role | null {
    return this.people.grantOf(client.id)?.role ?? null;
  }

  /**
   * May this browser's pi command go through? Viewers send only queries; an
   * extension dialog takes the first answer only (pi would otherwise see two).
   */
  checkCommand(client: BrowserClient, type: string, command: Readonly<Record<string, unknown>>): RoomRefusal | null {
    const person = this.people.get(client.id);
    if (person === undefined) return { code: "forbidden", message: "this browser is not known to the relay" };
    if (!roleMaySend(person.role, type)) {
      return { code: "forbidden", message: `viewers watch: only a driver can send pi commands that change something (“${type}” was not sent)` };
    }
    if (type === "extension_ui_response" && typeof command["id"] === "string") {
      const first = this.claimAnswer(command["id"], person);
      if (first !== null) return { code: "already_answered", message: `${first.name} answered this dialog first; pi has its answer` };
    }
    return null;
  }

  /** `person` answers dialog `requestId`: null when theirs is the first answer, else who answered first. */
  claimAnswer(requestId: string, person: Person): Person | null {
    const first = this.#answered.get(requestId);
    if (first !== undefined) return first.person;
    this.#answered.set(requestId, { person, at: Date.now() });
    if (this.#answered.size > REMEMBERED_ANSWERS) this.#answered.delete(this.#answered.keys().next().value!);
    return null;
  }

  /** A command went to pi: every other browser hears who sent what. */
  announceCommand(client: BrowserClient, line: Buffer): void {
    const sender = this.people.get(client.id);
    if (sender === undefined) return;
    this.#toOthers(client, { type: "command_sent", sender, line: line.toString("utf8"), at: Date.now() });
  }

  /** A change made over HTTP with a grant's cookie, told to everyone. */
  announceActivity(grant: Grant | null, activity: Omit<Extract<RelayFrame, { type: "activity" }>, "type" | "by" | "at">): void {
    this.broadcast({ type: "activity", by: grant ? this.people.byGrant(grant.id) : null, at: Date.now(), ...activity });
  }

  /** Every "pier.*" request but restarting pi and the workspace's trust (pi-bridge.ts); null when it was carried out. */
  handle(client: BrowserClient, request: Exclude<RelayRequest, { type: "pier.restart_pi" | "pier.trust_workspace" }>): RoomRefusal | null {
    const person = this.people.get(client.id);
    if (person === undefined) return { code: "forbidden", message: "this browser is not known to the relay" };
    const driversOnly = (what: string): RoomRefusal => ({ code: "forbidden", message: `only a driver can ${what}` });
    switch (request.type) {
      case "pier.introduce": {
        const renamed = this.people.rename(client.id, request.name);
        if (renamed === null) return { code: "request_failed", message: "that name has no visible characters" };
        this.#renames.changed(client.id, () => {
          const person = this.people.get(client.id);
          if (person !== undefined) this.broadcast({ type: "presence", event: "changed", person });
        });
        return null;
      }
      case "pier.create_link": {
        if (person.role !== "driver") return driversOnly("make links");
        // A viewer link opens this session only unless the driver asked for the whole board.
        const scope = request.role === "viewer" && request.scope !== "board" ? this.#liveId : null;
        const { token, link } = this.#links.issue(request.role, { createdBy: person.name, scope });
        client.sendFrame({ type: "link_created", link, token });
        this.#log(`${person.name} made a ${request.role} link${scope !== null ? " for one session" : ""}`);
        return null;
      }
      case "pier.revoke_link": {
        if (person.role !== "driver") return driversOnly("revoke links");
        // Revoking closes the link's browsers in every live session (see the constructor) and sends drivers the list.
        if (!this.#links.revoke(request.linkId)) return { code: "request_failed", message: "there is no such link (it may have expired long ago)" };
        this.#log(`${person.name} revoked a link`);
        return null;
      }
      case "pier.focus": {
        if (person.role !== "driver") return driversOnly("be followed");
        this.#focus.set(client.id, request.focus);
        this.#focusChanges.changed(client.id, () => {
          const focus = this.#focus.get(client.id);
          if (focus !== undefined) this.#toOthers(client, { type: "focus", clientId: client.id, focus });
        });
        return null;
      }
      case "pier.suggest": {
        if (this.#suggestions.size >= MAX_OPEN_SUGGESTIONS) return { code: "request_failed", message: "too many suggestions are waiting; try again once the drivers have read them" };
        const suggestion: Suggestion = { id: `s${++this.#suggestionSeq}`, from: person, text: request.text, at: Date.now() };
        this.#suggestions.set(suggestion.id, suggestion);
        this.#toDriversAnd(client, { type: "suggestion", suggestion });
        return null;
      }
      case "pier.resolve_suggestion": {
        const suggestion = this.#suggestions.get(request.id);
        if (suggestion === undefined) return { code: "request_failed", message: "that suggestion was already taken or dismissed" };
        const own = suggestion.from.clientId === client.id;
        if (person.role !== "driver" && !(own && !request.accepted)) return driversOnly("take or dismiss another person's suggestion");
        this.#suggestions.delete(request.id);
        const author = this.#clients.get(suggestion.from.clientId);
        this.#toDriversAnd(author ?? client, { type: "suggestion_resolved", id: request.id, by: person, accepted: request.accepted });
        return null;
      }
    }
  }

  broadcast(frame: RelayFrame): void {
    const text = JSON.stringify(frame);
    for (const client of this.#clients.values()) client.sendText(text);
  }

  /**
   * Tell everyone of the people who joined since the last telling. A joiner's
   * hello listed those admitted before it (admit and welcome run in one
   * tick, in order), so it hears only of those who came after it.
   */
  #announceArrivals(): void {
    const arriving = this.#arriving.flatMap((clientId) => this.people.get(clientId) ?? []);
    this.#arriving = [];
    if (arriving.length === 0) return;
    const told = (people: Person[]): string | null =>
      people.length === 0
        ? null
        : JSON.stringify(people.length === 1 ? { type: "presence", event: "joined", person: people[0]! } : ({ type: "presence", event: "arrived", people } satisfies RelayFrame));
    const toEarlier = told(arriving);
    for (const client of this.#clients.values()) {
      const at = arriving.findIndex((person) => person.clientId === client.id);
      const text = at === -1 ? toEarlier : told(arriving.slice(at + 1));
      if (text !== null) client.sendText(text);
    }
  }

  #toOthers(client: BrowserClient, frame: RelayFrame): void {
    const text = JSON.stringify(frame);
    for (const other of this.#clients.values()) if (other !== client) other.sendText(text);
  }

  #sendLinks(): void {
    this.#linksChanges.changed("links", () => this.#sendLinksNow());
  }

  #sendLinksNow(): void {
    const text = JSON.stringify({ type: "links", links: this.#links.list() } satisfies RelayFrame);
    for (const client of this.#clients.values()) if (this.people.grantOf(client.id)?.role === "driver") client.sendText(text);
  }

  /** To every driver, and to `also` (a viewer who suggested), once each. */
  #toDriversAnd(also: BrowserClient, frame: RelayFrame): void {
    const text = JSON.stringify(frame);
    for (const client of this.#clients.values()) {
      if (client === also || this.people.grantOf(client.id)?.role === "driver") client.sendText(text);
    }
  }
}
