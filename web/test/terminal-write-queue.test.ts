// TerminalWriteQueue: xterm is given a bounded amount at a time, so that a
// reattach can drop what a cut-off socket left waiting instead of drawing it,
// stale, after the terminal's reset.
import { describe, expect, test } from "vitest";
import { TerminalWriteQueue, type TerminalWriter } from "../src/lib/bash/terminal-write-queue.ts";

/** Stands for xterm: keeps what it is given, in order, and parses it when the test says (as xterm does, in later tasks). */
function fakeTerminal() {
  const given: { text: string; parsed: () => void }[] = [];
  const screen: string[] = [];
  const writer: TerminalWriter = {
    write: (data, parsed) => void given.push({ text: typeof data === "string" ? data : new TextDecoder().decode(data), parsed }),
  };
  /** Parses the oldest `count` writes given (all by default). */
  const parse = (count = Infinity) => {
    for (let n = 0; n < count && given.length > 0; n++) {
      const write = given.shift()!;
      screen.push(write.text);
      write.parsed();
    }
  };
  /** Parses until nothing is left given, including what parsing lets through. */
  const parseAll = () => {
    while (given.length > 0) parse();
  };
  return { writer, given, screen, parse, parseAll, reset: () => void screen.push("<reset>") };
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe("TerminalWriteQueue", () => {
  test("output goes to the terminal in order, each write's callback once it is parsed", () => {
    const terminal = fakeTerminal();
    const queue = new TerminalWriteQueue(terminal.writer, 100);
    const drawn: string[] = [];
    for (const text of ["a", "b", "c"]) queue.output(bytes(text), () => drawn.push(text));
    expect(terminal.given.map((write) => write.text)).toEqual(["a", "b", "c"]);
    expect(drawn).toEqual([]);
    terminal.parse(2);
    expect(drawn).toEqual(["a", "b"]);
    terminal.parseAll();
    expect(terminal.screen).toEqual(["a", "b", "c"]);
    expect(drawn).toEqual(["a", "b", "c"]);
  });

  test("at most the limit is handed over at a time; the rest waits and follows as the terminal parses", () => {
    const terminal = fakeTerminal();
    const queue = new TerminalWriteQueue(terminal.writer, 10);
    for (const text of ["1234", "5678", "90ab", "cdef"]) queue.output(bytes(text), () => {});
    expect(terminal.given.map((write) => write.text)).toEqual(["1234", "5678"]);
    expect(queue.waitingBytes).toBe(8);
    terminal.parse(1);
    expect(terminal.given.map((write) => write.text)).toEqual(["5678", "90ab"]);
    terminal.parseAll();
    expect(terminal.screen.join("")).toBe("1234567890abcdef");
    expect(queue.waitingBytes).toBe(0);
  });

  test("a piece larger than the limit still goes, alone", () => {
    const terminal = fakeTerminal();
    const queue = new TerminalWriteQueue(terminal.writer, 4);
    queue.output(bytes("0123456789"), () => {});
    queue.output(bytes("x"), () => {});
    expect(terminal.given.map((write) => write.text)).toEqual(["0123456789"]);
    terminal.parseAll();
    expect(terminal.screen).toEqual(["0123456789", "x"]);
  });

  test("a barrier runs once all before it is parsed, and nothing after it is handed over before it ran", () => {
    const terminal = fakeTerminal();
    const queue = new TerminalWriteQueue(terminal.writer, 100);
    const events: string[] = [];
    queue.output(bytes("scrollback"), () => {});
    queue.barrier(() => events.push(`ready after ${terminal.screen.join("+")}`));
    queue.output(bytes("live"), () => {});
    expect(terminal.given.map((write) => write.text)).toEqual(["scrollback"]);
    expect(events).toEqual([]);
    terminal.parseAll();
    expect(events).toEqual(["ready after scrollback"]);
    expect(terminal.screen).toEqual(["scrollback", "live"]);
  });

  test("a restart drops what waits, lets the terminal finish what it was given, then resets before the new output", () => {
    const terminal = fakeTerminal();
    const queue = new TerminalWriteQueue(terminal.writer, 8);
    const drawn: string[] = [];
    // A flood the page fell behind on: 8 bytes handed over, the rest waiting.
    for (const text of ["old1", "old2", "old3", "old4", "old5"]) queue.output(bytes(text), () => drawn.push(text));
    expect(queue.waitingBytes).toBe(12);
    // Cut off; it reattaches: the relay sends the scrollback anew.
    queue.restart(terminal.reset);
    queue.output(bytes("scrollback"), () => drawn.push("scrollback"));
    expect(queue.waitingBytes).toBe(10);
    expect(terminal.screen).toEqual([]);
    terminal.parseAll();
    expect(terminal.screen).toEqual(["old1", "old2", "<reset>", "scrollback"]);
    expect(drawn).toEqual(["old1", "old2", "scrollback"]);
  });

  test("a restart with nothing handed over resets at once", () => {
    const terminal = fakeTerminal();
    const queue = new TerminalWriteQueue(terminal.writer);
    queue.restart(terminal.reset);
    expect(terminal.screen).toEqual(["<reset>"]);
    queue.output(bytes("first"), () => {});
    expect(terminal.given.map((write) => write.text)).toEqual(["first"]);
  });

  test("thousands of pieces go through in order (the queue compacts as it goes)", () => {
    const terminal = fakeTerminal();
    const queue = new TerminalWriteQueue(terminal.writer, 64);
    const expected: string[] = [];
    for (let n = 0; n < 5000; n++) {
      const text = String(n % 10).repeat(8);
      expected.push(text);
      queue.output(bytes(text), () => {});
      if (n % 7 === 0) terminal.parse(3);
    }
    terminal.parseAll();
    expect(terminal.screen).toEqual(expected);
    expect(queue.waitingBytes).toBe(0);
  });
});
