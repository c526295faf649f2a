// The page's alert stack (bottom corner): what went wrong or needs saying
// that no view shows where the person acted. Bounded: the oldest go first.

export interface Alert {
  id: number;
  level: "error" | "warning" | "info";
  title: string;
  message: string;
  at: number;
}

const MAX_ALERTS = 6;

export class AlertStore {
  /** Oldest first, at most MAX_ALERTS. */
  items = $state<Alert[]>([]);
  #seq = 0;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  push(level: Alert["level"], title: string, message: string): void {
    this.items.push({ id: ++this.#seq, level, title, message, at: this.#now() });
    if (this.items.length > MAX_ALERTS) this.items.splice(0, this.items.length - MAX_ALERTS);
  }

  /** One with this title and message is showing (to say a repeated thing once). */
  showing(title: string, message: string): boolean {
    return this.items.some((a) => a.title === title && a.message === message);
  }

  dismiss(id: number): void {
    const index = this.items.findIndex((a) => a.id === id);
    if (index !== -1) this.items.splice(index, 1);
  }

  clear(): void {
    this.items = [];
  }
}
