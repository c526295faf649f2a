import { JsonlDecoder } from "@pier/protocol";
import { describe, expect, it } from "vitest";
import { decodeBase64, encodeBase64 } from "../../src/lib/wire-log/base64.ts";
import { replaySteps } from "../../src/lib/wire-log/capture-replay.ts";
import { CaptureWriter, readCapture, type CaptureEvent } from "../../src/lib/wire-log/capture.ts";
import { applyRecord } from "../../src/lib/pi-state/reduce-record.ts";
import { createSessionState } from "../../src/lib/pi-state/session-state.ts";
import { chunked, fixtureLines, fixtureNames, fixtureText, ME, random } from "./support.ts";

const encoder = new TextEncoder();
const utf8 = new TextDecoder();
const START = Date.parse("2026-05-01T10:00:00.000Z");

/** A recording: a fixture's bytes in random chunks, with frames and sent commands between them. */
function recording(name: string, seed = 1): { kind: "bytes" | "frame" | "sent"; at: number; bytes?: Uint8Array; text?: string }[] {
  const rand = random(seed);
  const events: { kind: "bytes" | "frame" | "sent"; at: number; bytes?: Uint8Array; text?: string }[] = [];
  let at = START;
  events.push({ kind: "frame", at, text: JSON.stringify({ type: "hello", clientId: "c1", relayVersion: "0.1.0", piCommand: ["pi", "--mode", "rpc"] }) });
  events.push({ kind: "frame", at: (at += 1), text: JSON.stringify({ type: "replay_end" }) });
  for (const chunk of chunked(encoder.encode(fixtureText(name)), rand, 200)) {
    at += Math.floor(rand() * 20);
    if (rand() < 0.05) events.push({ kind: "sent", at, text: JSON.stringify({ id: `c1:${events.length}`, type: "get_state" }) });
    if (rand() < 0.03) events.push({ kind: "frame", at, text: JSON.stringify({ type: "stderr", line: "warning: é\u2028" }) });
    events.push({ kind: "bytes", at, bytes: chunk });
  }
  return events;
}

function write(events: ReturnType<typeof recording>, writer: CaptureWriter): CaptureWriter {
  for (const e of events) {
    if (e.kind === "bytes") writer.addBytes(e.bytes!, e.at);
    else if (e.kind === "frame") writer.addFrame(e.text!, e.at);
    else writer.addSent(e.text!, e.at, ME);
  }
  writer.finish();
  return writer;
}

function read(text: string): { events: CaptureEvent[]; header: NonNullable<ReturnType<typeof readCapture>["header"]> } {
  const result = readCapture(text);
  if (!result.ok) throw new Error(result.error.message);
  return { events: result.events, header: result.header };
}

const allBytes = (events: readonly CaptureEvent[]): Uint8Array => {
  const parts = events.flatMap((e) => (e.kind === "bytes" ? [e.bytes] : []));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((offset, p) => (out.set(p, offset), offset + p.length), 0);
  return out;
};

describe("base64", () => {
  it("round-trips every length and byte value", () => {
    const rand = random(3);
    for (let n = 0; n < 70; n++) {
      const bytes = Uint8Array.from({ length: n }, () => Math.floor(rand() * 256));
      const text = encodeBase64(bytes);
      expect(text).toBe(Buffer.from(bytes).toString("base64"));
      expect(decodeBase64(text)).toEqual(bytes);
    }
  });

  it("refuses anything but strict base64", () => {
    for (const junk of ["a", "abc", "ab=c", "====", "YR==", "YWJ=", "YW J", "YW\nJj", "Y\u00e9==", "YQ=", "YQ==YQ=="]) expect(decodeBase64(junk), junk).toBeNull();
    expect(decodeBase64("YQ==")).toEqual(new Uint8Array([0x61]));
    expect(decodeBase64("")).toEqual(new Uint8Array(0));
  });
});

describe("capture round trip", () => {
  it.each(fixtureNames())("gives %s back byte for byte, chunk for chunk", (name) => {
    const events = recording(name, name.length);
    const writer = write(events, new CaptureWriter({ startedAt: START, pier: "0.1.0", piCommand: ["pi", "--mode", "rpc"] }));
    const { header, events: back } = read(writer.text());
    expect(header).toEqual({ type: "pier-capture", version: 1, startedAt: "2026-05-01T10:00:00.000Z", pier: "0.1.0", pi: { command: ["pi", "--mode", "rpc"] }, redacted: [] });
    expect(back).toHaveLength(events.length);
    back.forEach((event, i) => {
      const original = events[i]!;
      expect(event.kind).toBe(original.kind);
      expect(event.t).toBe(original.at - START);
      if (event.kind === "bytes") expect(event.bytes).toEqual(original.bytes);
      else expect(event.text).toBe(original.text);
      if (event.kind === "sent") expect(event.by).toEqual(ME);
    });
    expect(utf8.decode(allBytes(back))).toBe(fixtureText(name));
  });

  it("replays a capture as the entries a live page would have logged", () => {
    const name = "steer-follow-up-clear-queue";
    const { header, events } = read(write(recording(name, 5), new CaptureWriter({ startedAt: START, pier: "0.1.0" })).text());
    const steps = replaySteps(header, events);
    const fromPi = steps.flatMap((s) => (s.kind === "entry" && s.entry.direction === "in" ? [s] : []));
    expect(fromPi.map((s) => s.entry.raw)).toEqual(fixtureLines(name));
    expect(fromPi.map((s) => s.lineNo)).toEqual(fixtureLines(name).map((_, i) => i + 1));
    const seqs = steps.flatMap((s) => (s.kind === "entry" ? [s.entry.seq] : []));
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    const sent = steps.flatMap((s) => (s.kind === "entry" && s.entry.direction === "out" ? [s.entry] : []));
    expect(sent.every((e) => e.sender?.clientId === "c1" && (e.value as { type: string }).type === "get_state")).toBe(true);
    const chunks = steps.filter((s) => s.kind === "chunk");
    expect(chunks.length).toBe(events.filter((e) => e.kind === "bytes").length);
  });

  it("never lets time go backwards in what it writes", () => {
    const writer = new CaptureWriter({ startedAt: 1000, pier: "x" });
    writer.addFrame('{"type":"peers","count":1}', 1500);
    writer.addFrame('{"type":"peers","count":2}', 1200); // the clock stepped back
    writer.addFrame('{"type":"peers","count":3}', 500); // before the start
    writer.finish();
    expect(read(writer.text()).events.map((e) => e.t)).toEqual([500, 500, 500]);
  });

  it("keeps a frame that is not canonical JSON as its text", () => {
    const writer = new CaptureWriter({ startedAt: 0, pier: "x" });
    writer.addFrame('{ "type": "peers", "count": 1 }', 0);
    writer.addFrame("not json at all", 0);
    writer.finish();
    const lines = writer.text().split("\n");
    expect(JSON.parse(lines[1]!).f).toBe('{ "type": "peers", "count": 1 }');
    expect(read(writer.text()).events.map((e) => (e.kind === "frame" ? e.text : ""))).toEqual(['{ "type": "peers", "count": 1 }', "not json at all"]);
  });

  it("stops at maxBytes and says so in the header", () => {
    const writer = new CaptureWriter({ startedAt: 0, pier: "x", maxBytes: 2000 });
    for (let i = 0; i < 100; i++) writer.addBytes(encoder.encode(`{"type":"agent_start","n":${i}}\n`), i);
    writer.finish();
    expect(writer.truncated).toBe(true);
    expect(writer.size).toBeLessThanOrEqual(2000);
    const { header, events } = read(writer.text());
    expect(header.truncated).toBe(true);
    expect(events.length).toBe(writer.eventCount);
  });
});

describe("reading untrusted files", () => {
  const header = JSON.stringify({ type: "pier-capture", version: 1, startedAt: "2026-05-01T10:00:00.000Z", pier: "0.1.0", redacted: [] });
  const fail = (text: string, limits?: Parameters<typeof readCapture>[1]) => {
    const result = readCapture(text, limits);
    expect(result.ok).toBe(false);
    return result.ok ? null! : result;
  };

  it("refuses a bad header, clearly", () => {
    expect(fail("").error.code).toBe("empty");
    expect(fail("hello\n").error).toMatchObject({ code: "bad_header", line: 1 });
    expect(fail('{"type":"session","version":3}\n').error.message).toMatch(/not a Pier capture header/);
    expect(fail(header.replace('"version":1', '"version":3')).error).toMatchObject({ code: "unsupported_version", line: 1 });
    expect(fail(header.replace("2026-05-01T10:00:00.000Z", "yesterday")).error.message).toMatch(/startedAt/);
    expect(fail(header.replace('"redacted":[]', '"redacted":[1]')).error.message).toMatch(/redacted/);
    expect(fail(header.replace('"redacted":[]', '"redacted":[],"pi":{"command":"pi"}')).error.message).toMatch(/pi.command/);
  });

  it("names the line of a bad event", () => {
    const ok = '{"t":0,"k":"frame","f":{"type":"replay_end"}}';
    expect(fail(`${header}\n${ok}\n{"t":1,"k":"teleport"}\n`).error).toMatchObject({ code: "unknown_kind", line: 3 });
    expect(fail(`${header}\n{"t":1,"k":"bytes","b":"%%%"}\n`).error).toMatchObject({ code: "bad_base64", line: 2 });
    expect(fail(`${header}\n{"t":1,"k":"bytes"}\n`).error).toMatchObject({ code: "bad_line", line: 2 });
    expect(fail(`${header}\n{"t":-1,"k":"frame","f":"x"}\n`).error).toMatchObject({ code: "bad_line", line: 2 });
    expect(fail(`${header}\n{"t":5,"k":"frame","f":"x"}\n{"t":4,"k":"frame","f":"x"}\n`).error).toMatchObject({ code: "time_backwards", line: 3 });
    expect(fail(`${header}\n{"t":5,"k":"sent","c":"x","by":{"clientId":1}}\n`).error.message).toMatch(/"by"/);
    expect(fail(`${header}\n[1,2]\n`).error.message).toMatch(/Line 2: not a JSON object/);
    expect(fail(`${header}\n{"t":5,"k":"frame","f":5}\n`).error.code).toBe("bad_line");
  });

  it("tells a file cut off in the middle of its last line, and keeps what came before", () => {
    const result = fail(`${header}\n{"t":0,"k":"frame","f":"a"}\n{"t":1,"k":"bytes","b":"YWJj`);
    expect(result.error).toMatchObject({ code: "truncated", line: 3 });
    expect(result.events).toHaveLength(1);
    expect(result.header?.pier).toBe("0.1.0");
  });

  it("caps the file and each line", () => {
    expect(fail(`${header}\n${"x".repeat(100)}`, { maxFileChars: 50 }).error.code).toBe("too_large");
    expect(fail(`${header}\n{"t":0,"k":"frame","f":"${"x".repeat(500)}"}\n`, { maxLineChars: 200 }).error).toMatchObject({ code: "line_too_long", line: 2 });
  });

  it("accepts CRLF line ends, blank lines, a last line without newline, and unknown fields", () => {
    const result = readCapture(`${header.replace("}", ',"future":true}')}\r\n\r\n{"t":0,"k":"frame","f":"a","extra":1}\r\n{"t":0,"k":"sent","c":"{}"}`);
    expect(result.ok).toBe(true);
    expect(result.events).toHaveLength(2);
  });
});

describe("redaction", () => {
  const SECRETS = {
    openai: "sk-proj-Abc123def456GHI789jkl012MNO345pqr",
    anthropic: "sk-ant-api03-ZZZ999yyy888XXX777www666",
    github: "ghp_1234567890abcdefghijklmnopqrstuvwxyzAB",
    slack: "xoxb-123456789012-abcdefGHIJKL",
    aws: "AKIAIOSFODNN7EXAMPLE",
    google: "AIzaSyA1234567890abcdefghijklmnopqrstu",
    bearer: "eyAbc123.def456-ghi789_jkl012",
    link: "f3a9c0d1e2b4a5968778695a4b3c2d1e",
    field: "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA",
    cli: "my-plain-cli-secret-value",
  };
  const secretValues = Object.values(SECRETS);

  /** pi's output with secrets in tool results, bash output and text deltas. */
  function secretStream(): string {
    const lines = [
      {
        type: "tool_execution_end",
        toolCallId: "call_1",
        toolName: "bash",
        result: { content: [{ type: "text", text: `OPENAI_API_KEY=${SECRETS.openai}\nANTHROPIC=${SECRETS.anthropic}\n` }] },
        isError: false,
      },
      { type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: `use ${SECRETS.github} or ${SECRETS.slack} and ${SECRETS.aws}` } },
      { type: "bash_execution_update", id: "c1:3", delta: `curl -H "Authorization: Bearer ${SECRETS.bearer}" https://x.test/?token=${SECRETS.link}&q=1 ${SECRETS.google}` },
      { type: "entry_appended", entry: { type: "custom", customType: "auth", data: { apiKey: SECRETS.field, note: "fine" } } },
      { type: "message_end", message: { role: "assistant", content: [{ type: "text", text: "no secrets here, just tokens: 42 and the word basic" }], usage: { totalTokens: 5 } } },
    ];
    return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
  }

  function redactedCapture(chunkSize: number): { text: string; events: CaptureEvent[]; chunkCount: number } {
    const writer = new CaptureWriter({ startedAt: START, pier: "0.1.0", piCommand: ["pi", "--mode", "rpc", "--api-key", SECRETS.cli, `--token=${SECRETS.cli}`], redact: { secrets: true } });
    writer.addFrame(JSON.stringify({ type: "hello", clientId: "c1", piCommand: ["pi", "--api-key", SECRETS.cli] }), START);
    writer.addFrame(JSON.stringify({ type: "notice", level: "info", message: `open http://127.0.0.1:4000/?token=${SECRETS.link}` }), START + 1);
    writer.addSent(JSON.stringify({ id: "c1:1", type: "prompt", message: `my key is ${SECRETS.anthropic}` }), START + 2, ME);
    // Chunk boundaries everywhere, including inside the secrets.
    const chunks = chunked(encoder.encode(secretStream()), random(chunkSize), chunkSize);
    chunks.forEach((chunk, i) => writer.addBytes(chunk, START + 10 + i));
    writer.addSent(`{"id":"c1:2","type":"steer","message":"${SECRETS.github}"}`, START + 10_000, ME);
    writer.finish();
    return { text: writer.text(), events: read(writer.text()).events, chunkCount: chunks.length };
  }

  it.each([3, 17, 64, 1000])("leaves no secret anywhere in the file (chunks up to %i bytes)", (chunkSize) => {
    const { text, events, chunkCount } = redactedCapture(chunkSize);
    const decodedBytes = utf8.decode(allBytes(events));
    const everything = [text, decodedBytes, ...events.map((e) => (e.kind === "bytes" ? "" : e.text))].join("\n");
    for (const secret of secretValues) expect(everything, secret).not.toContain(secret);
    expect(everything).not.toContain(SECRETS.cli.slice(0, 12));
    // Same number of chunks, same order of events, every line of pi's output still JSON.
    expect(events.filter((e) => e.kind === "bytes")).toHaveLength(chunkCount);
    const decoder = new JsonlDecoder();
    const lines = events.flatMap((e) => (e.kind === "bytes" ? decoder.push(e.bytes) : []));
    expect(lines).toHaveLength(5);
    expect(lines.every((l) => l.kind === "record")).toBe(true);
    const records = lines.map((l) => (l.kind === "record" ? l.value : null)) as Record<string, any>[];
    // Markers say what kind of secret was there; what was not secret is untouched.
    expect(records[0]!.result.content[0].text).toBe("OPENAI_API_KEY=[redacted]\nANTHROPIC=sk-ant-[redacted]\n");
    expect(records[1]!.assistantMessageEvent.delta).toBe("use ghp_[redacted] or xoxb-[redacted] and AKIA[redacted]");
    expect(records[2]!.delta).toContain("Bearer [redacted]");
    expect(records[2]!.delta).toContain("?token=[redacted]&q=1");
    expect(records[3]!.entry.data).toEqual({ apiKey: "[redacted]", note: "fine" });
    expect(records[4]).toEqual(JSON.parse(secretStream().split("\n")[4]!));
    const { header } = read(text);
    expect(header.redacted).toEqual(["secrets"]);
    expect(header.pi!.command).toEqual(["pi", "--mode", "rpc", "--api-key", "[redacted]", "--token=[redacted]"]);
    for (const e of events) if (e.kind !== "bytes") expect(() => JSON.parse(e.text)).not.toThrow();
  });

  it("keeps lines without secrets byte for byte", () => {
    const name = "demo-tour-first-run";
    const events = recording(name, 9);
    const { events: back } = read(write(events, new CaptureWriter({ startedAt: START, pier: "0.1.0", redact: { secrets: true } })).text());
    expect(utf8.decode(allBytes(back))).toBe(fixtureText(name));
    // …and chunk for chunk.
    const originalChunks = events.filter((e) => e.kind === "bytes").map((e) => e.bytes!);
    expect(back.filter((e) => e.kind === "bytes").map((e) => (e.kind === "bytes" ? e.bytes : null))).toEqual(originalChunks);
  });

  it("removes file contents: read results, write/edit arguments and diffs, streamed write arguments", () => {
    const name = "file-tools";
    const original = fixtureText(name);
    const { events } = read(write(recording(name, 4), new CaptureWriter({ startedAt: START, pier: "0.1.0", redact: { fileContents: true } })).text());
    const redacted = utf8.decode(allBytes(events));
    const records = redacted
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, any>);
    expect(records).toHaveLength(fixtureLines(name).length);
    const writeArgs = records.filter((r) => r.type === "tool_execution_start" && r.toolName === "write");
    expect(writeArgs[0]!.args.path).toBe("notes.txt");
    expect(writeArgs[0]!.args.content).toMatch(/^\[file contents removed: \d+ bytes\]$/);
    const edits = records.filter((r) => r.type === "tool_execution_end" && r.toolName === "edit" && r.result.details?.diff);
    expect(edits.length).toBeGreaterThan(0);
    for (const e of edits) expect(e.result.details.diff).toMatch(/^\[file contents removed/);
    const reads = records.filter((r) => r.type === "tool_execution_end" && r.toolName === "read");
    for (const r of reads) expect(r.result.content[0].text).toMatch(/^\[file contents removed/);
    const readResults = records.filter((r) => r.type === "message_end" && r.message.role === "toolResult" && r.message.toolName === "read");
    for (const r of readResults) expect(r.message.content[0].text).toMatch(/^\[file contents removed/);
    // The streamed arguments of write: every fragment.
    let writing = new Set<number>();
    for (const r of records) {
      if (r.type === "message_start") writing = new Set();
      const step = r.assistantMessageEvent;
      if (step?.type === "toolcall_start" && (step.toolName === "write" || step.toolName === "edit")) writing.add(step.contentIndex);
      if (step?.type === "toolcall_delta" && writing.has(step.contentIndex) && step.delta !== "") expect(step.delta).toMatch(/^\[file contents removed/);
    }
    // Names, paths and everything else are still there, and the reducer still reduces it.
    expect(redacted.length).toBeLessThan(original.length);
    const state = createSessionState();
    for (const r of records) applyRecord(state, r);
    expect(state.status).toBe("idle");
  });
});
