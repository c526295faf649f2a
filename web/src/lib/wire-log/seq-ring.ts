// A value per record seq, for the newest `capacity` seqs: what the inspector
// remembers about each record the record log holds (what it did, for
// instance), in O(1) per record and bounded like the log itself. A seq that
// fell out (a newer one took its slot) simply has no value any more.

export class SeqRing<T> {
  readonly capacity: number;
  readonly #seqs: number[];
  readonly #values: (T | undefined)[];

  constructor(capacity: number) {
    this.capacity = Math.max(1, Math.floor(capacity));
    this.#seqs = new Array<number>(this.capacity).fill(-1);
    this.#values = new Array<T | undefined>(this.capacity).fill(undefined);
  }

  set(seq: number, value: T): void {
    const slot = seq % this.capacity;
    this.#seqs[slot] = seq;
    this.#values[slot] = value;
  }

  get(seq: number): T | undefined {
    const slot = seq % this.capacity;
    return this.#seqs[slot] === seq ? this.#values[slot] : undefined;
  }

  clear(): void {
    this.#seqs.fill(-1);
    this.#values.fill(undefined);
  }
}
