import { afterEach, describe, expect, it, vi } from "vitest";
import { FrameScheduler } from "../src/lib/relay/frame-scheduler.ts";

describe("FrameScheduler", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("runs once per frame however often it is asked, and again when asked after the run", () => {
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
    expect(runs).toBe(1);
    // The fallback timer of that frame does not run it again.
    vi.advanceTimersByTime(1000);
    expect(runs).toBe(1);
    scheduler.schedule();
    expect(frames).toHaveLength(2);
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
