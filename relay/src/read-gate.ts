// What reaches pi of the browsers' read-only commands (READ_ONLY_COMMANDS),
// so a page that asks too much — a broken one, or a viewer on purpose —
// cannot stall pi or the others.
//
// A thousand get_messages from one viewer took pi to ~900 MB (every answer
// waits in pi's memory until it is written out) and delayed the driver's
// next answer by seconds. Each read's answer now goes only to its asker
// (response-router.ts), and before it goes to pi a read must pass:
//
// - an id, a string, that no read in flight uses and that no other browser
//   used recently: the answer is found by its id, so an id taken from a
//   driver's command (every browser sees them in command_sent) must not let a
//   viewer's read take that driver's answer;
// - per connection: at most `outstanding` reads waiting or in pi, and a
//   token bucket; a read the same as one still waiting (the same bytes but
//   for the id) is held back until that one is answered, so pi never works
//   on two copies of one page's read at once (a page that asks twice in a
//   row, as a store refreshing itself does, still gets both answers);
// - per link (all browsers that came in with one link, e.g. a class of 200
//   on one viewer link): at most LINK_IN_PI of their reads in pi at once;
//   more wait here, in order, and go as answers come. So a classroom that
//   loads at once still loads, a few dozen reads at a time.
//
// Past a limit the read is refused with a `rate_limited` error that carries
// its id, so the page's pending call fails at once; pi never sees it.
// Drivers get the same rules with larger numbers: a driver may do anything
// anyway; the point is that a broken page cannot stall pi.
import type { Role } from "@pier/protocol";
import { TokenBucket, type BucketLimits } from "./rate-limit.ts";

export type ReadLimits = { outstanding: number; bucket: BucketLimits };

export const READ_LIMITS: Record<Role, ReadLimits> = {
  // A page loading asks for about six things at once (state, entries, models, commands…), then one now and then.
  viewer: { outstanding: 16, bucket: { capacity: 40, perSecond: 10 } },
  driver: { outstanding: 32, bucket: { capacity: 100, perSecond: 40 } },
};
/** Reads of one link's browsers in pi at once; more wait their turn. */
export const LINK_IN_PI = 32;
/** Ids of commands sent to pi remembered, with who sent them (a read may not reuse another browser's). */
const REMEMBERED_IDS = 4096;

export type GateOwner = { readonly id: string };

export type Read<Owner extends GateOwner> = {
  owner: Owner;
  role: Role;
  linkId: string;
  id: string;
  type: string;
  /** What makes two reads the same: the command but its id. */
  key: string;
  line: Buffer;
};

export type GateSink<Owner extends GateOwner> = {
  /** Writes the read to pi now (its answer is expected from here on). */
  send(read: Read<Owner>): void;
  refuse(owner: Owner, read: { id: string | undefined; type: string }, message: string): void;
};

/** `keys`: the key of each read waiting or in pi → the copies held back behind it, in order. */
type Connection = { bucket: TokenBucket; outstanding: number; keys: Map<string, Read<GateOwner>[]>; role: Role; linkId: string };
type Link = { inPi: number; waiting: Read<GateOwner>[] };

export class ReadGate<Owner extends GateOwner> {
  readonly #sink: GateSink<Owner>;
  readonly #now: (() => number) | undefined;
  readonly #connections = new Map<Owner, Connection>();
  readonly #links = new Map<string, Link>();
  /** Reads waiting or in pi, by id: their owner and key. */
  readonly #inFlight = new Map<string, { owner: Owner; key: string; inPi: boolean }>();
  /** Command id → id of the browser that sent it, most recent last. */
  readonly #recentIds = new Map<string, string>();

  constructor(sink: GateSink<Owner>, now?: () => number) {
    this.#sink = sink;
    this.#now = now;
  }

  /** Reads waiting for their turn (all links). */
  get waiting(): number {
    let count = 0;
    for (const link of this.#links.values()) count += link.waiting.length;
    return count;
  }

  /** A read-only command from `owner`: sent to pi now, queued for its link's turn, or refused (through the sink). */
  offer(read: Omit<Read<Owner>, "id"> & { id: string | undefined }): void {
    const { owner, id, type } = read;
    if (id === undefined) {
      return this.#sink.refuse(owner, read, `“${type}” needs a string id: pi's answer to a read goes only to the browser that asked, found by its id`);
    }
    if (this.#inFlight.has(id)) return this.#sink.refuse(owner, read, `a command with id “${id}” is still waiting for pi's answer: give each command an id of its own`);
    const sender = this.#recentIds.get(id);
    if (sender !== undefined && sender !== owner.id) return this.#sink.refuse(owner, read, `id “${id}” was used by another browser: give each command an id of its own`);
    const connection = this.#connection(owner, read.role, read.linkId);
    if (connection.outstanding >= READ_LIMITS[read.role].outstanding) {
      return this.#sink.refuse(owner, read, `too many reads waiting for pi's answers (at most ${READ_LIMITS[read.role].outstanding} per page); “${type}” was not sent`);
    }
    if (!connection.bucket.take()) return this.#sink.refuse(owner, read, `too many reads in a short time; “${type}” was not sent, try again in a moment`);
    connection.outstanding++;
    this.noteId(owner, id);
    const full: Read<Owner> = { ...read, id };
    this.#inFlight.set(id, { owner, key: read.key, inPi: false });
    const copies = connection.keys.get(read.key);
    if (copies !== undefined) return void copies.push(full as unknown as Read<GateOwner>);
    connection.keys.set(read.key, []);
    this.#dispatch(full);
  }

  /** To pi now if its link has room, else in line for its link's turn. */
  #dispatch(read: Read<Owner>): void {
    const link = this.#link(read.linkId);
    if (link.inPi < LINK_IN_PI) this.#start(read, link);
    else link.waiting.push(read as unknown as Read<GateOwner>);
  }

  /** Any command with an id went to pi from `owner` (reads included): that id is its own for a while. */
  noteId(owner: Owner, id: string): void {
    this.#recentIds.delete(id);
    this.#recentIds.set(id, owner.id);
    if (this.#recentIds.size > REMEMBERED_IDS) this.#recentIds.delete(this.#recentIds.keys().next().value!);
  }

  /** pi finished answering the read `id` (response-router.ts): its place goes to the next one waiting. */
  answered(id: string): void {
    const entry = this.#inFlight.get(id);
    if (entry === undefined || !entry.inPi) return;
    this.#inFlight.delete(id);
    const connection = this.#connections.get(entry.owner);
    let copy: Read<Owner> | undefined;
    if (connection !== undefined) {
      connection.outstanding--;
      copy = connection.keys.get(entry.key)?.shift() as unknown as Read<Owner> | undefined;
      if (copy === undefined) connection.keys.delete(entry.key);
    }
    const linkId = connection?.linkId ?? this.#linkOfGone.get(id);
    this.#linkOfGone.delete(id);
    if (linkId === undefined) return;
    const link = this.#links.get(linkId);
    if (link === undefined) return;
    link.inPi--;
    const next = link.waiting.shift() as unknown as Read<Owner> | undefined;
    if (next !== undefined) this.#start(next, link);
    else if (link.inPi === 0) this.#links.delete(linkId);
    // The copy held back behind the answered read goes now.
    if (copy !== undefined) this.#dispatch(copy);
  }

  /** Where the in-pi reads of browsers that left belong (their connection is forgotten). */
  readonly #linkOfGone = new Map<string, string>();

  /** The browser left: its waiting reads are dropped; those in pi keep their link's place until answered. */
  leave(owner: Owner): void {
    const connection = this.#connections.get(owner);
    if (connection === undefined) return;
    this.#connections.delete(owner);
    const link = this.#links.get(connection.linkId);
    if (link !== undefined) link.waiting = link.waiting.filter((read) => read.owner !== (owner as GateOwner));
    for (const [id, entry] of this.#inFlight) {
      if (entry.owner !== owner) continue;
      if (entry.inPi) this.#linkOfGone.set(id, connection.linkId);
      else this.#inFlight.delete(id);
    }
    if (link !== undefined && link.inPi === 0 && link.waiting.length === 0) this.#links.delete(connection.linkId);
  }

  /** pi is gone (a new child starts): no read in it will be answered, and those waiting are refused. */
  reset(): void {
    const waiting = [
      ...[...this.#links.values()].flatMap((link) => link.waiting),
      ...[...this.#connections.values()].flatMap((connection) => [...connection.keys.values()].flat()),
    ] as unknown as Read<Owner>[];
    this.#links.clear();
    this.#inFlight.clear();
    this.#linkOfGone.clear();
    for (const connection of this.#connections.values()) {
      connection.outstanding = 0;
      connection.keys.clear();
    }
    for (const read of waiting) this.#sink.refuse(read.owner, read, `pi restarted before “${read.type}” was sent; ask again`);
  }

  #start(read: Read<Owner>, link: Link): void {
    link.inPi++;
    this.#inFlight.get(read.id)!.inPi = true;
    this.#sink.send(read);
  }

  #connection(owner: Owner, role: Role, linkId: string): Connection {
    let connection = this.#connections.get(owner);
    if (connection === undefined) {
      connection = { bucket: new TokenBucket(READ_LIMITS[role].bucket, this.#now), outstanding: 0, keys: new Map(), role, linkId };
      this.#connections.set(owner, connection);
    }
    return connection;
  }

  #link(linkId: string): Link {
    let link = this.#links.get(linkId);
    if (link === undefined) {
      link = { inPi: 0, waiting: [] };
      this.#links.set(linkId, link);
    }
    return link;
  }
}
