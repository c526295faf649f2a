// The last `capacity` bytes a shell printed, for a browser that attaches
// later (a reload, a second browser): one fixed buffer written round, so its
// memory is the capacity whatever the shell prints, and a chunk costs a copy,
// not an allocation that lives on.
export class Scrollback {
  readonly #ring: Buffer;
  /** Where the next byte goes. */
  #end = 0;
  #length = 0;

  constructor(capacity: number) {
    this.#ring = Buffer.alloc(capacity);
  }

  get length(): number {
    return this.#length;
  }

  push(chunk: Buffer): void {
    const capacity = this.#ring.length;
    // Only the tail of a chunk larger than the ring can survive.
    const data = chunk.length > capacity ? chunk.subarray(chunk.length - capacity) : chunk;
    const first = Math.min(data.length, capacity - this.#end);
    data.copy(this.#ring, this.#end, 0, first);
    data.copy(this.#ring, 0, first);
    this.#end = (this.#end + data.length) % capacity;
    this.#length = Math.min(capacity, this.#length + data.length);
  }

  /**
   * A copy of what is kept, oldest first. Once the ring has wrapped it starts
   * after the first line break in its first 4 KiB, so a reattached terminal
   * does not begin inside an escape sequence or a UTF-8 character.
   */
  snapshot(): Buffer {
    const capacity = this.#ring.length;
    const start = (this.#end - this.#length + capacity) % capacity;
    const bytes = start + this.#length <= capacity ? Buffer.from(this.#ring.subarray(start, start + this.#length)) : Buffer.concat([this.#ring.subarray(start), this.#ring.subarray(0, this.#end)]);
    if (this.#length < capacity) return bytes;
    const newline = bytes.subarray(0, 4096).indexOf(0x0a);
    return newline === -1 ? bytes : bytes.subarray(newline + 1);
  }
}
