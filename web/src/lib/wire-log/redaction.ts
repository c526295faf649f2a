// Redaction for capture files: secrets (API keys, tokens, link secrets) and,
// optionally, file contents (what read returned, what write/edit wrote).
//
// A JSON line is redacted string by string: each string literal that holds
// something to hide is replaced by another valid literal, and every other
// byte stays as it was, so the line is still valid JSON (and still one line:
// a replacement never contains a raw newline). The edits are returned so a
// caller can move chunk boundaries that fell inside the line (mapOffset).
// A line that is not JSON gets the secret patterns applied to its text.
//
// Secrets are found by shape (sk-…, ghp_…, xoxb-…, AKIA…, AIza…, JWTs,
// Bearer/Basic credentials, PEM private keys, ?token= style URL parameters,
// FOO_API_KEY=… assignments) and by place (the value of a key such as token,
// apiKey, authorization, password, secret; the argument after --api-key).
// Each is replaced by a marker of the same kind ("sk-[redacted]"), so a
// reader still sees what was there.

import { REDACTED, redactSecretString, redactSecretsInText } from "@pier/protocol";
import { literalValue, scanStringLiterals } from "./json-strings.ts";

// The rules themselves are shared with the relay, which redacts pi's command
// line and stderr before anything reaches a browser (@pier/protocol secrets.ts).
export { REDACTED, redactCommandLine, redactSecretString, redactSecretsInText } from "@pier/protocol";

export interface RedactionOptions {
  secrets?: boolean;
  fileContents?: boolean;
  /** Home folders (e.g. "/home/alice") to write as "~" wherever a string holds one (an exported page says whose machine it came from otherwise). */
  homes?: readonly string[];
}

/** Characters that continue a folder name: "/home/al" is not the home of "/home/alice". */
const NAME_CHAR = /[A-Za-z0-9._-]/;

/** `text` with each of `homes` (longest first) written as "~" where it is a whole folder. */
export function redactHomes(text: string, homes: readonly string[]): string {
  let out = text;
  for (const home of [...homes].sort((a, b) => b.length - a.length)) {
    if (home.length < 2 || !out.includes(home)) continue;
    let result = "";
    let from = 0;
    for (let at = out.indexOf(home); at !== -1; at = out.indexOf(home, at + home.length)) {
      const next = out[at + home.length];
      if (next !== undefined && NAME_CHAR.test(next)) continue;
      result += `${out.slice(from, at)}~`;
      from = at + home.length;
    }
    out = result + out.slice(from);
  }
  return out;
}

/** Could this (JSON) text hold one of the homes, as written or escaped in a JSON string? */
function mightHoldHome(text: string, homes: readonly string[]): boolean {
  return homes.some((home) => home.length >= 2 && (text.includes(home) || text.includes(JSON.stringify(home).slice(1, -1))));
}

/** Tools whose result is a file's contents, and tools whose arguments are. */
const READ_TOOLS: ReadonlySet<string> = new Set(["read"]);
const WRITE_TOOLS: ReadonlySet<string> = new Set(["write", "edit"]);
/** Arguments of write/edit that name the file rather than hold its contents. */
const PATH_KEYS: ReadonlySet<string> = new Set(["path", "file_path", "filePath"]);

/** Quick tests: could this text hold a secret at all? (Both false means certainly not.) */
const MIGHT_HOLD_SECRET = /sk-|gh[pousr]_|github_pat_|xox[abposr]-|eyJ|AKIA|ASIA|AIza|PRIVATE KEY|API_?KEY|APIKEY|TOKEN|SECRET|PASSW|\\u/;
const MIGHT_HOLD_SECRET_ANY_CASE =
  /bearer|basic|[?&#;][a-z_]+=|(?:token|secret|password|passwd|api_?key|api-key|apikey|authorization|cookie|private_?key|credentials?)"\s*:|--[a-z-]*(?:key|token|secret|password)/i;

/** UTF-8 byte length of a string. */
function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

export function fileContentsMarker(original: string): string {
  return `[file contents removed: ${utf8Length(original)} bytes]`;
}

/**
 * Remembers, across the lines of one stream, which tool each streaming tool
 * call block belongs to: toolcall_delta fragments carry only a contentIndex,
 * and for write/edit they are file contents.
 */
export class ToolCallTracker {
  #names = new Map<number, string>();

  observe(value: unknown): void {
    const record = value as { type?: unknown; message?: { role?: unknown }; assistantMessageEvent?: Record<string, unknown> } | null;
    if (record === null || typeof record !== "object") return;
    if (record.type === "message_start") this.#names.clear();
    const step = record.assistantMessageEvent;
    if (record.type === "message_update" && step && step["type"] === "toolcall_start" && typeof step["contentIndex"] === "number" && typeof step["toolName"] === "string") {
      this.#names.set(step["contentIndex"], step["toolName"]);
    }
  }

  toolAt(contentIndex: number): string | undefined {
    return this.#names.get(contentIndex);
  }
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const seg = (key: string | number): string => `/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;

/**
 * JSON pointers of the strings in `value` that are file contents, with their
 * replacement. Covers tool results of read (content text and image data),
 * write/edit arguments wherever they appear (tool calls, tool_execution_*
 * args, nested call records), edit diffs, and streamed write/edit argument
 * fragments.
 */
export function fileContentPointers(value: unknown, tracker: ToolCallTracker | null): Map<string, string> {
  const found = new Map<string, string>();
  const mark = (pointer: string, text: unknown): void => {
    if (typeof text === "string" && text.length > 0) found.set(pointer, fileContentsMarker(text));
  };
  const markResult = (result: unknown, pointer: string, tool: string): void => {
    if (!isObject(result)) return;
    if (READ_TOOLS.has(tool) && Array.isArray(result["content"])) {
      result["content"].forEach((item, i) => {
        if (!isObject(item)) return;
        mark(`${pointer}/content/${i}/text`, item["text"]);
        mark(`${pointer}/content/${i}/data`, item["data"]);
      });
    }
    if (tool === "edit" && isObject(result["details"])) {
      mark(`${pointer}/details/diff`, result["details"]["diff"]);
      mark(`${pointer}/details/patch`, result["details"]["patch"]);
    }
  };
  const markArguments = (args: unknown, pointer: string, underKey: string | null): void => {
    if (typeof args === "string") {
      if (underKey === null || !PATH_KEYS.has(underKey)) mark(pointer, args);
    } else if (Array.isArray(args)) {
      args.forEach((item, i) => markArguments(item, pointer + seg(i), underKey));
    } else if (isObject(args)) {
      for (const [key, item] of Object.entries(args)) markArguments(item, pointer + seg(key), key);
    }
  };
  const walk = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, pointer + seg(i)));
      return;
    }
    if (!isObject(node)) return;
    const toolName = typeof node["toolName"] === "string" ? node["toolName"] : null;
    const callName = typeof node["name"] === "string" ? node["name"] : null;
    if (node["role"] === "toolResult" && toolName !== null) markResult(node, pointer, toolName);
    if (toolName !== null) {
      markResult(node["result"], `${pointer}/result`, toolName);
      markResult(node["partialResult"], `${pointer}/partialResult`, toolName);
      if (WRITE_TOOLS.has(toolName)) markArguments(node["args"], `${pointer}/args`, null);
    }
    if (callName !== null && WRITE_TOOLS.has(callName)) markArguments(node["arguments"], `${pointer}/arguments`, null);
    for (const [key, item] of Object.entries(node)) if (typeof item === "object" && item !== null) walk(item, pointer + seg(key));
  };
  walk(value, "");
  if (tracker !== null && isObject(value) && value["type"] === "message_update") {
    const step = value["assistantMessageEvent"];
    if (isObject(step) && step["type"] === "toolcall_delta" && typeof step["contentIndex"] === "number") {
      const tool = tracker.toolAt(step["contentIndex"]);
      if (tool !== undefined && WRITE_TOOLS.has(tool)) mark("/assistantMessageEvent/delta", step["delta"]);
    }
  }
  return found;
}

/** One replaced byte range of a line. */
export interface Edit {
  start: number;
  end: number;
  replacement: Uint8Array;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8");

/**
 * Redact one line (no LF; a trailing CR is kept as is). Returns the edits,
 * in order, or an empty list when nothing needed hiding. `tracker` follows
 * streaming tool calls across lines; pass the same one for every line of a
 * stream (null for frames and commands).
 */
export function redactLine(bytes: Uint8Array, options: RedactionOptions, tracker: ToolCallTracker | null): Edit[] {
  const homes = options.homes ?? [];
  if (!options.secrets && !options.fileContents && homes.length === 0) return [];
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === 0x0d) end--;
  const body = bytes.subarray(0, end);
  const text = decoder.decode(body);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON: only the text patterns apply, to the whole line.
    if (!options.secrets && homes.length === 0) return [];
    const redacted = redactHomes(options.secrets ? redactSecretsInText(text) : text, homes);
    return redacted === text ? [] : [{ start: 0, end, replacement: encoder.encode(redacted.replace(/[\r\n]/g, " ")) }];
  }
  const files = options.fileContents ? fileContentPointers(value, tracker) : new Map<string, string>();
  tracker?.observe(value);
  const secrets = options.secrets === true && (MIGHT_HOLD_SECRET.test(text) || MIGHT_HOLD_SECRET_ANY_CASE.test(text));
  const homesHere = homes.length > 0 && mightHoldHome(text, homes);
  if (files.size === 0 && !secrets && !homesHere) return [];
  const edits: Edit[] = [];
  scanStringLiterals(body, (literal, handle) => {
    if (literal.isKey) return;
    let replacement: string | undefined;
    if (files.size > 0) replacement = files.get(handle.pointer());
    if (replacement === undefined && (secrets || homesHere)) {
      const original = literalValue(body, literal.start, literal.end);
      if (original === null) return;
      let redacted = secrets ? redactSecretString(original, literal.key, literal.previousString) : original;
      if (homesHere) redacted = redactHomes(redacted, homes);
      if (redacted !== original) replacement = redacted;
    }
    if (replacement !== undefined) edits.push({ start: literal.start, end: literal.end, replacement: encoder.encode(JSON.stringify(replacement)) });
  });
  return edits;
}

/** Apply edits (in order, not overlapping) to bytes. */
export function applyEdits(bytes: Uint8Array, edits: readonly Edit[]): Uint8Array {
  if (edits.length === 0) return bytes;
  let size = bytes.length;
  for (const edit of edits) size += edit.replacement.length - (edit.end - edit.start);
  const out = new Uint8Array(size);
  let from = 0;
  let to = 0;
  for (const edit of edits) {
    out.set(bytes.subarray(from, edit.start), to);
    to += edit.start - from;
    out.set(edit.replacement, to);
    to += edit.replacement.length;
    from = edit.end;
  }
  out.set(bytes.subarray(from), to);
  return out;
}

/** Where byte `offset` of the original ends up after the edits; an offset inside a replaced range moves to the replacement's end. */
export function mapOffset(edits: readonly Edit[], offset: number): number {
  let delta = 0;
  for (const edit of edits) {
    if (offset <= edit.start) break;
    if (offset < edit.end) return edit.start + delta + edit.replacement.length;
    delta += edit.replacement.length - (edit.end - edit.start);
  }
  return offset + delta;
}

/** Redact a JSON text (a relay frame, a sent command); unchanged when nothing needed hiding. */
export function redactJsonText(text: string, options: RedactionOptions): string {
  const bytes = encoder.encode(text);
  const edits = redactLine(bytes, options, null);
  return edits.length === 0 ? text : decoder.decode(applyEdits(bytes, edits));
}
