// At most one announcement per key per window, carrying the latest value.
//
// A person's rename (or a driver's focus) goes to every browser in the room:
// 3,000 renames in a loop sent 3,000 presence frames to each of them. Only
// the latest matters, so the first change goes out at once and the changes
// within the next WINDOW_MS go out as one, when the window ends, with the
// value as it is then (`announce` reads it when it runs).

export const WINDOW_MS = 200;

export class Coalescer<Key> {
  readonly #windowMs: number;
  /** Keys with a window open: what to announce when it ends (null: nothing changed since). */
  readonly #open = new Map<Key, { timer: NodeJS.Timeout; announce: (() => void) | null }>();

  constructor(windowMs = WINDOW_MS) {
    this.#windowMs = windowMs;
  }

  /** `key` changed: `announce` runs now, or once when the current window for `key` ends. */
  changed(key: Key, announce: () => void): void {
    const open = this.#open.get(key);
    if (open !== undefined) {
      open.announce = announce;
      return;
    }
    announce();
    this.#openWindow(key);
  }

  /** `key` is gone (its browser left): nothing more is announced for it. */
  forget(key: Key): void {
    const open = this.#open.get(key);
    if (open === undefined) return;
    clearTimeout(open.timer);
    this.#open.delete(key);
  }

  dispose(): void {
    for (const key of [...this.#open.keys()]) this.forget(key);
  }

  #openWindow(key: Key): void {
    const timer = setTimeout(() => {
      const open = this.#open.get(key);
      this.#open.delete(key);
      if (open?.announce) {
        open.announce();
        // Still changing: the next changes wait for the next window.
        this.#openWindow(key);
      }
    }, this.#windowMs);
    timer.unref();
    this.#open.set(key, { timer, announce: null });
  }
}
