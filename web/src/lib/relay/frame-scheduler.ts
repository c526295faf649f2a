// Runs a piece of work once per animation frame, however often it is asked
// for. Used to apply what arrives on the WebSocket in batches: pi can send
// thousands of records a second, and a page that applies each as it comes
// re-renders far more often than the screen can show.
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

  constructor(run: () => void, fallbackMs = FALLBACK_MS) {
    this.#run = run;
    this.#fallbackMs = fallbackMs;
  }

  get scheduled(): boolean {
    return this.#frame !== null || this.#timer !== null;
  }

  /** Run in the next animation frame (or by the timer without frames); a no-op when already scheduled. */
  schedule(): void {
    if (this.scheduled) return;
    const fire = () => {
      this.cancel();
      this.#run();
    };
    if (typeof requestAnimationFrame === "function" && !pageHidden()) this.#frame = requestAnimationFrame(fire);
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
  }
}
