// pi's stdout arrives as one new Buffer per pipe read (up to 64 KiB, its
// bytes held outside V8's heap, in malloc's). Each is copied into the
// replay's storage as soon as it is read (stdout-replay.ts: the browsers are
// sent views of that copy), and is garbage from then on; but V8 frees its
// bytes only when it collects the Buffer, and a relay streaming fast makes
// them far quicker than it fills V8's young generation with objects: tens of
// MB of dead chunks were seen waiting. And whatever waits sets the relay's
// RSS for good: malloc's heap keeps the size it once grew to.
//
// So the relay frees each of them itself (freeChunk) as soon as nothing can
// read it any more: pi's reads right after that copy, the replay's slabs
// once dropped and given back by every socket they were lent to. Its
// ArrayBuffer is detached, which frees the bytes at once. Handing a chunk to
// the hub (BrowserHub.writeStdout) hands it over: it reads as empty
// afterwards. Over 1 GB streams with a stalled viewer (bench/relay.bench.ts)
// freeing chunks once written took malloc's heap from ~35 MB to ~15 MB and
// the relay's peak RSS from ~107-113 MB to ~88-92 MB, at no extra CPU;
// collecting young garbage twice as often instead got ~93 MB for ~5% more.
//
// What is left to V8 (a Buffer that is not all of its ArrayBuffer, one a
// socket never called back for) is still reclaimed young: after every
// RECLAIM_EVERY_BYTES of output, and once output goes quiet, the relay asks
// V8 for a young-generation collection: a scavenge, well under a
// millisecond here, which touches nothing old.
//
// V8 offers that only with --expose-gc; set at run time, the flag exposes
// `gc` to contexts created afterwards, so one is made just to fetch it (the
// relay's own global scope does not get a `gc`). Once per process: a context
// is a whole realm (every builtin, its maps and code), ~0.3 MB of heap that
// lives as long as the `gc` taken from it, so one per session made each
// sleeping session cost that. Where that is unavailable, nothing is
// collected early: memory is higher, behaviour the same.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

const RECLAIM_EVERY_BYTES = 8 * 1024 * 1024;
/** Output quiet this long after at least QUIET_MIN_BYTES: collect what it left. */
const QUIET_MS = 500;
const QUIET_MIN_BYTES = 1024 * 1024;

type Collect = (options: { type: "minor" }) => void;

let collector: Collect | null | undefined;

/** The process's one `gc`, fetched on first use (null where V8 will not give it). */
function fetchCollector(): Collect | null {
  if (collector === undefined) collector = makeCollector();
  return collector;
}

function makeCollector(): Collect | null {
  try {
    // The young generation stays at its starting size (1 MB halves): the
    // relay's young objects are per-chunk bookkeeping that dies within a
    // write, so a larger one would only let more dead chunks wait.
    setFlagsFromString("--semi-space-growth-factor=1");
    setFlagsFromString("--expose-gc");
    const gc: unknown = runInNewContext("typeof gc === 'function' ? gc : null");
    return typeof gc === "function" ? (gc as Collect) : null;
  } catch {
    return null;
  }
}

type Transferable = ArrayBuffer & { transfer(length: number): ArrayBuffer };

/**
 * Frees `chunk`'s bytes now; it reads as empty afterwards. Only for a chunk
 * nothing will read again, and only a Buffer that is all of its ArrayBuffer
 * (pi's reads and the relay's copies are; a small Buffer out of Node's
 * shared pool is not, and is left to the collector).
 */
export function freeChunk(chunk: Buffer): void {
  const store = chunk.buffer;
  if (chunk.byteLength === 0 || chunk.byteOffset !== 0 || chunk.byteLength !== store.byteLength || !(store instanceof ArrayBuffer)) return;
  try {
    // Transferred to an empty ArrayBuffer, this one is detached and its backing store freed.
    (store as Transferable).transfer(0);
  } catch {
    // Not detachable (none of the relay's are): the collector frees it.
  }
}

export class ChunkReclaim {
  #collect: Collect | null = fetchCollector();
  #bytesSince = 0;
  #quietTimer: NodeJS.Timeout | null = null;

  /** `bytes` more of pi's output were read. */
  noteChunk(bytes: number): void {
    if (this.#collect === null) return;
    this.#bytesSince += bytes;
    if (this.#bytesSince >= RECLAIM_EVERY_BYTES) return this.#reclaim();
    if (this.#bytesSince < QUIET_MIN_BYTES) return;
    if (this.#quietTimer === null) {
      this.#quietTimer = setTimeout(() => this.#reclaim(), QUIET_MS);
      this.#quietTimer.unref();
    } else {
      this.#quietTimer.refresh();
    }
  }

  #reclaim(): void {
    if (this.#quietTimer !== null) clearTimeout(this.#quietTimer);
    this.#quietTimer = null;
    this.#bytesSince = 0;
    this.#collect?.({ type: "minor" });
  }
}
