import { describe, expect, it } from "vitest";
import { CaptureWriter } from "../../src/lib/wire-log/capture.ts";
import { MAX_CAPTURE_BYTES, openCaptureFile, openCaptureText } from "../../src/lib/replay/open-capture.ts";

const START = Date.parse("2026-12-01T10:00:00.000Z");
const encoder = new TextEncoder();

function capture(): string {
  const writer = new CaptureWriter({ startedAt: START, pier: "0.1.0", redact: { secrets: true } });
  writer.addFrame(JSON.stringify({ type: "hello", clientId: "c1" }), START + 1);
  writer.addBytes(encoder.encode('{"type":"agent_start"}\n{"type":'), START + 5);
  writer.addSent(JSON.stringify({ id: "c1:1", type: "prompt", message: "hi" }), START + 7);
  writer.addBytes(encoder.encode('"agent_end","messages":[]}\n'), START + 9);
  writer.addSent(JSON.stringify({ id: "c2:1", type: "abort" }), START + 12, { clientId: "c2", name: "Ada" });
  writer.finish();
  return writer.text();
}

describe("opening a capture", () => {
  it("gives the events in order, as the connection takes them, with absolute times and exact chunks", () => {
    const result = openCaptureText("s.jsonl", capture());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { capture: opened } = result;
    expect(opened.name).toBe("s.jsonl");
    expect([...opened.times]).toEqual([1, 5, 7, 9, 12]);
    expect(opened.items.map((i) => i.kind)).toEqual(["text", "bytes", "sent", "bytes", "sent"]);
    expect(opened.items.map((i) => i.at - START)).toEqual([1, 5, 7, 9, 12]);
    const second = opened.items[1]!;
    expect(second.kind === "bytes" && new TextDecoder().decode(second.bytes)).toBe('{"type":"agent_start"}\n{"type":');
    expect(opened.items[4]).toEqual({ kind: "sent", text: '{"id":"c2:1","type":"abort"}', at: START + 12, by: { clientId: "c2", name: "Ada" } });
  });

  it("refuses what is not a capture, or a broken one, with the reader's reason and the file's name", () => {
    const lines = capture().split("\n");
    const cases: [string, string][] = [
      ["", "a.jsonl cannot be replayed: The file is empty."],
      ['{"type":"session","version":3}\n', 'a.jsonl cannot be replayed: Line 1 is not a Pier capture header (type "pier-capture").'],
      [[...lines.slice(0, 2), "{not json", ...lines.slice(2)].join("\n"), "a.jsonl cannot be replayed: Line 3: not JSON."],
      [`${lines[0]}\n`, "a.jsonl cannot be replayed: it holds no recorded events."],
      [`${lines.slice(0, 3).join("\n")}\n{"t":20,"k":"by`, "a.jsonl cannot be replayed: Line 4 is cut off: the file ends in the middle of an event."],
      [`${lines[0]}\n{"t":5,"k":"frame","f":"x"}\n{"t":4,"k":"frame","f":"y"}\n`, "a.jsonl cannot be replayed: Line 3: time goes backwards (4 ms after 5 ms)."],
    ];
    for (const [text, message] of cases) expect(openCaptureText("a.jsonl", text)).toEqual({ ok: false, message });
  });

  it("refuses an empty or oversized file before reading it", async () => {
    expect(await openCaptureFile(new File([], "e.jsonl"))).toEqual({ ok: false, message: "e.jsonl cannot be replayed: the file is empty." });
    // A file that claims to be huge is not read at all.
    const huge = { name: "big.jsonl", size: MAX_CAPTURE_BYTES + 1, text: () => Promise.reject(new Error("read")) } as unknown as File;
    expect(await openCaptureFile(huge)).toEqual({ ok: false, message: "big.jsonl cannot be replayed: it is larger than 256 MiB." });
    expect(await openCaptureFile(new File([capture()], "ok.jsonl"))).toMatchObject({ ok: true, capture: { name: "ok.jsonl" } });
  });
});
