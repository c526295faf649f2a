// Reads one pi session file into what the session list shows: its header, the
// number of messages, the first prompt, the latest name, the cost, and a
// short lower-cased text of the user's prompts for search.
//
// Session files only grow (pi appends one JSON line per entry), so a scan
// keeps its place: when the same file (same device and inode) is larger and
// the bytes already read still start and end the same way, only the new bytes
// are read. Anything else is scanned again from the start.
//
// Lines are split on LF bytes only (never readline: U+2028 is legal inside a
// JSON string). The last line counts only once its LF has arrived: pi may be
// in the middle of appending it. A line is parsed only when its first bytes
// say it matters (pi writes `{"type":…` first, and a message's role right
// after its timestamp); a tool result is counted from those bytes alone.
// Lines over MAX_PARSED_LINE (a 50 MB tool output) are never held whole: only
// their first and last bytes are kept. Reading stops at MAX_SCAN_BYTES per
// file (`partial`).
import { closeSync, readSync } from "node:fs";
import { stat } from "node:fs/promises";
import { openRegularFileSync } from "../regular-file.ts";
import type { SessionListItem } from "@pier/protocol";

export const SUMMARY_LIMITS = {
  /** Bytes of one file read at most; the rest is left out (`partial`). */
  maxScanBytes: 64 * 1024 * 1024,
  /** pi gives up looking for a header after this many bytes (readSessionHeader). */
  maxHeaderScanBytes: 1024 * 1024,
  /** Longer lines are not parsed; their first and last bytes are looked at. */
  maxParsedLine: 2 * 1024 * 1024,
  oversizedHeadBytes: 64 * 1024,
  oversizedTailBytes: 4 * 1024,
  firstPromptChars: 300,
  searchChars: 2000,
} as const;

const CHUNK_BYTES = 1024 * 1024;
const HEADER_CHUNK_BYTES = 4096;
/** Bytes kept from the start of the file, and from just before the read position, to notice a rewrite. */
const HEAD_CHECK_BYTES = 256;
const TAIL_CHECK_BYTES = 64;
/** Enough of a line to find `"type"` and a message's `"role"` in what pi writes. */
const PREFIX_CHARS = 256;
const LF = 0x0a;

/** What identifies a file's state on disk (from a stat); ctime also moves on chmod. */
export type FileIdentity = { dev: number; ino: number; size: number; mtimeMs: number; ctimeMs: number };

export type SessionHeaderFacts = {
  id: string;
  /** "" when the header has none. */
  cwd: string;
  /** The header's timestamp as written ("" when missing). */
  created: string;
  parentSession: string | null;
};

/** How far to read: only to the header (enough to filter by cwd), or everything. */
export type ScanDepth = "header" | "full";

/** What is known about one file, and where reading it stopped. Treat as read-only. */
export type SessionScan = {
  path: string;
  /** The file as it was when this scan was made. */
  file: FileIdentity;
  /** Bytes consumed: the end of the last complete line read. */
  offset: number;
  /** The whole file (up to the cap) was read, not just up to the header. */
  complete: boolean;
  /** The first bytes of the file and the bytes just before `offset`, to notice a rewrite. */
  head: Buffer;
  tail: Buffer;
  header: SessionHeaderFacts | null;
  /** Why the file is not listed as a session; null when it is one. */
  error: string | null;
  /** The file disappeared before it could be read. */
  vanished: boolean;
  messageCount: number;
  name: string | null;
  firstPrompt: string | null;
  cost: number | null;
  /** User prompts, whitespace collapsed, lower-cased, at most SUMMARY_LIMITS.searchChars. */
  searchText: string;
  partial: boolean;
  /** Bytes read from this file so far, over all scans (diagnostics and tests). */
  bytesRead: number;
};

/** The few file operations a scan needs; Node's FileHandle has them. Injectable for tests. */
export type SessionFileHandle = {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
};
export type SessionFileReader = { open(path: string): Promise<SessionFileHandle> };

/**
 * The default reader: synchronous system calls behind the async interface.
 * On a local disk they are about ten times faster than the thread pool's
 * (2,000 open/read/close: ~10 ms against ~100 ms here), and pi itself reads
 * session files synchronously. Callers yield to the event loop between files.
 */
export const fsReader: SessionFileReader = {
  async open(path) {
    // Without blocking (a synchronous open of a named pipe would freeze the
    // relay) and without following a link: listed files are regular files,
    // and one swapped since is not read.
    const opened = openRegularFileSync(path, { what: "a session file", noFollow: true });
    if (!opened.ok) throw Object.assign(new Error(opened.message), { code: opened.kind === "a folder" ? "EISDIR" : opened.code });
    const fd = opened.fd;
    return {
      read: async (buffer, offset, length, position) => ({ bytesRead: readSync(fd, buffer, offset, length, position) }),
      close: async () => closeSync(fd),
    };
  },
};

/**
 * Scans `path` (whose stat gave `file`), continuing from `previous` when the
 * file only grew. Never throws: an unreadable file comes back with `error`.
 */
export async function scanSessionFile(path: string, file: FileIdentity, previous: SessionScan | undefined, depth: ScanDepth, reader: SessionFileReader = fsReader): Promise<SessionScan> {
  if (previous && scanIsCurrent(previous, file, depth)) return previous;
  let handle: SessionFileHandle;
  try {
    handle = await reader.open(path);
  } catch (error) {
    return failed(path, file, previous, error);
  }
  const scan = freshScan(path, file, previous);
  try {
    const resumed = previous ? await resumable(handle, previous, file, scan) : null;
    if (resumed) {
      if (resumed.partial) return { ...resumed, file, bytesRead: scan.bytesRead };
      Object.assign(scan, resumed, { file, bytesRead: scan.bytesRead, complete: false });
    }
    await readLines(handle, scan, depth);
    return scan;
  } catch (error) {
    return failed(path, file, scan, error);
  } finally {
    await handle.close().catch(() => {});
  }
}

/** True when `scan` already tells all `depth` asks about the file as `file` describes it. */
export function scanIsCurrent(scan: SessionScan, file: FileIdentity, depth: ScanDepth): boolean {
  return sameState(scan.file, file) && (scan.error !== null || scan.partial || scan.complete || depth === "header");
}

/** The list item for a scan of a readable or unreadable file. */
export function toListItem(scan: SessionScan, cwdExists: boolean): SessionListItem {
  const modified = Math.trunc(scan.file.mtimeMs);
  if (scan.error !== null || scan.header === null) {
    return { readable: false, path: scan.path, modified, error: scan.error ?? "not a pi session: it has no session header" };
  }
  const { header } = scan;
  return {
    readable: true,
    path: scan.path,
    id: header.id,
    cwd: header.cwd,
    cwdExists,
    name: scan.name,
    firstPrompt: scan.firstPrompt,
    created: header.created || new Date(modified).toISOString(),
    modified,
    messageCount: scan.messageCount,
    cost: scan.cost,
    parentSession: header.parentSession,
    partial: scan.partial,
  };
}

/**
 * One line (without its LF) looked at as a header candidate, like pi's
 * readSessionHeader: undefined for a blank or malformed line (pi skips those
 * and keeps looking), null for an entry that is not a session header.
 */
export function parseHeaderLine(line: Buffer): SessionHeaderFacts | null | undefined {
  const entry = parseJson(line);
  if (!entry) return undefined;
  if (!isRecord(entry) || entry.type !== "session" || typeof entry.id !== "string") return null;
  return {
    id: entry.id,
    cwd: typeof entry.cwd === "string" ? entry.cwd : "",
    created: typeof entry.timestamp === "string" ? entry.timestamp : "",
    parentSession: typeof entry.parentSession === "string" ? entry.parentSession : null,
  };
}

/**
 * Whether a session's working folder exists (pi refuses to switch to a
 * session whose folder is gone), cached for `ttlMs`: a page of sessions
 * mostly shares one folder.
 */
export class CwdProbe {
  readonly #ttlMs: number;
  readonly #known = new Map<string, { exists: boolean; at: number }>();

  constructor(ttlMs = 5000) {
    this.#ttlMs = ttlMs;
  }

  async exists(cwd: string): Promise<boolean> {
    // pi's check (existsSync) is skipped for an empty cwd.
    if (cwd === "") return true;
    const now = Date.now();
    const known = this.#known.get(cwd);
    if (known && now - known.at < this.#ttlMs) return known.exists;
    const exists = await stat(cwd).then(
      () => true,
      () => false,
    );
    if (this.#known.size > 1000) this.#known.clear();
    this.#known.set(cwd, { exists, at: now });
    return exists;
  }
}

// ---------------------------------------------------------------------------

function sameState(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

function freshScan(path: string, file: FileIdentity, previous: SessionScan | undefined): SessionScan {
  return {
    path,
    file,
    offset: 0,
    complete: false,
    head: Buffer.alloc(0),
    tail: Buffer.alloc(0),
    header: null,
    error: null,
    vanished: false,
    messageCount: 0,
    name: null,
    firstPrompt: null,
    cost: null,
    searchText: "",
    partial: false,
    bytesRead: previous?.bytesRead ?? 0,
  };
}

/**
 * `previous` when reading can go on from its offset: the same file, grown
 * (or untouched), whose first bytes and bytes before the offset are unchanged.
 * Counts what it reads into `counter.bytesRead`.
 */
async function resumable(handle: SessionFileHandle, previous: SessionScan, file: FileIdentity, counter: SessionScan): Promise<SessionScan | null> {
  const prev = previous.file;
  if (previous.error !== null || previous.header === null || previous.offset === 0) return null;
  if (prev.dev !== file.dev || prev.ino !== file.ino) return null;
  if (sameState(prev, file)) return previous;
  // Same size but touched: pi never does that; read again rather than trust it.
  if (file.size <= prev.size) return null;
  if (previous.partial) return previous;
  const same = async (expected: Buffer, position: number) => {
    const actual = Buffer.alloc(expected.length);
    const { bytesRead } = await handle.read(actual, 0, expected.length, position);
    counter.bytesRead += bytesRead;
    return bytesRead === expected.length && actual.equals(expected);
  };
  if (!(await same(previous.head, 0))) return null;
  if (!(await same(previous.tail, previous.offset - previous.tail.length))) return null;
  return previous;
}

function failed(path: string, file: FileIdentity, previous: SessionScan | undefined, error: unknown): SessionScan {
  const code = errnoCode(error);
  const scan = freshScan(path, file, previous);
  scan.vanished = code === "ENOENT" || code === "ENOTDIR";
  scan.error = ioErrorSentence(code, error);
  return scan;
}

export function ioErrorSentence(code: string | undefined, error: unknown): string {
  switch (code) {
    case "ENOENT":
    case "ENOTDIR":
      return "the file is gone";
    case "EACCES":
    case "EPERM":
      return "the relay may not read it (permission denied)";
    case "EISDIR":
      return "it is a folder, not a file";
    case "ELOOP":
      return "it is a symbolic link now, and session files are not read through one";
    case "not_regular":
      return "it is not a regular file (a named pipe, a device…)";
    default:
      return `it cannot be read (${code ?? (error instanceof Error ? error.message : String(error))})`;
  }
}

function errnoCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

/** One complete line: whole, or (over MAX_PARSED_LINE) only its first and last bytes. */
type Line = { head: Buffer; tail: Buffer; whole: boolean };

/** Collects a line that spans reads, keeping at most MAX_PARSED_LINE bytes of it. */
class LineBuilder {
  #parts: Buffer[] = [];
  #length = 0;
  #head: Buffer | null = null;
  #tail: Buffer = Buffer.alloc(0);

  get empty(): boolean {
    return this.#length === 0;
  }

  /** Adds bytes of a buffer that will be reused (they are copied). */
  add(piece: Buffer): void {
    if (piece.length === 0) return;
    this.#length += piece.length;
    if (this.#head === null && this.#length <= SUMMARY_LIMITS.maxParsedLine) {
      this.#parts.push(Buffer.from(piece));
      return;
    }
    const keep = SUMMARY_LIMITS.oversizedTailBytes;
    if (this.#head === null) {
      // From here on only the line's first and last bytes are kept.
      const held = [...this.#parts, piece];
      this.#head = Buffer.concat(held, SUMMARY_LIMITS.oversizedHeadBytes);
      this.#tail = lastBytes(held, keep);
      this.#parts = [];
      return;
    }
    this.#tail = lastBytes([this.#tail, piece], keep);
  }

  /** The line so far plus `last` (which may be a view into a reused buffer: use the result at once). */
  finish(last: Buffer): Line {
    let line: Line;
    if (this.#length === 0) {
      line = { head: last, tail: last, whole: true };
    } else {
      this.add(last);
      if (this.#head === null) {
        const whole = Buffer.concat(this.#parts);
        line = { head: whole, tail: whole, whole: true };
      } else {
        line = { head: this.#head, tail: this.#tail, whole: false };
      }
    }
    this.#parts = [];
    this.#length = 0;
    this.#head = null;
    this.#tail = Buffer.alloc(0);
    return line;
  }

  /** The unfinished line, when it is small enough to look at. */
  pending(): Buffer | null {
    return this.#head === null ? Buffer.concat(this.#parts) : null;
  }
}

/** Reads from scan.offset on, line by line, into `scan`. */
async function readLines(handle: SessionFileHandle, scan: SessionScan, depth: ScanDepth): Promise<void> {
  const limit = SUMMARY_LIMITS.maxScanBytes;
  const expected = Math.max(0, scan.file.size - scan.offset);
  const size = scan.header === null && depth === "header" ? HEADER_CHUNK_BYTES : Math.min(CHUNK_BYTES, Math.max(HEADER_CHUNK_BYTES, expected + 1));
  const buffer = Buffer.allocUnsafe(size);
  const line = new LineBuilder();
  let position = scan.offset;
  let sawMalformed = false;
  for (;;) {
    if (position >= limit) {
      scan.partial = scan.file.size > limit;
      break;
    }
    const want = Math.min(buffer.length, limit - position);
    const { bytesRead } = await handle.read(buffer, 0, want, position);
    scan.bytesRead += bytesRead;
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    if (position === 0) scan.head = Buffer.from(chunk.subarray(0, HEAD_CHECK_BYTES));
    let start = 0;
    for (;;) {
      const lf = chunk.indexOf(LF, start);
      if (lf === -1) {
        line.add(chunk.subarray(start));
        break;
      }
      const complete = line.finish(chunk.subarray(start, lf));
      start = lf + 1;
      scan.offset = position + start;
      scan.tail = tailOf(complete.tail);
      if (scan.header === null) {
        const found = complete.whole ? parseHeaderLine(complete.head) : null;
        if (found === undefined) {
          if (!isBlank(complete.head)) sawMalformed = true;
        } else if (found === null) {
          scan.error = "not a pi session: its first line is not a session header";
          return;
        } else {
          scan.header = found;
          // The lines after it are parsed only when the whole file is wanted.
          if (depth === "header") return;
        }
      } else {
        takeLine(scan, complete);
      }
    }
    position += bytesRead;
    if (scan.header === null && position >= SUMMARY_LIMITS.maxHeaderScanBytes) {
      scan.error = `not a pi session: no session header in its first ${SUMMARY_LIMITS.maxHeaderScanBytes / 1024 / 1024} MiB`;
      return;
    }
    // A short read of a regular file is its end (for now).
    if (bytesRead < want) break;
  }
  if (scan.header === null) {
    // pi accepts a header whose newline has not been written yet; it is not
    // consumed (offset stays 0), so the next scan starts over.
    const pending = line.pending();
    const found = pending && pending.length > 0 ? parseHeaderLine(pending) : undefined;
    if (found) scan.header = found;
    else if (found === null) scan.error = "not a pi session: its first line is not a session header";
    else if (sawMalformed || (pending !== null && !isBlank(pending))) scan.error = "not a pi session: its first line is not JSON";
    else scan.error = scan.offset === 0 && (pending === null || pending.length === 0) && scan.file.size === 0 ? "the file is empty" : "the file holds no entries";
    if (found) scan.offset = 0;
  }
  scan.complete = depth === "full";
}

/** A copy of the last `count` bytes of some buffers laid end to end. */
function lastBytes(buffers: Buffer[], count: number): Buffer {
  const picked: Buffer[] = [];
  let length = 0;
  for (let i = buffers.length - 1; i >= 0 && length < count; i--) {
    const buffer = buffers[i]!;
    const take = Math.min(buffer.length, count - length);
    picked.unshift(buffer.subarray(buffer.length - take));
    length += take;
  }
  return Buffer.concat(picked, length);
}

function tailOf(bytes: Buffer): Buffer {
  const keep = TAIL_CHECK_BYTES - 1;
  const out = Buffer.allocUnsafe(Math.min(bytes.length, keep) + 1);
  bytes.copy(out, 0, Math.max(0, bytes.length - keep));
  out[out.length - 1] = LF;
  return out;
}

const TYPE_AT_START = /^\{"type":"([A-Za-z_]+)"/;
const ROLE = /"message":\{"role":"([A-Za-z_]+)"/;

/** One complete line after the header. */
function takeLine(scan: SessionScan, line: Line): void {
  const prefix = line.head.toString("latin1", 0, Math.min(line.head.length, PREFIX_CHARS));
  const type = TYPE_AT_START.exec(prefix)?.[1];
  if (type === undefined) {
    // Not written by pi's JSON.stringify (or garbage): parse it to be sure.
    if (line.whole) takeEntry(scan, parseJson(line.head));
    return;
  }
  switch (type) {
    case "message":
      return takeMessageLine(scan, line, prefix);
    case "session_info":
      if (line.whole) takeEntry(scan, parseJson(line.head));
      return;
    case "usage":
    case "compaction":
    case "branch_summary":
      if (line.whole) takeEntry(scan, parseJson(line.head));
      else if (endsLikeJson(line.tail)) addCost(scan, usageNear(line.tail));
      return;
    default:
      return;
  }
}

function takeMessageLine(scan: SessionScan, line: Line, prefix: string): void {
  const role = ROLE.exec(prefix)?.[1];
  if (role === undefined || role === "user" || role === "assistant") {
    if (line.whole) return takeEntry(scan, parseJson(line.head));
    if (role === undefined || !endsLikeJson(line.tail)) return;
    scan.messageCount++;
    if (role === "user") takePrompt(scan, promptInPrefix(line.head.toString("utf8")));
    else addCost(scan, usageNear(line.tail));
    return;
  }
  if (role === "system" || !endsLikeJson(line.tail)) return;
  // toolResult, bashExecution, custom…: counted from their first bytes. A
  // tool result may carry usage (pi adds it to the session's cost).
  scan.messageCount++;
  if (role === "toolResult" && line.tail.includes('"usage":{')) {
    if (!line.whole) return addCost(scan, usageNear(line.tail));
    const entry = parseJson(line.head);
    if (isRecord(entry) && isRecord(entry.message)) addCost(scan, entry.message.usage);
  }
}

/** A parsed entry (pi's own rules in buildSessionInfo and getSessionStats). */
function takeEntry(scan: SessionScan, entry: unknown): void {
  if (!isRecord(entry)) return;
  switch (entry.type) {
    case "session_info":
      // The latest one wins; an empty name clears it.
      scan.name = typeof entry.name === "string" ? entry.name.trim() || null : null;
      return;
    case "message": {
      const message = entry.message;
      if (!isRecord(message) || message.role === "system") return;
      scan.messageCount++;
      if (message.role === "user") takePrompt(scan, textOf(message.content));
      else if (message.role === "assistant" || message.role === "toolResult") addCost(scan, message.usage);
      return;
    }
    case "usage":
    case "compaction":
    case "branch_summary":
      addCost(scan, entry.usage);
      return;
  }
}

/** The text of a user message's content: a string, or its text blocks joined (images have none). */
function textOf(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  const texts: string[] = [];
  for (const block of content) {
    if (isRecord(block) && block.type === "text" && typeof block.text === "string") texts.push(block.text);
  }
  return texts.length > 0 ? texts.join(" ") : null;
}

/** Raw characters of a prompt looked at: enough for the first prompt and the search text even after collapsing. */
const PROMPT_SAMPLE_CHARS = 4 * SUMMARY_LIMITS.searchChars;

function takePrompt(scan: SessionScan, text: string | null): void {
  if (text === null) return;
  const collapsed = text.slice(0, PROMPT_SAMPLE_CHARS).replace(/\s+/g, " ").trim();
  // Like pi, the first prompt is the first user message with any text.
  if (collapsed === "") return;
  if (scan.firstPrompt === null) scan.firstPrompt = cut(collapsed, SUMMARY_LIMITS.firstPromptChars);
  const room = SUMMARY_LIMITS.searchChars - scan.searchText.length;
  if (room <= 1) return;
  const separator = scan.searchText === "" ? "" : "\n";
  scan.searchText += separator + collapsed.slice(0, room - separator.length).toLowerCase();
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  // Do not split a surrogate pair.
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end).trimEnd()}…`;
}

/**
 * The start of a user message's text, from the first bytes of a line too long
 * to parse: its string content, or its first text block.
 */
function promptInPrefix(prefix: string): string | null {
  const asString = prefix.indexOf('"content":"');
  if (asString !== -1) return jsonStringStart(prefix, asString + '"content":"'.length);
  const block = prefix.indexOf('"type":"text","text":"');
  if (block !== -1) return jsonStringStart(prefix, block + '"type":"text","text":"'.length);
  return null;
}

const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** Decodes a JSON string from `start` (just after its opening quote) up to its end or the end of `text`. */
function jsonStringStart(text: string, start: number): string {
  let out = "";
  for (let i = start; i < text.length && out.length < PROMPT_SAMPLE_CHARS; i++) {
    const char = text[i]!;
    if (char === '"') break;
    if (char !== "\\") {
      out += char;
      continue;
    }
    const next = text[i + 1];
    if (next === undefined) break;
    if (next === "u") {
      const hex = text.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) break;
      out += String.fromCharCode(parseInt(hex, 16));
      i += 5;
    } else {
      out += ESCAPES[next] ?? next;
      i++;
    }
  }
  return out;
}

/** The usage object nearest the end of a line's last bytes (where pi puts an assistant's usage). */
function usageNear(tail: Buffer): unknown {
  const text = tail.toString("latin1");
  const at = text.lastIndexOf('"usage":{');
  if (at === -1) return undefined;
  const start = at + '"usage":'.length;
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return parseJson(Buffer.from(text.slice(start, i + 1), "latin1"));
    else if (char === '"') {
      // skip a string (usage holds none, but be safe)
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    }
  }
  return undefined;
}

function addCost(scan: SessionScan, usage: unknown): void {
  if (!isRecord(usage) || !isRecord(usage.cost)) return;
  const total = usage.cost.total;
  if (typeof total !== "number" || !Number.isFinite(total)) return;
  scan.cost = (scan.cost ?? 0) + total;
}

/** A complete JSON object line ends with "}" (a line cut short by a crash usually does not). */
function endsLikeJson(tail: Buffer): boolean {
  for (let i = tail.length - 1; i >= 0; i--) {
    const byte = tail[i]!;
    if (byte === 0x20 || byte === 0x09 || byte === 0x0d) continue;
    return byte === 0x7d;
  }
  return false;
}

function isBlank(bytes: Buffer): boolean {
  for (const byte of bytes) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  return true;
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
