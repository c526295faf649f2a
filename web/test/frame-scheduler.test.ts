import { afterEach, describe, expect, it, vi } from "vitest";
import { FrameScheduler } from "../src/lib/relay/frame-scheduler.ts";

describe("FrameScheduler", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("runs once per frame however often it is asked, in a task right after the frame, and again when asked after the run", async () => {
    vi.useFakeTimers();
    const frames: (() => void)[] = [];
    vi.stubGlobal("requestAnimationFrame", (callback: () => void) => frames.push(callback));
    vi.stubGlobal("cancelAnimationFrame", () => {});
    let runs = 0;
    const scheduler = new FrameScheduler(() => runs++);
    scheduler.schedule();
    scheduler.schedule();
    expect(frames).toHaveLength(1);
    frames[0]!();
    // Not inside the frame's callback: in a task of its own after it.
    expect(runs).toBe(0);
    expect(scheduler.scheduled).toBe(true);
    scheduler.schedule();
    expect(frames).toHaveLength(1);
    await vi.waitFor(() => expect(runs).toBe(1));
    expect(scheduler.scheduled).toBe(false);
    // The fallback timer of that frame does not run it again.
    vi.advanceTimersByTime(1000);
    expect(runs).toBe(1);
    scheduler.schedule();
    expect(frames).toHaveLength(2);
  });

  it("cancel after the frame came drops the task it posted", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const frames: (() => void)[] = [];
    vi.stubGlobal("requestAnimationFrame", (callback: () => void) => frames.push(callback));
    vi.stubGlobal("cancelAnimationFrame", () => {});
    /** Long enough for a posted message to arrive (several turns of the event loop). */
    const settle = async () => {
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    let runs = 0;
    const scheduler = new FrameScheduler(() => runs++);
    // Control: without cancel, the posted run arrives within settle().
    scheduler.schedule();
    frames[0]!();
    await settle();
    expect(runs).toBe(1);
    scheduler.schedule();
    frames[1]!();
    scheduler.cancel();
    await settle();
    vi.advanceTimersByTime(1000);
    expect(runs).toBe(1);
    expect(scheduler.scheduled).toBe(false);
  });

  it("runs by a timer when no frame comes (a hidden page)", () => {
    vi.useFakeTimers();
    vi.stubGlobal("requestAnimationFrame", () => 1);
    vi.stubGlobal("cancelAnimationFrame", () => {});
    let runs = 0;
    const scheduler = new FrameScheduler(() => runs++, 100);
    scheduler.schedule();
    vi.advanceTimersByTime(99);
    expect(runs).toBe(0);
    vi.advanceTimersByTime(1);
    expect(runs).toBe(1);
    expect(scheduler.scheduled).toBe(false);
  });

  it("without requestAnimationFrame runs in a task of its own; cancel stops it", () => {
    vi.useFakeTimers();
    let runs = 0;
    const scheduler = new FrameScheduler(() => runs++);
    scheduler.schedule();
    scheduler.cancel();
    vi.advanceTimersByTime(1000);
    expect(runs).toBe(0);
    scheduler.scheduleTask();
    vi.advanceTimersByTime(0);
    expect(runs).toBe(1);
  });
});
