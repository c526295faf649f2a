// The connected browsers and pi's stdout stream to each of them.
//
// Every browser has a place in the stream (see browser-client.ts). A live one
// is at the head and is sent each chunk as pi writes it (several at once when
// many browsers watch: stdout-batcher.ts); one catching up is
// sent bytes from the replay (stdout-replay.ts) from its own offset, as fast
// as its socket drains, and turns live when it reaches the head. A new
// browser starts catching up at the start of the replay: `replay_end` goes
// out right after the bytes its hello announced. Bytes waiting for the next
// batch are in neither the replay nor any browser's stream yet: they join
// both at once, so a browser arriving meanwhile gets them exactly once.
//
// Backpressure, relay → browsers. A browser's backlog is what it has not
// got yet: the bytes queued for its socket and not yet written, plus, while
// catching up, what it has not been sent. When a browser's backlog passes
// HIGH_WATER, pi's stdout is paused on its behalf (pi blocks on its stdout
// pipe, which it honours) until the backlog is under LOW_WATER: a browser
// that reads, even slowly, paces pi and misses nothing.
//
// But one browser must not hold up the others for long. While another live
// browser could take bytes, a browser pi waits for is given up on when it
// made no progress (nothing queued for it got written) for STALL_DETECT_MS,
// or when pi has waited for it STALL_LIMIT_MS in one go. pi resumes for the
// others at once, and that browser stops getting live bytes: it catches up
// from the replay as it reads, from the exact byte where its live stream
// stopped, so its byte stream stays exact and in order (only the chunk
// boundaries of what it gets from the replay may differ from pi's reads,
// which the browser's streaming JSONL decoder does not care about). It may
// make pi wait again once it reads again (or, if it was just slow, once it
// has caught up). If pi wrote more than the replay holds meanwhile, the
// bytes it needs are gone: it is closed with 4008 ("too slow") and its page
// reconnects and rebuilds from the replay, as after a reload. No frame tells
// a browser it was given up on: its stream simply goes on, later.
//
// With nobody else to hold up (a lone browser, or all of them behind), pi
// waits for a browser that reads, however slowly; one that reads nothing
// for IDLE_HOLD_LIMIT_MS (a tab nobody looks at) is given up on then, so pi
// is not stopped indefinitely.
//
// Answers to a browser's own reads (response-router.ts) are not part of the
// shared stream: writePrivate puts them in that browser's stream alone, at
// the place pi wrote them. A live browser gets them at once (after the
// batch before them); one catching up keeps them queued with that place and
// gets each when it reaches it, so it still sees pi's bytes in pi's order.
//
// Memory: the replay (--replay-bytes) plus, per browser, about HIGH_WATER of
// queued bytes, lent from the replay's storage whether live or catching up
// (catching up is sent in batches of that size): shared by every browser it
// is queued for, so a slab no longer held stays alive while queued; at most
// MAX_BACKLOG of relay frames for one that never reads before it is closed,
// and at most MAX_PRIVATE_QUEUE of its own answers while it catches up.
//
// Backpressure, browsers → pi: when pi's stdin is full, every browser socket
// is paused (ws stops reading, TCP pushes back) until stdin drains.
import type { WebSocket } from "ws";
import type { RelayFrame } from "@pier/protocol";
import { BrowserClient } from "./browser-client.ts";
import { freeChunk } from "./chunk-reclaim.ts";
import { StdoutBatcher, type BatcherOptions } from "./stdout-batcher.ts";
import type { StdoutReplay } from "./stdout-replay.ts";

export { BrowserClient } from "./browser-client.ts";

export const HIGH_WATER = 1024 * 1024;
export const LOW_WATER = 256 * 1024;
/**
 * While others could take bytes: a browser with bytes queued none of which
 * got written for this long has stopped reading, and this is how long it can
 * make the others wait. A write completes as soon as the kernel takes a
 * frame (at most a 64 KiB chunk), so a browser reading at more than ~640
 * KB/s never looks stalled. Looking stalled costs little: such a browser (a
 * slower one, or a healthy one caught in a hiccup) catches up from the
 * replay, and may make pi wait again as soon as it reads.
 */
export const STALL_DETECT_MS = 100;
/** While others could take bytes: the longest pi waits for one browser in one go, even if it reads. */
export const STALL_LIMIT_MS = 1000;
/** With nobody else waiting: how long pi waits for a browser that reads nothing. */
export const IDLE_HOLD_LIMIT_MS = 10_000;
/** Queued for a browser that never reads (relay frames only): it is closed beyond this. */
export const MAX_BACKLOG = 4 * HIGH_WATER;
export const CLOSE_TOO_SLOW = 4008;
/** Answers to its own reads queued for a browser still catching up: it is closed (and reloads) beyond this. */
export const MAX_PRIVATE_QUEUE = 32 * 1024 * 1024;
/** How long a browser closed for being too slow gets to take its backlog and the close frame before it is cut off. */
const CLOSE_GRACE_MS = 10_000;
const TOO_SLOW_REASON = "too slow: this page fell behind pi's output; reload to catch up";

/** `holds: false`: pi's stdout is never paused for a browser (pier tap: the tapped client alone paces pi); one that falls behind catches up from the replay. */
export type StdoutFlow = { pause(): void; resume(): void; holds?: boolean };

export class BrowserHub {
  readonly #replay: StdoutReplay;
  readonly #flow: StdoutFlow;
  readonly #batcher: StdoutBatcher;
  /** Every browser not closing. */
  readonly #clients = new Set<BrowserClient>();
  readonly #live = new Set<BrowserClient>();
  readonly #catchingUp = new Set<BrowserClient>();
  /** Browsers pi's stdout is paused for: it is paused while there are any. */
  readonly #holding = new Set<BrowserClient>();
  #stallTimer: NodeJS.Timeout | null = null;
  /** Since when a live browser pi is not waiting for could take bytes (null: none can). */
  #contestedSince: number | null = null;

  constructor(replay: StdoutReplay, flow: StdoutFlow, batching: BatcherOptions = {}) {
    this.#replay = replay;
    this.#flow = flow;
    this.#batcher = new StdoutBatcher(() => this.#fanOut(), batching);
  }

  get size(): number {
    return this.#clients.size;
  }

  /** Stream offset of the next byte pi writes (bytes waiting for a batch included): a command written now is echoed at or after it. */
  get streamEnd(): number {
    return this.#replay.end + this.#batcher.pendingBytes;
  }

  /** A new browser: `hello` first, then the replay, `replay_end`, and live traffic. */
  add(socket: WebSocket, hello: (client: BrowserClient) => RelayFrame): BrowserClient {
    const client = new BrowserClient(socket, (written) => this.#onWritten(written));
    this.#clients.add(client);
    client.sendFrame(hello(client));
    client.offset = this.#replay.start;
    client.replayEnd = this.#replay.end;
    this.#catchingUp.add(client);
    this.#catchUp(client);
    this.#consider(client, Date.now());
    return client;
  }

  /** The browser's socket closed. */
  remove(client: BrowserClient): void {
    this.#forget(client);
  }

  /** A relay frame whose place among pi's bytes does not matter. */
  broadcastFrame(frame: RelayFrame): void {
    const text = JSON.stringify(frame);
    for (const client of this.#clients) {
      client.sendText(text);
      if (client.inFlight > MAX_BACKLOG) this.#tooSlow(client);
    }
  }

  /**
   * A frame that belongs after every byte pi wrote so far (its child exited,
   * or a new one started). A browser still catching up cannot get it there,
   * so it is closed with 4008 and its page rebuilds from the replay.
   */
  broadcastAfterStdout(frame: RelayFrame): void {
    this.#batcher.flush();
    for (const client of this.#catchingUp) this.#tooSlow(client);
    const text = JSON.stringify(frame);
    for (const client of this.#live) client.sendText(text);
  }

  /**
   * A chunk of pi's stdout: copied into the replay's storage at once (the
   * only copy made of it), and out to every browser with the next batch. The
   * hub takes it over: its bytes are freed right after that copy
   * (chunk-reclaim.ts), so it reads as empty then.
   */
  writeStdout(chunk: Buffer): void {
    this.copyStdout(chunk);
    freeChunk(chunk);
  }

  /**
   * writeStdout for a chunk the caller still holds (pier tap: the client's
   * stream may not have written it yet): copied into the replay's storage
   * at once, like any chunk, and left as it is; the caller frees it.
   */
  copyStdout(chunk: Buffer): void {
    this.#replay.stage(chunk);
    this.#batcher.push(chunk.length);
  }

  /**
   * Bytes of pi's stdout for `client` alone (a piece of the answer to its own
   * read), placed in its stream after every shared byte pi wrote before
   * them. Not kept in the replay. Dropped when it has gone.
   */
  writePrivate(client: BrowserClient, bytes: Buffer): void {
    if (client.state === "closing") return;
    // Shared bytes pi wrote before these are in the stream first.
    this.#batcher.flush();
    // That fan-out may have closed it (too slow).
    if (!this.#clients.has(client)) return;
    if (client.state === "live") {
      client.sendBytes(bytes);
    } else {
      client.privatePieces.push({ at: this.#replay.end, bytes });
      client.privateBytes += bytes.length;
      if (client.privateBytes > MAX_PRIVATE_QUEUE) return this.#tooSlow(client);
      if (client.inFlight < LOW_WATER) this.#catchUp(client);
    }
    this.#consider(client, Date.now());
  }

  /** Sends the stdout bytes waiting for the next batch now (before the replay starts a new stream). */
  flushStdout(): void {
    this.#batcher.flush();
  }

  /** The batch of pi's stdout waiting in the replay's storage becomes part of the stream: the replay's, and every browser's. */
  #fanOut(): void {
    // Views of the replay's storage (one per slab the batch lies in): each lent until the last socket it went to has written it.
    for (const piece of this.#replay.commit()) {
      let holders = 1;
      const letGo = () => {
        if (--holders === 0) piece.giveBack();
      };
      for (const client of this.#live) if (client.sendBytes(piece.bytes, letGo)) holders++;
      letGo();
    }
    const now = Date.now();
    // After every piece: one that falls behind has the whole batch queued, and catches up from its end.
    for (const client of this.#live) this.#consider(client, now);
    if (this.#catchingUp.size === 0) return;
    const start = this.#replay.start;
    for (const client of this.#catchingUp) {
      if (client.offset < start) this.#tooSlow(client);
      else this.#consider(client, now);
    }
  }

  pauseReading(): void {
    for (const client of this.#clients) client.socket.pause();
  }

  resumeReading(): void {
    for (const client of this.#clients) client.socket.resume();
  }

  closeAll(code: number, reason: string): void {
    this.#batcher.dispose();
    for (const client of [...this.#clients]) {
      this.#forget(client);
      client.socket.close(code, reason);
    }
  }

  /** What `client` has not got yet: queued for its socket, and (catching up) not yet sent. */
  #backlog(client: BrowserClient): number {
    return client.inFlight + (client.state === "catching_up" ? this.#replay.end - client.offset + client.privateBytes : 0);
  }

  /** Its backlog grew: hold pi for it if it may, otherwise stop sending it live bytes. */
  #consider(client: BrowserClient, now: number): void {
    if (client.holdingSince !== null || this.#backlog(client) <= HIGH_WATER) return;
    if (client.mayHold === "may" && this.#flow.holds !== false) return this.#hold(client, now);
    if (client.state === "live") this.#fallBehind(client);
  }

  #hold(client: BrowserClient, now: number): void {
    client.holdingSince = now;
    this.#holding.add(client);
    if (this.#holding.size === 1) this.#flow.pause();
    this.#armStallTimer(now);
  }

  #release(client: BrowserClient): void {
    if (client.holdingSince === null) return;
    client.holdingSince = null;
    this.#holding.delete(client);
    if (this.#holding.size > 0) return this.#armStallTimer(Date.now());
    if (this.#stallTimer) clearTimeout(this.#stallTimer);
    this.#stallTimer = null;
    this.#contestedSince = null;
    this.#flow.resume();
  }

  /**
   * When pi stops waiting for `client`, unless it makes progress first, and
   * what it may do then: reading nothing, it may hold pi again once it reads;
   * reading too slowly while others wait, once it has caught up.
   */
  #deadline(client: BrowserClient): { at: number; then: "after_progress" | "after_catching_up" } {
    const contestedSince = this.#contestedSince;
    if (contestedSince === null) return { at: client.lastProgressAt + IDLE_HOLD_LIMIT_MS, then: "after_progress" };
    const stalled = client.lastProgressAt + STALL_DETECT_MS;
    const tooLong = Math.max(client.holdingSince!, contestedSince) + STALL_LIMIT_MS;
    return stalled <= tooLong ? { at: stalled, then: "after_progress" } : { at: tooLong, then: "after_catching_up" };
  }

  /** One timer, at the earliest deadline of the browsers pi waits for (re-armed whenever that may have moved). */
  #armStallTimer(now: number): void {
    if (this.#stallTimer) clearTimeout(this.#stallTimer);
    this.#stallTimer = null;
    if (this.#holding.size === 0) return;
    this.#noteContest(now);
    let next = Number.POSITIVE_INFINITY;
    for (const client of this.#holding) next = Math.min(next, this.#deadline(client).at);
    this.#stallTimer = setTimeout(() => this.#checkStalls(), Math.max(0, next - now));
  }

  /** Whether a live browser pi is not waiting for could take bytes now (pi holds it up). */
  #noteContest(now: number): void {
    let contested = false;
    for (const client of this.#live) if (client.holdingSince === null) contested = true;
    if (!contested) this.#contestedSince = null;
    else this.#contestedSince ??= now;
  }

  #checkStalls(): void {
    this.#stallTimer = null;
    const now = Date.now();
    this.#noteContest(now);
    for (const client of this.#holding) {
      const deadline = this.#deadline(client);
      if (now < deadline.at) continue;
      client.mayHold = deadline.then;
      if (client.state === "live") this.#fallBehind(client);
      this.#release(client);
    }
    this.#armStallTimer(now);
  }

  /** A live browser stops getting live bytes: it has everything up to the head queued, and catches up from there. */
  #fallBehind(client: BrowserClient): void {
    this.#live.delete(client);
    client.state = "catching_up";
    client.offset = this.#replay.end;
    this.#catchingUp.add(client);
  }

  #onWritten(client: BrowserClient): void {
    if (client.mayHold === "after_progress") client.mayHold = "may";
    if (client.state === "catching_up" && client.inFlight < LOW_WATER) this.#catchUp(client);
    // Caught up (again): it no longer needs pi to wait, and may make it wait again.
    if (client.state !== "closing" && this.#backlog(client) <= LOW_WATER) {
      client.mayHold = "may";
      this.#release(client);
    }
  }

  /** Sends a browser catching up the next bytes it needs, up to HIGH_WATER queued. */
  #catchUp(client: BrowserClient): void {
    while (client.state === "catching_up" && client.open && client.inFlight < HIGH_WATER) {
      if (client.offset === client.replayEnd) {
        client.replayEnd = null;
        client.sendFrame({ type: "replay_end" });
        continue;
      }
      const ownAnswer = client.privatePieces[0];
      if (ownAnswer !== undefined && ownAnswer.at === client.offset) {
        client.privatePieces.shift();
        client.privateBytes -= ownAnswer.bytes.length;
        client.sendBytes(ownAnswer.bytes);
        continue;
      }
      if (client.offset === this.#replay.end) {
        this.#catchingUp.delete(client);
        client.state = "live";
        this.#live.add(client);
        // One more browser that could take bytes: pi may be holding it up.
        if (this.#holding.size > 0) this.#armStallTimer(Date.now());
        return;
      }
      // Lent, not copied: browsers catching up together share the replay's bytes (stdout-replay.ts).
      const piece = this.#replay.lendPiece(client.offset, Math.min(client.replayEnd ?? Infinity, ownAnswer?.at ?? Infinity));
      if (piece === null) return this.#tooSlow(client);
      if (!client.sendBytes(piece.bytes, piece.giveBack)) piece.giveBack();
      client.offset += piece.bytes.length;
    }
  }

  /** Closed with 4008 behind whatever is queued for it; cut off if it cannot take that in time. */
  #tooSlow(client: BrowserClient): void {
    this.#forget(client);
    client.socket.close(CLOSE_TOO_SLOW, TOO_SLOW_REASON);
    setTimeout(() => client.socket.terminate(), CLOSE_GRACE_MS).unref();
  }

  #forget(client: BrowserClient): void {
    if (client.state === "closing") return;
    this.#release(client);
    client.state = "closing";
    this.#clients.delete(client);
    this.#live.delete(client);
    this.#catchingUp.delete(client);
    client.privatePieces.length = 0;
    client.privateBytes = 0;
  }
}
