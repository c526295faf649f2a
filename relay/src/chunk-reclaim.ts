// pi's stdout arrives as one new Buffer per pipe read (up to 64 KiB, its
// bytes held outside V8's heap). Once the browsers have it written it is
// garbage (the replay keeps a copy, see stdout-replay.ts), but its bytes are
// freed only when V8 collects its young generation, and a relay streaming
// fast allocates chunks far quicker than it fills that generation with
// objects: at a few hundred MB/s, 40-70 MB of dead chunks were seen waiting,
// and the process kept that memory afterwards. So after every
// RECLAIM_EVERY_BYTES of output, and once output goes quiet, the relay asks
// V8 for a young-generation collection: a scavenge, well under a
// millisecond here, which touches nothing old.
//
// V8 offers that only with --expose-gc; set at run time, the flag exposes
// `gc` to contexts created afterwards, so one is made just to fetch it (the
// relay's own global scope does not get a `gc`). Where that is unavailable,
// nothing is collected early: memory is higher, behaviour the same.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

const RECLAIM_EVERY_BYTES = 8 * 1024 * 1024;
/** Output quiet this long after at least QUIET_MIN_BYTES: collect what it left. */
const QUIET_MS = 500;
const QUIET_MIN_BYTES = 1024 * 1024;

type Collect = (options: { type: "minor" }) => void;

function fetchCollector(): Collect | null {
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
