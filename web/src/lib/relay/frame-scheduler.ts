// Runs a piece of work once per animation frame, however often it is asked
// for. Used to apply what arrives on the WebSocket in batches: pi can send
// thousands of records a second, and a page that applies each as it comes
// re-renders far more often than the screen can show.
//
// The work runs in a task of its own right after the frame, not inside the
// frame's callback: a frame task is the callbacks plus style, layout and
// paint, and putting the work (and the Svelte update it causes) there made
// the longest task their sum (63–79 ms while 20,000 deltas stream, in
// bench/stream.bench.ts). Apart, each is a task of its own (the longest
// 32–52 ms in the same bench) and the next frame shows what the work
// changed. A MessageChannel message is that task: a timer would be clamped,
// and the frame would wait for it.
//
// requestAnimationFrame does not fire in a hidden page, nor reliably right
// after it was hidden: a timer stands in (`fallbackMs`), so the work still
// happens, just without frames. Callers that need it done at once while
// hidden (no frames will come to spread it over) can check `pageHidden()`.

/** Without frames (hidden page, a frame that does not come), run this much later anyway. */
const FALLBACK_MS = 100;

export function pageHidden(): boolean {
  return typeof document !== "undefined" && document.visibilityState === "hidden";
}

export class FrameScheduler {
  readonly #run: () => void;
  readonly #fallbackMs: number;
  #frame: number | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** The frame came and the task after it is posted. */
  #posted = false;
  #channel: MessageChannel | null = null;

  constructor(run: () => void, fallbackMs = FALLBACK_MS) {
    this.#run = run;
    this.#fallbackMs = fallbackMs;
  }

  get scheduled(): boolean {
    return this.#frame !== null || this.#timer !== null || this.#posted;
  }

  /** Run right after the next animation frame (or by the timer without frames); a no-op when already scheduled. */
  schedule(): void {
    if (this.scheduled) return;
    const fire = () => {
      this.cancel();
      this.#run();
    };
    if (typeof requestAnimationFrame === "function" && !pageHidden()) {
      this.#frame = requestAnimationFrame(() => {
        this.cancel();
        this.#postTask();
      });
    }
    this.#timer = setTimeout(fire, this.#frame === null ? 0 : this.#fallbackMs);
  }

  /** Run as soon as possible, in a task of its own (not waiting for a frame). */
  scheduleTask(): void {
    this.cancel();
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#run();
    }, 0);
  }

  cancel(): void {
    if (this.#frame !== null) cancelAnimationFrame(this.#frame);
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#frame = null;
    this.#timer = null;
    this.#posted = false;
  }

  #postTask(): void {
    if (typeof MessageChannel !== "function") return this.#run();
    if (this.#channel === null) {
      this.#channel = new MessageChannel();
      this.#channel.port1.onmessage = () => {
        // Cancelled (or already run by another path) since it was posted.
        if (!this.#posted) return;
        this.#posted = false;
        this.#run();
      };
    }
    this.#posted = true;
    this.#channel.port2.postMessage(null);
  }
}
