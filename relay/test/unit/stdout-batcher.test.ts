// The batcher's timing against a clock the test moves: a fan-out "takes" as
// long as the test says, and timers are fake.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_BATCH_BYTES, MAX_WAIT_MS, MIN_SPACING_MS, MIN_WAIT_MS, SPACING, StdoutBatcher, type BatcherOptions } from "../../src/stdout-batcher.ts";

/** `fanOutMs`: how long each fan-out takes. SPACING's own tests set `minSpacingMs: 0` to see it alone. */
function setup(fanOutMs: number, options: BatcherOptions = {}) {
  const clock = { ms: 1000 };
  const batches: string[] = [];
  /** What the batcher counts as waiting: the replay holds these bytes (staged) in the relay. */
  let staged = "";
  const batcher = new StdoutBatcher(
    () => {
      batches.push(staged);
      staged = "";
      clock.ms += fanOutMs;
    },
    { now: () => clock.ms, ...options },
  );
  /** Time passes: the clock and the timers alike. */
  const wait = (ms: number) => {
    clock.ms += ms;
    vi.advanceTimersByTime(ms);
  };
  const push = (text: string) => {
    staged += text;
    batcher.push(Buffer.byteLength(text));
  };
  return { batcher, batches, clock, wait, push };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("StdoutBatcher", () => {
  it("sends a chunk after a quiet moment at once, and what comes within MIN_SPACING_MS of a fan-out together, however cheap it was", () => {
    const { batches, push, wait } = setup(0.001);
    push("a");
    expect(batches).toEqual(["a"]);
    push("b");
    wait(1);
    push("c");
    wait(MIN_SPACING_MS - 1.5);
    expect(batches).toEqual(["a"]);
    wait(0.5);
    expect(batches).toEqual(["a", "bc"]);
    // Quiet for longer than the spacing: the next chunk goes at once.
    wait(MIN_SPACING_MS + 1);
    push("d");
    expect(batches).toEqual(["a", "bc", "d"]);
  });

  it("sends every chunk at once, as it came, while fanning out is cheap and no floor is set (the wait would be under MIN_WAIT_MS)", () => {
    const { batches, push } = setup((MIN_WAIT_MS / SPACING) * 0.9, { minSpacingMs: 0 });
    for (const text of ["a", "b", "c"]) push(text);
    expect(batches).toEqual(["a", "b", "c"]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("waits SPACING times as long as a fan-out took when that is longer than the floor", () => {
    const { batches, push, wait } = setup(1, { minSpacingMs: 0 });
    push("a");
    expect(batches).toEqual(["a"]);
    // The fan-out took 1 ms: the next one comes SPACING ms after it ended.
    push("b");
    wait(1);
    push("c");
    expect(batches).toEqual(["a"]);
    wait(SPACING * 1 - 1);
    expect(batches).toEqual(["a", "bc"]);
    // Quiet for longer than the spacing: the next chunk goes at once.
    wait(SPACING * 1 + 1);
    push("d");
    expect(batches).toEqual(["a", "bc", "d"]);
  });

  it("never keeps a chunk waiting longer than MAX_WAIT_MS, however long a fan-out took", () => {
    const { batches, push, wait } = setup(50);
    push("a");
    push("b");
    wait(MAX_WAIT_MS - 0.5);
    expect(batches).toEqual(["a"]);
    wait(0.5);
    expect(batches).toEqual(["a", "b"]);
  });

  it("sends a batch as soon as it reaches MAX_BATCH_BYTES", () => {
    const { batches, batcher, push } = setup(1);
    push("a");
    const big = "x".repeat(MAX_BATCH_BYTES / 2);
    push(big);
    expect(batches.length).toBe(1);
    push(big);
    expect(batches).toEqual(["a", big + big]);
    expect(batcher.pendingBytes).toBe(0);
  });

  it("flush() sends what is pending at once and leaves no timer behind; dispose() drops it", () => {
    const { batches, batcher, push, wait } = setup(1);
    push("a");
    push("b");
    batcher.flush();
    expect(batches).toEqual(["a", "b"]);
    batcher.flush();
    expect(batches).toEqual(["a", "b"]);
    expect(vi.getTimerCount()).toBe(0);
    push("c");
    expect(vi.getTimerCount()).toBe(1);
    batcher.dispose();
    wait(MAX_WAIT_MS);
    expect(batches).toEqual(["a", "b"]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("ignores empty chunks", () => {
    const { batches, push, wait } = setup(0);
    push("");
    wait(MAX_WAIT_MS);
    expect(batches).toEqual([]);
  });
});
