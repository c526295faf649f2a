import { describe, expect, it } from "vitest";
import { headerProblem } from "../../src/capture-file.ts";
import { CliError } from "../../src/cli-options.ts";
import { parseReplayOptions } from "../../src/replay-options.ts";

describe("pier replay options", () => {
  it("takes one file (resolved against the current folder), a port, a host and --open", () => {
    expect(parseReplayOptions(["cap.jsonl"], "/home/ada")).toEqual({ file: "/home/ada/cap.jsonl", compare: null, port: 0, host: "127.0.0.1", open: false, help: false });
    expect(parseReplayOptions(["--port", "4000", "/tmp/c.jsonl", "--open", "--host", "::1"], "/x")).toEqual({
      file: "/tmp/c.jsonl",
      compare: null,
      port: 4000,
      host: "::1",
      open: true,
      help: false,
    });
    expect(parseReplayOptions(["--help"], "/x").help).toBe(true);
  });

  it("takes a second file to compare with, in order, options anywhere; the same file twice is allowed", () => {
    expect(parseReplayOptions(["a.jsonl", "b.jsonl"], "/home/ada")).toMatchObject({ file: "/home/ada/a.jsonl", compare: "/home/ada/b.jsonl" });
    expect(parseReplayOptions(["--port", "4000", "/tmp/a.jsonl", "--open", "../b.jsonl"], "/x/y")).toMatchObject({ file: "/tmp/a.jsonl", compare: "/x/b.jsonl", port: 4000, open: true });
    expect(parseReplayOptions(["a.jsonl", "a.jsonl"], "/x")).toMatchObject({ file: "/x/a.jsonl", compare: "/x/a.jsonl" });
  });

  it("refuses what it cannot use, in words", () => {
    const refusal = (argv: string[]) => {
      try {
        parseReplayOptions(argv, "/x");
      } catch (error) {
        if (error instanceof CliError) return error.message;
        throw error;
      }
      return null;
    };
    expect(refusal([])).toBe("pier replay needs the capture file to open");
    expect(refusal(["a.jsonl", "b.jsonl", "c.jsonl"])).toBe("pier replay opens one capture file, or two to compare, not 3");
    expect(refusal(["a.jsonl", "--port", "99999"])).toBe('--port takes a whole number from 0 to 65535, not "99999"');
    expect(refusal(["a.jsonl", "--host", "example.com"])).toBe('--host must be an IP address or "localhost", not "example.com"');
    // pi's options mean nothing here: replay starts no pi.
    expect(refusal(["a.jsonl", "--pi", "/usr/bin/pi"])).toMatch(/Unknown option '--pi'/);
  });

  it("knows a capture header from anything else", () => {
    expect(headerProblem('{"type":"pier-capture","version":1,"startedAt":"2026-12-01T10:00:00Z"}')).toBeNull();
    expect(headerProblem("hello")).toBe("its first line is not JSON");
    expect(headerProblem('{"type":"session"}')).toBe('its first line is not a capture header (type "pier-capture")');
    expect(headerProblem('["pier-capture"]')).toBe('its first line is not a capture header (type "pier-capture")');
    expect(headerProblem('{"type":"pier-capture","version":"1"}')).toBe('capture version "1" is not supported (this Pier reads versions 1 and 2)');
    expect(headerProblem('{"type":"pier-capture","version":2,"startedAt":"2026-12-01T10:00:00Z"}')).toBeNull();
    expect(headerProblem(null)).toBe("its first line is longer than a capture header");
  });
});
