// DrawnAcks: one ack per task xterm parsed in, carrying the running total.
import { describe, expect, test } from "vitest";
import { DrawnAcks } from "../src/lib/bash/drawn-acks.ts";

/** A `later` the test runs by hand, standing for "the end of this task". */
function taskEnd() {
  const queued: (() => void)[] = [];
  return { later: (then: () => void) => void queued.push(then), end: () => queued.splice(0).forEach((then) => then()), queued };
}

describe("DrawnAcks", () => {
  test("several writes drawn in one task make one ack with the total", () => {
    const sent: number[] = [];
    const task = taskEnd();
    const acks = new DrawnAcks((drawn) => sent.push(drawn), task.later);
    acks.drew(4096);
    acks.drew(4096);
    acks.drew(100);
    expect(sent).toEqual([]);
    expect(task.queued).toHaveLength(1);
    task.end();
    expect(sent).toEqual([8292]);
  });

  test("the next task's writes make the next ack, with the running total", () => {
    const sent: number[] = [];
    const task = taskEnd();
    const acks = new DrawnAcks((drawn) => sent.push(drawn), task.later);
    acks.drew(10);
    task.end();
    acks.drew(5);
    task.end();
    expect(sent).toEqual([10, 15]);
    expect(acks.drawn).toBe(15);
  });

  test("an empty write (xterm calls back for it too) sends nothing new", () => {
    const sent: number[] = [];
    const task = taskEnd();
    const acks = new DrawnAcks((drawn) => sent.push(drawn), task.later);
    acks.drew(7);
    task.end();
    acks.drew(0);
    task.end();
    expect(sent).toEqual([7]);
  });

  test("by default the ack goes after the current task's synchronous work (a microtask)", async () => {
    const sent: number[] = [];
    // A browser's queueMicrotask throws "Illegal invocation" when called as another object's method: stand for it.
    const real = globalThis.queueMicrotask;
    globalThis.queueMicrotask = function (this: unknown, then: () => void) {
      if (this !== undefined && this !== globalThis) throw new TypeError("Illegal invocation");
      real(then);
    };
    try {
      const acks = new DrawnAcks((drawn) => sent.push(drawn));
      acks.drew(1);
      acks.drew(2);
      expect(sent).toEqual([]);
      await Promise.resolve();
      expect(sent).toEqual([3]);
    } finally {
      globalThis.queueMicrotask = real;
    }
  });
});
