// Capture files: a recording of one browser's view of the wire, to replay
// later (in Pier's inspector, or in a test). JSONL:
//
//   {"type":"pier-capture","version":1,"startedAt":"2026-…Z","pier":"0.1.0","pi":{"command":[…]},"redacted":["secrets"]}
//   {"t":12,"k":"bytes","b":"<base64 of one chunk of pi's stdout, exactly as received>"}
//   {"t":15,"k":"frame","f":{…relay text frame…}}
//   {"t":20,"k":"sent","c":"<the command text this browser sent>","by":{"clientId":"…","name":"…"}}
//
// `t` is milliseconds since startedAt and never decreases. `f` is the frame's
// JSON object when re-serialising it gives the received text back exactly,
// otherwise the text itself (a string). Unknown header fields are ignored.
//
// The writer is incremental (lines are produced as events arrive) and bounded
// (it stops at maxBytes and says so in the header). With redaction, pi's
// bytes are redacted line by line: a chunk is held until the last line it
// touches is complete, then written with its boundaries where they were (a
// boundary inside a replaced string moves to that string's end), so the
// chunking a replay reproduces is still the real one.
//
// Version 2 adds notes (a guided walk, capture-notes.ts), one line each,
// after every event line:
//
//   {"k":"note","at":42,"records":[57,58],"text":"Here agent_end arrives, but the run is not over…"}
//
// `at` is a position of the player: the page after the first `at` events
// (0 … the number of events). `records` (optional) names records the page
// shows there, numbered from 1 as the page logs them: each frame, each sent
// command and each line of pi's bytes is one record (pi's stream starts
// again at a hello or child_started frame; a last line without its LF counts
// at a child_exited frame). `text` is plain text or Markdown, shown
// sanitized. A file without notes is written as version 1, which older
// readers take; version 1 with a note line is refused. The whole format:
// docs/captures.md.
//
// The reader treats the file as untrusted: size and line-length caps, strict
// base64, checked types, times that must not go backwards, notes capped in
// number and length whose positions and records must exist; every problem is
// an error value with a code and a line number.

import { decodeBase64, encodeBase64 } from "./base64.ts";
import { concatBytes } from "../bytes.ts";
import { checkNotes, parseNote, type CaptureNote, type NoteAt } from "./capture-notes.ts";
import { applyEdits, mapOffset, redactCommandLine, redactJsonText, redactLine, redactSecretsInText, ToolCallTracker, type Edit, type RedactionOptions } from "./redaction.ts";

export const CAPTURE_TYPE = "pier-capture";
/** What the writer writes (a capture without notes). */
export const CAPTURE_VERSION = 1;
/** A capture with notes (capture-notes.ts). */
export const CAPTURE_NOTES_VERSION = 2;

export interface CaptureHeader {
  type: typeof CAPTURE_TYPE;
  version: typeof CAPTURE_VERSION | typeof CAPTURE_NOTES_VERSION;
  /** ISO 8601. */
  startedAt: string;
  /** The relay's version (hello.relayVersion). */
  pier: string;
  pi?: { command: string[] };
  /** What was redacted: "secrets", "file-contents". */
  redacted: string[];
  /** The writer stopped at its size limit: events after this point are missing. */
  truncated?: boolean;
}

export interface CaptureSender {
  clientId: string;
  name?: string;
}

export type CaptureEvent = { t: number; kind: "bytes"; bytes: Uint8Array } | { t: number; kind: "frame"; text: string } | { t: number; kind: "sent"; text: string; by?: CaptureSender };

// ---------------------------------------------------------------------------
// Writer
// ---------------------------------------------------------------------------

export interface CaptureWriterOptions {
  /** When recording began (ms since the epoch); event times are relative to it. */
  startedAt: number;
  pier: string;
  piCommand?: string[];
  redact?: RedactionOptions;
  /** Stop recording beyond this many characters of output (default 128 MiB). */
  maxBytes?: number;
}

export const DEFAULT_CAPTURE_MAX_BYTES = 128 * 1024 * 1024;
/** A line of pi's output held for redaction beyond this is written as text-redacted bytes. */
const MAX_HELD_BYTES = 32 * 1024 * 1024;

/** A chunk of pi's bytes waiting for the end of the last line it touches. */
interface HeldChunk {
  t: number;
  /** Redacted output of its earlier, complete lines. */
  done: Uint8Array[];
  /** Bytes not processed yet (all in the line still arriving). */
  raw: Uint8Array;
}

type QueuedLine = string | HeldChunk;

const utf8 = new TextDecoder("utf-8");

export class CaptureWriter {
  readonly #header: CaptureHeader;
  readonly #startedAt: number;
  readonly #redact: RedactionOptions;
  readonly #redacting: boolean;
  readonly #maxBytes: number;
  readonly #tracker = new ToolCallTracker();
  #lastT = 0;
  /** Output lines in order; a HeldChunk until its bytes are final. */
  #queue: QueuedLine[] = [];
  #queueHead = 0;
  /** Chunks of the line still arriving (redaction only), in order. */
  #held: HeldChunk[] = [];
  #heldBytes = 0;
  #lines: string[] = [];
  #size = 0;
  #truncated = false;
  #finished = false;

  constructor(options: CaptureWriterOptions) {
    this.#startedAt = options.startedAt;
    this.#redact = { secrets: options.redact?.secrets === true, fileContents: options.redact?.fileContents === true };
    this.#redacting = this.#redact.secrets === true || this.#redact.fileContents === true;
    this.#maxBytes = options.maxBytes ?? DEFAULT_CAPTURE_MAX_BYTES;
    const redacted: string[] = [];
    if (this.#redact.secrets) redacted.push("secrets");
    if (this.#redact.fileContents) redacted.push("file-contents");
    this.#header = {
      type: CAPTURE_TYPE,
      version: CAPTURE_VERSION,
      startedAt: new Date(options.startedAt).toISOString(),
      pier: options.pier,
      ...(options.piCommand === undefined ? {} : { pi: { command: this.#redact.secrets ? redactCommandLine(options.piCommand) : [...options.piCommand] } }),
      redacted,
    };
  }

  /** Time since start, never decreasing (a clock that steps back would make the file unreadable). */
  #time(at: number): number {
    const t = Math.max(this.#lastT, Math.round(at - this.#startedAt));
    this.#lastT = t;
    return t;
  }

  /** A chunk of pi's stdout, exactly as received. */
  addBytes(bytes: Uint8Array, at: number): void {
    if (this.#finished || this.#truncated) return;
    const t = this.#time(at);
    if (!this.#redacting) {
      this.#enqueue(JSON.stringify({ t, k: "bytes", b: encodeBase64(bytes) }));
      return;
    }
    // Copy: the caller may reuse its buffer, and this chunk may wait.
    const held: HeldChunk = { t, done: [], raw: bytes.slice() };
    this.#held.push(held);
    this.#heldBytes += bytes.length;
    this.#queue.push(held);
    if (bytes.includes(0x0a)) this.#redactCompleteLines();
    else if (this.#heldBytes > MAX_HELD_BYTES) this.#flushHeld(false);
    this.#drain();
  }

  /** A relay text frame, as received. */
  addFrame(text: string, at: number): void {
    if (this.#finished || this.#truncated) return;
    const t = this.#time(at);
    const redacted = this.#redacting ? redactJsonText(text, this.#redact) : text;
    let f: unknown = redacted;
    try {
      const value: unknown = JSON.parse(redacted);
      if (typeof value === "object" && value !== null && JSON.stringify(value) === redacted) f = value;
    } catch {
      if (this.#redact.secrets) f = redactSecretsInText(redacted);
    }
    this.#enqueue(JSON.stringify({ t, k: "frame", f }));
  }

  /** A command this browser sent (the exact text), and who sent it. */
  addSent(text: string, at: number, by?: CaptureSender): void {
    if (this.#finished || this.#truncated) return;
    const t = this.#time(at);
    const c = this.#redacting ? redactJsonText(text, this.#redact) : text;
    this.#enqueue(JSON.stringify(by === undefined ? { t, k: "sent", c } : { t, k: "sent", c, by: { clientId: by.clientId, ...(by.name === undefined ? {} : { name: by.name }) } }));
  }

  #enqueue(line: string): void {
    this.#queue.push(line);
    this.#drain();
  }

  /** Move finished lines from the front of the queue to the output. */
  #drain(): void {
    while (this.#queueHead < this.#queue.length) {
      const item = this.#queue[this.#queueHead]!;
      let line: string;
      if (typeof item === "string") line = item;
      else if (item.raw.length === 0) line = JSON.stringify({ t: item.t, k: "bytes", b: encodeBase64(concatBytes(item.done)) });
      else break;
      this.#queueHead++;
      this.#write(line);
    }
    if (this.#queueHead > 256 && this.#queueHead * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#queueHead);
      this.#queueHead = 0;
    }
  }

  #write(line: string): void {
    if (this.#truncated) return;
    if (this.#size + line.length + 1 > this.#maxBytes) {
      this.#truncated = true;
      return;
    }
    this.#lines.push(line);
    this.#size += line.length + 1;
  }

  /**
   * The held chunks' raw bytes start at a line start and the last of them
   * holds an LF: redact every complete line, cut the result back at the
   * chunks' boundaries (moved by the edits) and release the finished chunks.
   */
  #redactCompleteLines(): void {
    const stream = concatBytes(this.#held.map((h) => h.raw));
    const lastLf = stream.lastIndexOf(0x0a);
    if (lastLf === -1) return;
    const regionEnd = lastLf + 1;
    // Redact line by line; keep the edits in stream offsets.
    const edits: Edit[] = [];
    let lineStart = 0;
    for (let lf = stream.indexOf(0x0a); lf !== -1 && lf < regionEnd; lf = stream.indexOf(0x0a, lineStart)) {
      for (const edit of redactLine(stream.subarray(lineStart, lf), this.#redact, this.#tracker)) {
        edits.push({ start: edit.start + lineStart, end: edit.end + lineStart, replacement: edit.replacement });
      }
      lineStart = lf + 1;
    }
    const region = applyEdits(stream.subarray(0, regionEnd), edits);
    let offset = 0;
    for (const held of this.#held) {
      const from = offset;
      const to = offset + held.raw.length;
      offset = to;
      if (to <= regionEnd) {
        held.done.push(region.subarray(mapOffset(edits, from), mapOffset(edits, to)));
        held.raw = held.raw.subarray(held.raw.length);
      } else {
        held.done.push(region.subarray(mapOffset(edits, from)));
        held.raw = held.raw.subarray(regionEnd - from);
      }
    }
    this.#held = this.#held.filter((h) => h.raw.length > 0);
    this.#heldBytes = this.#held.reduce((n, h) => n + h.raw.length, 0);
  }

  /** Release what is held without waiting for an LF: at the end, or when a line grows past MAX_HELD_BYTES. */
  #flushHeld(lineIsComplete: boolean): void {
    if (this.#held.length === 0) return;
    const stream = concatBytes(this.#held.map((h) => h.raw));
    // A complete last line (no LF at end of stream) can still be redacted as JSON; a part of a line only as text.
    const edits = lineIsComplete ? redactLine(stream, this.#redact, this.#tracker) : [];
    let out = applyEdits(stream, edits);
    let map = (x: number): number => mapOffset(edits, x);
    if (!lineIsComplete && this.#redact.secrets) {
      const text = utf8.decode(stream);
      const redacted = redactSecretsInText(text);
      if (redacted !== text) {
        // Boundaries cannot be placed inside rewritten text: keep the whole line in the first chunk.
        out = new TextEncoder().encode(redacted);
        map = (x: number): number => (x === 0 ? 0 : out.length);
      }
    }
    let offset = 0;
    for (const held of this.#held) {
      held.done.push(out.subarray(map(offset), map(offset + held.raw.length)));
      offset += held.raw.length;
      held.raw = held.raw.subarray(held.raw.length);
    }
    this.#held = [];
    this.#heldBytes = 0;
  }

  /** Stop recording: release anything held. Later events are ignored. */
  finish(): void {
    if (this.#finished) return;
    this.#flushHeld(true);
    this.#drain();
    this.#finished = true;
  }

  get truncated(): boolean {
    return this.#truncated;
  }

  /** Characters of output so far (header excluded). */
  get size(): number {
    return this.#size;
  }

  /** Event lines written so far (not counting any still held for redaction). */
  get eventCount(): number {
    return this.#lines.length;
  }

  /** The header as it stands (truncated is set once the limit was hit). */
  header(): CaptureHeader {
    return this.#truncated ? { ...this.#header, truncated: true } : { ...this.#header };
  }

  /** The file so far, one string per line with its "\n": header first. Call finish() first for a complete file. */
  parts(): string[] {
    return [`${JSON.stringify(this.header())}\n`, ...this.#lines.map((line) => `${line}\n`)];
  }

  /** The whole file as text. */
  text(): string {
    return this.parts().join("");
  }
}

// ---------------------------------------------------------------------------
// Reader
// ---------------------------------------------------------------------------

export type CaptureErrorCode =
  "too_large" | "line_too_long" | "empty" | "bad_header" | "unsupported_version" | "bad_line" | "unknown_kind" | "bad_base64" | "time_backwards" | "truncated" | "bad_note";

export interface CaptureError {
  code: CaptureErrorCode;
  /** 1-based line of the file (0 for the file as a whole). */
  line: number;
  message: string;
}

/** Where the parts of the text are (UTF-16 offsets): to write the file again with other notes and every other line unchanged. */
export interface CaptureLayout {
  /** Just after line 1 (the header) and its newline. */
  headerEnd: number;
  /** Just after the last event line (and its newline, if it has one). */
  eventsEnd: number;
}

export type CaptureReadResult =
  | { ok: true; header: CaptureHeader; events: CaptureEvent[]; notes: CaptureNote[]; layout: CaptureLayout }
  /** `header` and `events` hold what was read before the error (e.g. to offer what is readable of a cut-off file). */
  | { ok: false; error: CaptureError; header: CaptureHeader | null; events: CaptureEvent[] };

export interface CaptureLimits {
  /** Characters in the whole file (default 256 Mi). */
  maxFileChars?: number;
  /** Characters in one line (default 64 Mi). */
  maxLineChars?: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseHeader(line: string): CaptureHeader | CaptureError {
  const bad = (message: string): CaptureError => ({ code: "bad_header", line: 1, message });
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return bad("Line 1 is not JSON: this is not a Pier capture file.");
  }
  if (!isRecord(value) || value["type"] !== CAPTURE_TYPE) return bad('Line 1 is not a Pier capture header (type "pier-capture").');
  const version = value["version"];
  if (version !== CAPTURE_VERSION && version !== CAPTURE_NOTES_VERSION) {
    return { code: "unsupported_version", line: 1, message: `Capture version ${JSON.stringify(version)} is not supported (this Pier reads versions ${CAPTURE_VERSION} and ${CAPTURE_NOTES_VERSION}).` };
  }
  const startedAt = value["startedAt"];
  if (typeof startedAt !== "string" || Number.isNaN(Date.parse(startedAt))) return bad("The header's startedAt is not an ISO date.");
  if (typeof value["pier"] !== "string") return bad("The header's pier (the relay version) is not a string.");
  const redacted = value["redacted"];
  if (!Array.isArray(redacted) || !redacted.every((r) => typeof r === "string")) return bad("The header's redacted is not a list of strings.");
  const header: CaptureHeader = { type: CAPTURE_TYPE, version, startedAt, pier: value["pier"], redacted: [...redacted] };
  if (value["pi"] !== undefined) {
    const pi = value["pi"];
    if (!isRecord(pi) || !Array.isArray(pi["command"]) || !pi["command"].every((a) => typeof a === "string")) return bad("The header's pi.command is not a list of strings.");
    header.pi = { command: [...(pi["command"] as string[])] };
  }
  if (value["truncated"] === true) header.truncated = true;
  return header;
}

function parseSender(value: unknown): CaptureSender | null | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value) || typeof value["clientId"] !== "string") return null;
  if (value["name"] !== undefined && typeof value["name"] !== "string") return null;
  return value["name"] === undefined ? { clientId: value["clientId"] } : { clientId: value["clientId"], name: value["name"] as string };
}

/** A note line, checked on its own (its position and records are checked once every event is read). */
type NoteLine = { note: NoteAt };

function parseEvent(line: string, lineNo: number, lastT: number): CaptureEvent | CaptureError | NoteLine {
  const bad = (message: string, code: CaptureErrorCode = "bad_line"): CaptureError => ({ code, line: lineNo, message: `Line ${lineNo}: ${message}` });
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return bad("not JSON.");
  }
  if (!isRecord(value)) return bad("not a JSON object.");
  if (value["k"] === "note") {
    const note = parseNote(value, lineNo);
    return "code" in note ? note : { note };
  }
  const t = value["t"];
  if (typeof t !== "number" || !Number.isFinite(t) || t < 0) return bad('"t" must be a number of milliseconds ≥ 0.');
  if (t < lastT) return bad(`time goes backwards (${t} ms after ${lastT} ms).`, "time_backwards");
  switch (value["k"]) {
    case "bytes": {
      const b = value["b"];
      if (typeof b !== "string") return bad('a "bytes" event needs "b", a base64 string.');
      const bytes = decodeBase64(b);
      if (bytes === null) return bad('"b" is not valid base64.', "bad_base64");
      return { t, kind: "bytes", bytes };
    }
    case "frame": {
      const f = value["f"];
      if (typeof f === "string") return { t, kind: "frame", text: f };
      if (isRecord(f)) return { t, kind: "frame", text: JSON.stringify(f) };
      return bad('a "frame" event needs "f", a frame object or its text.');
    }
    case "sent": {
      const c = value["c"];
      if (typeof c !== "string") return bad('a "sent" event needs "c", the command text.');
      const by = parseSender(value["by"]);
      if (by === null) return bad('"by" must be {clientId, name?} with strings.');
      return by === undefined ? { t, kind: "sent", text: c } : { t, kind: "sent", text: c, by };
    }
    default:
      return bad(`unknown event kind ${JSON.stringify(value["k"]) ?? "(none)"} (expected bytes, frame, sent or note).`, "unknown_kind");
  }
}

/**
 * Reads a capture's text a slice at a time (untrusted, exactly as
 * readCapture, which is this run to the end): every line is checked in full
 * (JSON, types, strict base64, times) before its event is handed out, so a
 * page can show the first events while the rest is still being read, and a
 * bad line anywhere still stops the reading with its code and line number.
 */
export class CaptureTextReader {
  readonly text: string;
  readonly #maxLine: number;
  header: CaptureHeader | null = null;
  /** The events read so far (grows; never changes once handed out). */
  readonly events: CaptureEvent[] = [];
  readonly layout: CaptureLayout = { headerEnd: 0, eventsEnd: 0 };
  /** Set once the reading stopped at a problem. */
  error: CaptureError | null = null;
  /** The notes, checked against every event, once the reading is done. */
  notes: CaptureNote[] = [];
  #done = false;
  #lastT = 0;
  #lineNo = 0;
  #start = 0;
  readonly #pendingNotes: NoteAt[] = [];

  constructor(text: string, limits: CaptureLimits = {}) {
    this.text = text;
    const maxFile = limits.maxFileChars ?? 256 * 1024 * 1024;
    this.#maxLine = limits.maxLineChars ?? 64 * 1024 * 1024;
    if (text.length > maxFile) this.#fail({ code: "too_large", line: 0, message: `The file is larger than ${maxFile} characters.` });
    else if (text.length === 0) this.#fail({ code: "empty", line: 0, message: "The file is empty." });
  }

  /** The reading reached the end of the file (or stopped at a problem). */
  get finished(): boolean {
    return this.#done;
  }

  /** Characters of the file read so far. */
  get charsRead(): number {
    return Math.min(this.#start, this.text.length);
  }

  /**
   * Read on until the end, or until `stop()` says enough (asked after each
   * event, so at least one event is read per call). Returns finished.
   */
  readSome(stop: () => boolean = () => false): boolean {
    const text = this.text;
    while (!this.#done && this.#start < text.length) {
      this.#lineNo++;
      const lineNo = this.#lineNo;
      const start = this.#start;
      let end = text.indexOf("\n", start);
      const complete = end !== -1;
      if (!complete) end = text.length;
      if (end - start > this.#maxLine) return this.#fail({ code: "line_too_long", line: lineNo, message: `Line ${lineNo} is longer than ${this.#maxLine} characters.` });
      let line = text.slice(start, end);
      this.#start = end + 1;
      const after = Math.min(this.#start, text.length);
      if (line.endsWith("\r")) line = line.slice(0, -1); // saved by an editor with CRLF line ends
      if (this.header === null) {
        const parsed = parseHeader(line);
        if ("code" in parsed) return this.#fail(parsed);
        this.header = parsed;
        this.layout.headerEnd = this.layout.eventsEnd = after;
        continue;
      }
      if (line.trim() === "") continue;
      const event = parseEvent(line, lineNo, this.#lastT);
      if ("code" in event) {
        // A last line without its newline that does not parse: the file was cut off while being written.
        if (!complete && event.code === "bad_line") return this.#fail({ code: "truncated", line: lineNo, message: `Line ${lineNo} is cut off: the file ends in the middle of an event.` });
        return this.#fail(event);
      }
      if ("note" in event) {
        if (this.header.version === CAPTURE_VERSION)
          return this.#fail({ code: "bad_note", line: lineNo, message: `Line ${lineNo}: a note in a version ${CAPTURE_VERSION} capture (notes came with version ${CAPTURE_NOTES_VERSION}).` });
        this.#pendingNotes.push(event.note);
        continue;
      }
      if (this.#pendingNotes.length > 0) return this.#fail({ code: "bad_note", line: lineNo, message: `Line ${lineNo}: an event after the notes (notes come after every event).` });
      this.#lastT = event.t;
      this.events.push(event);
      this.layout.eventsEnd = after;
      if (stop()) return false;
    }
    if (this.#done) return true;
    if (this.header === null) return this.#fail({ code: "empty", line: 0, message: "The file is empty." });
    const checked = checkNotes(this.#pendingNotes, this.events);
    if (!Array.isArray(checked)) return this.#fail(checked);
    this.notes = checked;
    this.#done = true;
    return true;
  }

  #fail(error: CaptureError): true {
    this.error = error;
    this.#done = true;
    return true;
  }
}

/** Read a capture file (untrusted), all of it. */
export function readCapture(text: string, limits: CaptureLimits = {}): CaptureReadResult {
  const reader = new CaptureTextReader(text, limits);
  reader.readSome();
  if (reader.error !== null) return { ok: false, error: reader.error, header: reader.header, events: reader.events };
  return { ok: true, header: reader.header!, events: reader.events, notes: reader.notes, layout: reader.layout };
}
