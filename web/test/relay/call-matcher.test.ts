import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CallMatcher, localFailure } from "../../src/lib/relay/call-matcher.ts";
import type { RpcResponse } from "../../src/lib/pi-types.ts";

const ok = (command: string): RpcResponse => ({ type: "response", command, success: true }) as RpcResponse;

describe("call matcher", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("answers a waiting call with its response, once", async () => {
    const calls = new CallMatcher();
    const answer = calls.wait("c:1", "get_state", 30_000);
    expect(calls.has("c:1")).toBe(true);
    calls.settle("c:1", ok("get_state"));
    calls.settle("c:1", localFailure("get_state", "too late"));
    await expect(answer).resolves.toEqual(ok("get_state"));
    expect(calls.has("c:1")).toBe(false);
  });

  it("times a call out with a failure that says how long it waited, and ignores an answer after that", async () => {
    const calls = new CallMatcher();
    const answer = calls.wait("c:1", "prompt", 2_000);
    vi.advanceTimersByTime(1_999);
    expect(calls.has("c:1")).toBe(true);
    vi.advanceTimersByTime(1);
    await expect(answer).resolves.toEqual(localFailure("prompt", "pi did not answer within 2 s."));
    expect(calls.has("c:1")).toBe(false);
    calls.settle("c:1", ok("prompt")); // no effect, no throw
  });

  it("fails every waiting call on a disconnect, with the reason, and their timers no longer fire", async () => {
    const calls = new CallMatcher();
    const a = calls.wait("c:1", "get_state", 5_000);
    const b = calls.wait("c:2", "bash", 5_000);
    calls.failAll("The connection to the relay closed before pi answered.");
    await expect(a).resolves.toEqual(localFailure("get_state", "The connection to the relay closed before pi answered."));
    await expect(b).resolves.toEqual(localFailure("bash", "The connection to the relay closed before pi answered."));
    expect(vi.getTimerCount()).toBe(0);
  });

  it("takes the relay's refusal of a waiting call as its answer", async () => {
    const calls = new CallMatcher();
    const answer = calls.wait("c:1", "set_model", 5_000);
    expect(calls.refuse("c:9", "set_model", "nope")).toBe(false);
    expect(calls.refuse("c:1", "set_model", "Viewers cannot")).toBe(true);
    await expect(answer).resolves.toEqual(localFailure("set_model", "Viewers cannot"));
  });

  it("remembers failed calls so that a late refusal of one is recognized once, and only the most recent 64", () => {
    const calls = new CallMatcher();
    for (let i = 1; i <= 100; i++) void calls.wait(`c:${i}`, "get_state", 5_000);
    calls.failAll("pi exited before answering.");
    expect(calls.takeAbandoned("c:36")).toBe(false);
    expect(calls.takeAbandoned("c:37")).toBe(true);
    expect(calls.takeAbandoned("c:37")).toBe(false);
    expect(calls.takeAbandoned("c:100")).toBe(true);
    calls.forgetAbandoned();
    expect(calls.takeAbandoned("c:99")).toBe(false);
  });

  it("refuses to wait twice on one id", () => {
    const calls = new CallMatcher();
    void calls.wait("c:1", "get_state", 5_000);
    expect(() => calls.wait("c:1", "get_state", 5_000)).toThrow(/already waiting/);
  });
});
