// A bounded copy of what pi wrote to stdout, so a browser that connects late
// (or reloads mid-answer) can rebuild the same state as one that was there
// from the start: pi sends some state unprompted (extension status, widgets,
// title) that no command can ask for again. It is also where a browser that
// fell behind catches up from (see browser-hub.ts).
//
// The chunks' boundaries are kept (pi's reads, or the batches the live
// browsers got: stdout-batcher.ts), so replayed frames are cut where live
// ones were. When the total passes `maxBytes` the oldest chunks are dropped
// and the replay is cut to start at a record boundary (just after an LF), so
// a browser never sees half a record; `truncated` then tells it to fetch
// older history with get_messages.
//
// Every byte pi writes has a stream offset, counted from the relay's start
// and never reset (a new child continues the count), so an offset names one
// byte for good: what is held is always the contiguous range [start, end).
//
// The bytes are copied into slabs that are reused, not kept as the Buffers
// pi's reads arrived in: those then die young, right after the browsers got
// them, where a young-generation collection frees them (chunk-reclaim.ts).
// Kept here for a while, they would outlive a collection or two, move to
// V8's old generation, and wait for a full collection: at a few hundred MB/s
// that was tens of MB of dead chunks.
//
// That copy is the only one the relay makes of pi's bytes. A chunk is
// staged (copied into storage after the held bytes) as soon as it is read,
// and pi's Buffer freed; when its batch goes out (stdout-batcher.ts) the
// staged bytes are committed and the live browsers are sent views of the
// slabs they lie in (commit). A batch that crosses from one slab into the
// next goes out as two frames, and the replay keeps that cut too. Before,
// a batch of several reads was copied into one Buffer and that again into
// the replay: two copies of every byte (bench/relay.bench.ts, part 3).
//
// A browser catching up is lent its pieces (lendPiece): views of the slabs,
// not copies, so browsers that connect together share one copy of the
// replay however many they are; a copy per browser was ~1 MiB each for
// those that read slowly or not at all (500 at once took the relay to
// several hundred MB). A slab with pieces out (to live or catching-up
// browsers) is not reused until they all came back: dropped from the replay
// meanwhile, it is retired, and freed when the last one comes back. No
// piece spans two slabs (commit cuts chunks where slabs end), so none is
// ever a copy.
import { freeChunk } from "./chunk-reclaim.ts";

const LF = 0x0a;
const SLAB_BYTES = 256 * 1024;

/** A piece of the replay lent to a socket: `giveBack` once the socket is done with it (written or failed). */
export type LentPiece = { bytes: Buffer; giveBack: () => void };

export class StdoutReplay {
  readonly maxBytes: number;
  /** Storage of the held bytes, in stream order: byte 0 of #slabs[0] is stream offset #base. */
  #slabs: Buffer[] = [];
  #spareSlabs: Buffer[] = [];
  /** Slabs with pieces lent out → how many: not reused until they are all back. */
  readonly #lent = new Map<Buffer, number>();
  /** Lent slabs the replay no longer holds: freed when their last piece comes back. */
  readonly #retired = new Set<Buffer>();
  #base = 0;
  /** Stream offset where each held chunk starts, from index #boundsHead on. */
  #bounds: number[] = [];
  #boundsHead = 0;
  #start = 0;
  #end = 0;
  /** Bytes written to storage after #end that are not part of the stream yet (stage, commit). */
  #staged = 0;
  #truncated = false;
  /** The stored bytes ended inside a dropped record: skip to its end. */
  #skipToLf = false;

  constructor(maxBytes: number) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError("maxBytes must be a non-negative integer");
    this.maxBytes = maxBytes;
  }

  get bytes(): number {
    return this.#end - this.#start;
  }

  /** True once anything written by this child has been dropped. */
  get truncated(): boolean {
    return this.#truncated;
  }

  /** Stream offset of the first byte held. */
  get start(): number {
    return this.#start;
  }

  /** Stream offset just past the last byte pi wrote (held or not). */
  get end(): number {
    return this.#end;
  }

  /** The held chunks (copies), as pi's reads cut them. */
  get chunks(): Buffer[] {
    const chunks: Buffer[] = [];
    for (let i = this.#boundsHead; i < this.#bounds.length; i++) {
      chunks.push(this.#copy(this.#bounds[i]!, this.#bounds[i + 1] ?? this.#end));
    }
    return chunks;
  }

  /** Bytes staged and not committed yet. */
  get staged(): number {
    return this.#staged;
  }

  /** `chunk` joins the stream at once, kept as one chunk (or one per slab it lies in). */
  append(chunk: Buffer): void {
    this.stage(chunk);
    for (const piece of this.commit()) piece.giveBack();
  }

  /**
   * Copies `chunk` into storage after what is already staged; the caller may
   * free it then. Staged bytes are not part of the stream (nor the replay)
   * until commit.
   */
  stage(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.#write(this.#end + this.#staged - this.#base, chunk);
    this.#staged += chunk.length;
  }

  /**
   * The staged bytes join the stream, as one chunk per slab they lie in
   * (a batch crossing into the next slab is two), and are lent out as views
   * of the slabs, one piece per chunk: what the live browsers are sent.
   * Give each back once every socket it went to is done with it.
   */
  commit(): LentPiece[] {
    if (this.#staged === 0) return [];
    const from = this.#end;
    const to = from + this.#staged;
    this.#staged = 0;
    const cuts: number[] = [];
    for (let at = from; at < to; at += SLAB_BYTES - ((at - this.#base) % SLAB_BYTES)) cuts.push(at);
    const pieces = cuts.map((at, i) => this.#lendView(at, cuts[i + 1] ?? to));
    this.#end = to;
    // Held from here: all of it, or (the stored bytes ended inside a dropped record) from the end of that record.
    let held = from;
    if (this.#skipToLf) {
      const lf = this.#indexOfLf(from);
      held = lf === -1 ? to : lf + 1;
      this.#skipToLf = lf === -1;
    }
    if (this.#bounds.length === this.#boundsHead) this.#start = held;
    if (held < to && !cuts.includes(held)) this.#bounds.push(held);
    for (const at of cuts) if (at >= held) this.#bounds.push(at);
    if (this.bytes > this.maxBytes) this.#trim();
    this.#releaseBeforeStart();
    return pieces;
  }

  /**
   * The held bytes from `offset` up to `limit` (default: the end) that pi
   * read as one chunk, as a copy: the first piece may be the tail of a chunk,
   * so boundaries match pi's reads again from the next chunk on. null when
   * `offset` is no longer held (dropped by the bound or by a new child) or
   * is not below `limit`.
   */
  pieceAt(offset: number, limit = this.#end): Buffer | null {
    const stop = Math.min(limit, this.#end);
    if (offset < this.#start || offset >= stop) return null;
    return this.#copy(offset, Math.min(stop, this.#nextBound(offset)));
  }

  /**
   * pieceAt's piece, lent rather than copied: a view of the replay's
   * storage. Its bytes stay as they are until `giveBack` is called, however
   * the replay moves on meanwhile.
   */
  lendPiece(offset: number, limit = this.#end): LentPiece | null {
    const stop = Math.min(limit, this.#end);
    if (offset < this.#start || offset >= stop) return null;
    const to = Math.min(stop, this.#nextBound(offset));
    // Never across two slabs: a chunk ends where its slab does (commit).
    return this.#lendView(offset, to);
  }

  /** A view of stored bytes [from, to), which lie in one slab: that slab is not reused until it is given back. */
  #lendView(from: number, to: number): LentPiece {
    const position = from - this.#base;
    const slab = this.#slabs[Math.floor(position / SLAB_BYTES)]!;
    const within = position % SLAB_BYTES;
    this.#lent.set(slab, (this.#lent.get(slab) ?? 0) + 1);
    let back = false;
    const giveBack = () => {
      if (back) return;
      back = true;
      this.#giveBack(slab);
    };
    return { bytes: slab.subarray(within, within + (to - from)), giveBack };
  }

  /** How many slabs have pieces out (tests: every piece lent must come back). */
  get slabsLent(): number {
    return this.#lent.size;
  }

  #giveBack(slab: Buffer): void {
    const count = (this.#lent.get(slab) ?? 1) - 1;
    if (count > 0) return void this.#lent.set(slab, count);
    this.#lent.delete(slab);
    // Retired while lent: nothing reads it any more.
    if (this.#retired.delete(slab)) freeChunk(slab);
  }

  /** A slab the replay no longer holds goes back to the spares, unless pieces of it are out (then it is retired). */
  #release(slab: Buffer): void {
    if (this.#lent.has(slab)) this.#retired.add(slab);
    else this.#spareSlabs.push(slab);
  }

  /** Stream offset where the chunk after the one holding `offset` starts (the end when it is the last). */
  #nextBound(offset: number): number {
    let low = this.#boundsHead;
    let high = this.#bounds.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.#bounds[mid]! <= offset) low = mid + 1;
      else high = mid;
    }
    return this.#bounds[low] ?? this.#end;
  }

  /** A new child starts a new stream (its offsets continue from here); storage starts afresh. Commit what is staged first. */
  clear(): void {
    for (const slab of this.#slabs) this.#release(slab);
    this.#slabs = [];
    this.#staged = 0;
    this.#bounds = [];
    this.#boundsHead = 0;
    this.#start = this.#base = this.#end;
    this.#truncated = false;
    this.#skipToLf = false;
  }

  /** clear(), and the storage goes back to the system too (kept as spares, a sleeping session would hold them for nothing). */
  clearAndFree(): void {
    this.clear();
    for (const slab of this.#spareSlabs) freeChunk(slab);
    this.#spareSlabs = [];
  }

  /** Nothing held any more (storage goes on where it is: staged bytes may follow). */
  #dropAll(): void {
    this.#bounds = [];
    this.#boundsHead = 0;
    this.#start = this.#end;
  }

  /** Slabs wholly before the start go back to the spares (or are retired while lent). */
  #releaseBeforeStart(): void {
    while (this.#start - this.#base >= SLAB_BYTES) {
      this.#release(this.#slabs.shift()!);
      this.#base += SLAB_BYTES;
    }
  }

  #write(position: number, data: Buffer): void {
    let done = 0;
    while (done < data.length) {
      const index = Math.floor(position / SLAB_BYTES);
      while (this.#slabs.length <= index) this.#slabs.push(this.#spareSlabs.pop() ?? Buffer.allocUnsafeSlow(SLAB_BYTES));
      const within = position % SLAB_BYTES;
      const copied = data.copy(this.#slabs[index]!, within, done, Math.min(data.length, done + SLAB_BYTES - within));
      done += copied;
      position += copied;
    }
  }

  #copy(from: number, to: number): Buffer {
    const piece = Buffer.allocUnsafe(to - from);
    let done = 0;
    let position = from - this.#base;
    while (done < piece.length) {
      const slab = this.#slabs[Math.floor(position / SLAB_BYTES)]!;
      const within = position % SLAB_BYTES;
      const copied = slab.copy(piece, done, within, Math.min(SLAB_BYTES, within + piece.length - done));
      done += copied;
      position += copied;
    }
    return piece;
  }

  #byteAt(offset: number): number {
    const position = offset - this.#base;
    return this.#slabs[Math.floor(position / SLAB_BYTES)]![position % SLAB_BYTES]!;
  }

  /** Stream offset of the first LF at or after `from` among the held bytes, or -1. */
  #indexOfLf(from: number): number {
    let position = from - this.#base;
    const stop = this.#end - this.#base;
    while (position < stop) {
      const index = Math.floor(position / SLAB_BYTES);
      const within = position % SLAB_BYTES;
      const length = Math.min(SLAB_BYTES - within, stop - position);
      const found = this.#slabs[index]!.subarray(within, within + length).indexOf(LF);
      if (found !== -1) return this.#base + position + found;
      position += length;
    }
    return -1;
  }

  #trim(): void {
    this.#truncated = true;
    // Drop whole chunks while over the bound.
    let cut = this.#start;
    while (this.#end - cut > this.maxBytes) {
      this.#boundsHead++;
      cut = this.#bounds[this.#boundsHead] ?? this.#end;
    }
    if (this.#byteAt(cut - 1) !== LF) {
      // The new head starts inside a record: cut up to the next LF.
      const lf = this.#indexOfLf(cut);
      if (lf === -1) {
        this.#skipToLf = true;
        return this.#dropAll();
      }
      cut = lf + 1;
      while (this.#boundsHead + 1 < this.#bounds.length && this.#bounds[this.#boundsHead + 1]! <= cut) this.#boundsHead++;
      if (cut < this.#end) this.#bounds[this.#boundsHead] = cut;
    }
    if (cut === this.#end) return this.#dropAll();
    this.#start = cut;
    // Compact the bounds now and then rather than shifting on every drop.
    if (this.#boundsHead > 1024 && this.#boundsHead * 2 > this.#bounds.length) {
      this.#bounds = this.#bounds.slice(this.#boundsHead);
      this.#boundsHead = 0;
    }
  }
}
