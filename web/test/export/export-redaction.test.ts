// Redacting a capture for an exported page: secrets and home folders go from
// every kind of line (pi's bytes, even split across chunks; relay frames;
// sent commands; notes), the chunks stay where they were, and what comes out
// is still a capture the reader takes.
import { describe, expect, it } from "vitest";
import { helloPaths, homesIn, redactCaptureForExport } from "../../src/lib/export/export-redaction.ts";
import { makeExportPage } from "../../src/lib/export/make-page.ts";
import { encodeBase64, decodeBase64 } from "../../src/lib/wire-log/base64.ts";
import { readCapture } from "../../src/lib/wire-log/capture.ts";
import { redactHomes } from "../../src/lib/wire-log/redaction.ts";

const KEY = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789";
const HOME = "/home/alice";
const utf8 = new TextEncoder();

function line(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

/** A version 2 capture (notes) whose every kind of line holds the key and the home folder. */
function capture(): string {
  const hello = { type: "hello", cwd: `${HOME}/project`, piCommand: ["pi", "--api-key", KEY] };
  const record = `${JSON.stringify({ type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: `key ${KEY} in ${HOME}/project/a.ts` } })}\n`;
  const bytes = utf8.encode(record);
  // Cut inside the key and inside the home folder: the redaction must see the line whole.
  const cuts = [0, record.indexOf("sk-ant") + 6, record.indexOf("/home/al") + 8, bytes.length];
  return [
    line({ type: "pier-capture", version: 2, startedAt: "2026-12-06T10:00:00.000Z", pier: "0.1.0", pi: { command: ["pi", "--api-key", KEY, "--cwd", `${HOME}/project`] }, redacted: [] }),
    line({ t: 0, k: "frame", f: hello }),
    line({ t: 1, k: "sent", c: JSON.stringify({ id: "c1:1", type: "prompt", message: `use ${KEY} please`, apiKey: "short-but-keyed" }), by: { clientId: "c1", name: "Alice" } }),
    ...cuts.slice(1).map((end, i) => line({ t: 2 + i, k: "bytes", b: encodeBase64(bytes.subarray(cuts[i]!, end)) })),
    line({ t: 9, k: "frame", f: JSON.stringify({ type: "stderr", line: `token=${KEY}` }) + " " }),
    line({ k: "note", at: 3, text: `Look: ${HOME}/project and ${KEY}` }),
  ].join("");
}

describe("homesIn", () => {
  it("finds the home folder of the paths a capture names, and nothing in other paths", () => {
    expect(homesIn(["/home/alice/project", "/Users/bob", "/root/x", "C:\\Users\\eve\\code", "/tmp/x", "/homework/a"])).toEqual(["/home/alice", "/Users/bob", "/root", "C:\\Users\\eve"]);
  });

  it("reads the cwd of the capture's hello frames", () => {
    expect(helloPaths(capture())).toEqual([`${HOME}/project`]);
  });
});

describe("redactHomes", () => {
  it("writes a home folder as ~, not a longer folder name that starts with it", () => {
    expect(redactHomes("/home/alice/x and /home/alice and /home/alicea/y", ["/home/alice"])).toBe("~/x and ~ and /home/alicea/y");
  });
});

describe("redactCaptureForExport", () => {
  it("leaves no secret and no home folder in any line, and the reader takes the result", () => {
    const original = capture();
    expect(readCapture(original).ok).toBe(true);
    const { text, redacted } = redactCaptureForExport(original, homesIn(helloPaths(original)));
    expect(redacted).toEqual(["secrets", "home folder"]);
    const read = readCapture(text);
    if (!read.ok) throw new Error(read.error.message);
    expect(read.header.redacted).toEqual(["secrets", "home folder"]);
    // Every line, the bytes decoded: no key, no home.
    const decoded = text
      .split("\n")
      .map((l) => (l.includes('"k":"bytes"') ? new TextDecoder().decode(decodeBase64(JSON.parse(l).b)!) : l))
      .join("\n");
    expect(decoded).not.toContain("abcdefghijklmnopqrstuvwxyz");
    expect(decoded).not.toContain(HOME);
    expect(decoded).not.toContain("short-but-keyed");
    expect(decoded).toContain("~/project");
    // The notes came along, redacted.
    expect(read.notes.map((n) => n.text)).toEqual([expect.stringMatching(/^Look: ~\/project and sk-.*redacted/)]);
  });

  it("keeps pi's chunks: as many bytes events, at the same times, whose bytes join into valid lines", () => {
    const { text } = redactCaptureForExport(capture(), [HOME]);
    const read = readCapture(text);
    if (!read.ok) throw new Error(read.error.message);
    const chunks = read.events.filter((e) => e.kind === "bytes");
    expect(chunks.map((e) => e.t)).toEqual([2, 3, 4]);
    const joined = new TextDecoder().decode(Buffer.concat(chunks.map((e) => (e.kind === "bytes" ? e.bytes : new Uint8Array()))));
    expect(JSON.parse(joined).assistantMessageEvent.delta).toMatch(/^key sk-.*redacted.* in ~\/project\/a\.ts$/);
  });

  it("without homes to hide, says only that secrets were redacted", () => {
    expect(redactCaptureForExport(capture(), []).redacted).toEqual(["secrets"]);
  });
});

describe("makeExportPage", () => {
  const player = { js: "void 0;", css: "" };
  const sha256 = () => "hash";

  it("refuses what the reader refuses, in its words", async () => {
    const result = await makeExportPage({ name: "notes.txt", text: "just notes\n", player, sha256 });
    expect(result).toEqual({ ok: false, message: "notes.txt cannot be exported: Line 1 is not JSON: this is not a Pier capture file." });
    const empty = await makeExportPage({ name: "empty.jsonl", text: line({ type: "pier-capture", version: 1, startedAt: "2026-12-06T10:00:00.000Z", pier: "x", redacted: [] }), player, sha256 });
    expect(empty).toEqual({ ok: false, message: "empty.jsonl cannot be exported: it holds no recorded events." });
  });

  it("writes a page with the redacted capture, and counts its events", async () => {
    const result = await makeExportPage({ name: "session.jsonl", text: capture(), player, sha256, homes: [] });
    if (!result.ok) throw new Error(result.message);
    expect(result.page.events).toBe(6);
    expect(result.page.redacted).toEqual(["secrets", "home folder"]);
    expect(result.page.html).not.toContain(HOME);
    expect(result.page.html).not.toContain("abcdefghijklmnopqrstuvwxyz");
  });
});
