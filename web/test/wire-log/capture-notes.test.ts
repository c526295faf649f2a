import { describe, expect, it } from "vitest";
import { encodeBase64 } from "../../src/lib/wire-log/base64.ts";
import { captureWithNotes, MAX_NOTE_CHARS, MAX_NOTE_RECORDS, MAX_NOTES, recordEnds, type CaptureNote } from "../../src/lib/wire-log/capture-notes.ts";
import { CaptureWriter, readCapture, type CaptureReadResult } from "../../src/lib/wire-log/capture.ts";
import { replaySteps } from "../../src/lib/wire-log/capture-replay.ts";

const encoder = new TextEncoder();
const HEADER = { type: "pier-capture", version: 2, startedAt: "2026-05-01T10:00:00.000Z", pier: "0.1.0", redacted: [] };

/** Six events, seven records: hello, 3 lines of pi's bytes in two chunks (one cut mid-line), a sent command, a peers frame. */
function capture(version = 2): string {
  const lines = [
    JSON.stringify({ ...HEADER, version }),
    JSON.stringify({ t: 0, k: "frame", f: { type: "hello", clientId: "c1" } }),
    JSON.stringify({ t: 5, k: "bytes", b: encodeBase64(encoder.encode('{"type":"agent_start"}\n{"type":"turn_st')) }),
    JSON.stringify({ t: 6, k: "bytes", b: encodeBase64(encoder.encode('art"}\n{"type":"agent_end"}\n')) }),
    JSON.stringify({ t: 7, k: "sent", c: '{"id":"c1:1","type":"get_state"}' }),
    JSON.stringify({ t: 8, k: "frame", f: { type: "peers", count: 2 } }),
    JSON.stringify({ t: 9, k: "frame", f: { type: "peers", count: 1 } }),
  ];
  return `${lines.join("\n")}\n`;
}

const note = (value: Record<string, unknown>): string => `${JSON.stringify({ k: "note", ...value })}\n`;

function ok(text: string): Extract<CaptureReadResult, { ok: true }> {
  const result = readCapture(text);
  if (!result.ok) throw new Error(result.error.message);
  return result;
}

function error(text: string): { code: string; line: number; message: string } {
  const result = readCapture(text);
  if (result.ok) throw new Error("read a bad capture");
  return result.error;
}

describe("capture notes: reading", () => {
  it("reads notes after the events, in order of their positions (file order at one position)", () => {
    const result = ok(capture() + note({ at: 4, records: [5, 2], text: "second" }) + note({ at: 0, text: "**first**" }) + note({ at: 4, text: "third" }));
    expect(result.header.version).toBe(2);
    expect(result.events).toHaveLength(6);
    expect(result.notes).toEqual([
      { at: 0, records: [], text: "**first**" },
      { at: 4, records: [2, 5], text: "second" },
      { at: 4, records: [], text: "third" },
    ]);
  });

  it("numbers records as the page logs them, the last partial line dropped at a new hello", () => {
    const { events, header } = ok(capture());
    expect([...recordEnds(events)]).toEqual([1, 2, 4, 5, 6, 7]);
    // The same count as the replay's entries (seqs) where the stream is not restarted.
    const seqs = replaySteps(header, events).flatMap((s) => (s.kind === "entry" ? [s.entry.seq] : []));
    expect(seqs.at(-1)).toBe(7);
    const restarted = [
      { t: 0, kind: "bytes" as const, bytes: encoder.encode('{"a":1}\n{"cut') },
      { t: 1, kind: "frame" as const, text: '{"type":"hello"}' },
      { t: 2, kind: "bytes" as const, bytes: encoder.encode('{"b":2}\n{"c":') },
      { t: 3, kind: "frame" as const, text: '{"type":"child_exited","child":{}}' },
      { t: 4, kind: "bytes" as const, bytes: encoder.encode("\n\n") },
    ];
    // hello drops `{"cut`; child_exited counts `{"c":` (after its own entry); an empty line is a record (an invalid one).
    expect([...recordEnds(restarted)]).toEqual([1, 2, 3, 5, 7]);
  });

  it("refuses bad notes with the line and the reason", () => {
    const base = capture();
    const cases: [string, RegExp][] = [
      [note({ at: -1, text: "x" }), /Line 8: "at" must be a whole number/],
      [note({ at: 1.5, text: "x" }), /"at" must be a whole number/],
      [note({ at: "3", text: "x" }), /"at" must be a whole number/],
      [note({ at: 7, text: "x" }), /Line 8: position 7 does not exist: the capture has 6 events/],
      [note({ at: 1, text: 42 }), /needs "text", a string/],
      [note({ at: 1, text: "   " }), /needs some text/],
      [note({ at: 1, text: "x".repeat(MAX_NOTE_CHARS + 1) }), /longer than 4,000 characters/],
      [note({ at: 1, records: 3, text: "x" }), /"records" must be a list/],
      [note({ at: 1, records: ["1"], text: "x" }), /record "1" is not a record number/],
      [note({ at: 1, records: [0], text: "x" }), /record 0 is not a record number/],
      [note({ at: 1, records: [1, 1], text: "x" }), /record 1 is named twice/],
      [note({ at: 1, records: Array.from({ length: MAX_NOTE_RECORDS + 1 }, (_, i) => i + 1), text: "x" }), /at most 32 records/],
      // At position 2 the page holds 2 records (hello, agent_start): record 3 comes with event 3.
      [note({ at: 2, records: [3], text: "x" }), /Line 8: record 3 is not shown at position 2 \(the page holds 2 records there\)/],
      [note({ at: 0, records: [1], text: "x" }), /record 1 is not shown at position 0/],
    ];
    for (const [line, message] of cases) {
      const e = error(base + line);
      expect(e.code, line).toBe("bad_note");
      expect(e.line, line).toBe(8);
      expect(e.message, line).toMatch(message);
    }
  });

  it("refuses a note in a version 1 capture, an event after the notes, and too many notes", () => {
    expect(error(capture(1) + note({ at: 1, text: "x" }))).toMatchObject({ code: "bad_note", line: 8, message: expect.stringMatching(/version 1 capture/) });
    const after = `${capture() + note({ at: 1, text: "x" })}${JSON.stringify({ t: 10, k: "frame", f: { type: "peers", count: 3 } })}\n`;
    expect(error(after)).toMatchObject({ code: "bad_note", line: 9, message: expect.stringMatching(/an event after the notes/) });
    const many = capture() + Array.from({ length: MAX_NOTES + 1 }, () => note({ at: 1, text: "x" })).join("");
    expect(error(many)).toMatchObject({ code: "bad_note", line: 8 + MAX_NOTES, message: expect.stringMatching(/more than 500 notes/) });
    // A note cut off while being written.
    expect(error(`${capture()}{"k":"note","at":1,"te`).code).toBe("truncated");
  });

  it("still reads version 1 captures, with no notes", () => {
    const result = ok(capture(1));
    expect(result.header.version).toBe(1);
    expect(result.notes).toEqual([]);
  });
});

describe("capture notes: writing", () => {
  it("keeps every event line byte for byte, sets the version, and reads back the same notes", () => {
    const writer = new CaptureWriter({ startedAt: Date.parse("2026-05-01T10:00:00Z"), pier: "0.1.0", piCommand: ["pi", "--mode", "rpc"] });
    writer.addFrame('{"type":"hello","clientId":"c1"}', Date.parse("2026-05-01T10:00:00Z"));
    writer.addBytes(encoder.encode('{"type":"agent_start"}\n{"type":"agent_end"}\n'), Date.parse("2026-05-01T10:00:01Z"));
    writer.addFrame("{ not canonical }", Date.parse("2026-05-01T10:00:02Z"));
    writer.finish();
    const original = writer.text();
    const first = ok(original);
    const notes: CaptureNote[] = [
      { at: 2, records: [3], text: "Here `agent_end` arrives, but the run is not over: watch for `agent_settled`." },
      { at: 0, records: [], text: "Before anything: <b>raw HTML</b> stays text.\nTwo lines." },
    ];
    const saved = captureWithNotes(original, first.layout, notes);
    const savedLines = saved.split("\n");
    const originalLines = original.split("\n");
    expect(JSON.parse(savedLines[0]!)).toEqual({ ...JSON.parse(originalLines[0]!), version: 2 });
    // Event lines: the same bytes.
    expect(encoder.encode(savedLines.slice(1, 4).join("\n"))).toEqual(encoder.encode(originalLines.slice(1, 4).join("\n")));
    const again = ok(saved);
    expect(again.notes).toEqual([notes[1], notes[0]]);
    expect(again.events).toEqual(first.events);

    // Saved again with other notes: the old note lines go, the events stay; without notes it is version 1 again.
    const edited = captureWithNotes(saved, again.layout, [{ at: 2, records: [1, 2], text: "edited" }]);
    expect(ok(edited).notes).toEqual([{ at: 2, records: [1, 2], text: "edited" }]);
    expect(edited.split("\n").slice(1, 4)).toEqual(originalLines.slice(1, 4));
    const none = captureWithNotes(edited, ok(edited).layout, []);
    expect(none).toBe(original);
  });

  it("keeps a file's own line ends (CRLF, no final newline) in its event lines", () => {
    const lines = capture(1).trimEnd().split("\n");
    const crlf = lines.join("\r\n");
    const result = ok(crlf);
    const saved = captureWithNotes(crlf, result.layout, [{ at: 6, records: [7], text: "the end" }]);
    expect(saved.slice(saved.indexOf("\n") + 1, saved.lastIndexOf("\n", saved.length - 2) + 1)).toBe(`${lines.slice(1).join("\r\n")}\n`);
    expect(ok(saved).notes).toEqual([{ at: 6, records: [7], text: "the end" }]);
  });
});
