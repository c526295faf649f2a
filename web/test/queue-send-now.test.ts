// "Send now" for what waits in pi's queue: what it sends after clear_queue.
// That pi runs it in order is proven against real pi in queue-after-abort.contract.test.ts.
import { describe, expect, it } from "vitest";
import { sendNowCommands } from "../src/lib/controls/queue.ts";

describe("sendNowCommands", () => {
  it("prompts the first steer last, after putting the other messages back as what they were", () => {
    expect(sendNowCommands({ steering: ["s1", "s2"], followUp: ["f1"] })).toEqual([
      { type: "steer", message: "s2" },
      { type: "follow_up", message: "f1" },
      { type: "prompt", message: "s1" },
    ]);
  });

  it("with only follow-ups, the first one is the prompt", () => {
    expect(sendNowCommands({ followUp: ["f1", "f2"] })).toEqual([
      { type: "follow_up", message: "f2" },
      { type: "prompt", message: "f1" },
    ]);
  });

  it("sends nothing when nothing was queued", () => {
    expect(sendNowCommands({ steering: [], followUp: [] })).toEqual([]);
    expect(sendNowCommands({})).toEqual([]);
  });
});
