// A token bucket: `capacity` actions at once, then `perSecond` more each
// second. What one browser connection may ask of the relay (its reads,
// its pier.* requests) is metered with one, so a broken or hostile page
// spends its own budget, not pi's time or the other browsers' bandwidth.

export type BucketLimits = { capacity: number; perSecond: number };

export class TokenBucket {
  readonly #limits: BucketLimits;
  readonly #now: () => number;
  #tokens: number;
  #at: number;

  constructor(limits: BucketLimits, now: () => number = () => performance.now()) {
    this.#limits = limits;
    this.#now = now;
    this.#tokens = limits.capacity;
    this.#at = now();
  }

  /** Takes one token if there is one (true), else leaves the bucket as it was (false). */
  take(): boolean {
    const now = this.#now();
    const { capacity, perSecond } = this.#limits;
    this.#tokens = Math.min(capacity, this.#tokens + ((now - this.#at) / 1000) * perSecond);
    this.#at = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

/** Budget of one connection's pier.* requests (introduce, suggest, focus…): a page sends a few a minute. */
export const REQUEST_BUCKET: BucketLimits = { capacity: 30, perSecond: 5 };

/** A token bucket per connection, forgotten with it. */
export class RequestLimiter {
  readonly #buckets = new WeakMap<object, TokenBucket>();
  readonly #limits: BucketLimits;

  constructor(limits: BucketLimits = REQUEST_BUCKET) {
    this.#limits = limits;
  }

  /** May `connection` make one more request now? */
  take(connection: object): boolean {
    let bucket = this.#buckets.get(connection);
    if (bucket === undefined) {
      bucket = new TokenBucket(this.#limits);
      this.#buckets.set(connection, bucket);
    }
    return bucket.take();
  }
}
