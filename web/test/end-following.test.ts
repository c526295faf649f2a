import { afterEach, describe, expect, it, vi } from "vitest";
import { EndFollowing } from "../src/lib/stick-to-end.ts";
import { INTENT_WINDOW_MS } from "../src/lib/transcript/follow.ts";

/** An EndFollowing whose decisions are collected, at a clock the test moves. */
function follower(nearPx = 24) {
  let now = 1000;
  vi.spyOn(performance, "now").mockImplementation(() => now);
  const decisions: boolean[] = [];
  const following = new EndFollowing((on) => decisions.push(on), nearPx);
  return { following, decisions, advance: (ms: number) => (now += ms) };
}

const wheel = (deltaY: number) => ({ deltaY }) as WheelEvent;

describe("EndFollowing", () => {
  afterEach(() => vi.restoreAllMocks());

  it("leaves the end as soon as the wheel turns up, before anything scrolls", () => {
    const { following, decisions } = follower();
    following.wheel(wheel(-100));
    expect(decisions).toEqual([false]);
  });

  it("does not leave it for a wheel turned down", () => {
    const { following, decisions } = follower();
    following.wheel(wheel(100));
    expect(decisions).toEqual([]);
  });

  it("leaves it when the person scrolls up by any amount, even near the end", () => {
    const { following, decisions } = follower();
    following.scrolled(1000, () => 0);
    following.input();
    following.scrolled(995, () => 5);
    expect(decisions).toEqual([false]);
  });

  it("rejoins it when the person scrolls back near the end, not before", () => {
    const { following, decisions } = follower();
    following.input();
    following.scrolled(500, () => 400);
    following.scrolled(850, () => 50);
    following.scrolled(890, () => 10);
    expect(decisions).toEqual([true]);
  });

  it("is changed by no scroll the person did not make: layout, growth, its own sticking", () => {
    const { following, decisions, advance } = follower();
    const gap = vi.fn(() => 0);
    following.scrolled(1000, gap);
    following.scrolled(400, gap);
    following.input();
    advance(INTENT_WINDOW_MS + 1);
    following.scrolled(100, gap);
    expect(decisions).toEqual([]);
    expect(gap).not.toHaveBeenCalled();
  });
});
