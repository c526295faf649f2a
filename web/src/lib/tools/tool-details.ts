// Pure readers for what pi's built-in tools put in their results (pi 0.87.1,
// dist/core/tools/*.js): bash appends its status to the output text and
// carries truncation in `details`; read appends a continuation notice; edit
// returns `details.patch`. Anything unexpected falls back to "unknown".

import type { ImageContent, TextContent } from "../pi-types.ts";

export interface Truncation {
  totalLines: number;
  outputLines: number;
  totalBytes: number;
  outputBytes: number;
  truncatedBy: "lines" | "bytes" | null;
}

export interface BashOutcome {
  /** The command's output, without pi's status line and truncation notice. */
  output: string;
  /** How the command ended, as pi reported it. */
  ending: "ok" | "exit" | "aborted" | "timeout" | "killed" | "error";
  exitCode: number | null;
  /** pi's words for a non-zero ending, e.g. "Command timed out after 5 seconds". */
  statusLine: string | null;
  /** pi's "[Showing lines …]" note when the output was cut. */
  notice: string | null;
}

const STATUS_PATTERNS: { pattern: RegExp; ending: BashOutcome["ending"] }[] = [
  { pattern: /Command exited with code (\d+)$/, ending: "exit" },
  { pattern: /Command aborted$/, ending: "aborted" },
  { pattern: /Command timed out after \d+ seconds$/, ending: "timeout" },
  { pattern: /Command terminated without an exit code$/, ending: "killed" },
];

/** Splits a trailing "\n\n[…]" notice pi appends (truncation, continuation). */
export function splitNotice(text: string, pattern: RegExp): { body: string; notice: string | null } {
  const match = pattern.exec(text);
  if (!match) return { body: text, notice: null };
  return { body: text.slice(0, match.index), notice: match[1]! };
}

const BASH_NOTICE = /(?:^|\n\n)\[(Showing (?:lines|last) [^\]\n]*)\]$/;
const READ_NOTICE = /(?:^|\n\n)\[((?:Showing lines|\d+ more lines in file)[^\]\n]*)\]$/;

/** Reads a bash tool result text (final or partial) and whether pi flagged it as an error. */
export function bashOutcome(text: string, isError: boolean): BashOutcome {
  let rest = text;
  let ending: BashOutcome["ending"] = isError ? "error" : "ok";
  let exitCode: number | null = isError ? null : 0;
  let statusLine: string | null = null;
  if (isError) {
    for (const { pattern, ending: kind } of STATUS_PATTERNS) {
      const match = pattern.exec(rest);
      if (!match) continue;
      ending = kind;
      statusLine = match[0];
      if (kind === "exit") exitCode = Number(match[1]);
      rest = rest.slice(0, match.index).replace(/\n\n$/, "");
      break;
    }
  }
  if (rest === "(no output)") rest = "";
  const { body, notice } = splitNotice(rest, BASH_NOTICE);
  return { output: body, ending, exitCode, statusLine, notice };
}

/** Read result text without pi's continuation notice, and the notice. */
export function readOutcome(text: string): { body: string; notice: string | null } {
  return splitNotice(text, READ_NOTICE);
}

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** `details.truncation` and `details.fullOutputPath` of a bash or read result, when present. */
export function truncationDetails(details: unknown): { truncation: Truncation | null; fullOutputPath: string | null } {
  if (typeof details !== "object" || details === null) return { truncation: null, fullOutputPath: null };
  const d = details as Record<string, unknown>;
  const fullOutputPath = typeof d.fullOutputPath === "string" && d.fullOutputPath ? d.fullOutputPath : null;
  const t = d.truncation as Record<string, unknown> | undefined;
  if (typeof t !== "object" || t === null || t.truncated !== true) return { truncation: null, fullOutputPath };
  return {
    truncation: {
      totalLines: num(t.totalLines) ?? 0,
      outputLines: num(t.outputLines) ?? 0,
      totalBytes: num(t.totalBytes) ?? 0,
      outputBytes: num(t.outputBytes) ?? 0,
      truncatedBy: t.truncatedBy === "lines" || t.truncatedBy === "bytes" ? t.truncatedBy : null,
    },
    fullOutputPath,
  };
}

/** `details.patch` of an edit result (a standard unified patch), when present. */
export function editPatch(details: unknown): string | null {
  if (typeof details !== "object" || details === null) return null;
  const patch = (details as Record<string, unknown>).patch;
  return typeof patch === "string" && patch.trim() ? patch : null;
}

/** "lines 10–29", "from line 10", "first 20 lines" for read's offset/limit (1-based offset). */
export function readRange(args: unknown): string | null {
  if (typeof args !== "object" || args === null) return null;
  const a = args as Record<string, unknown>;
  const offset = num(a.offset);
  const limit = num(a.limit);
  if (offset !== null && limit !== null) return `lines ${offset}–${offset + limit - 1}`;
  if (offset !== null) return `from line ${offset}`;
  if (limit !== null) return `first ${limit} line${limit === 1 ? "" : "s"}`;
  return null;
}

export function stringArg(args: unknown, ...keys: string[]): string | null {
  if (typeof args !== "object" || args === null) return null;
  for (const key of keys) {
    const value = (args as Record<string, unknown>)[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return null;
}

export function textOf(content: readonly (TextContent | ImageContent)[] | undefined): string {
  if (!Array.isArray(content)) return "";
  return content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

export function imagesOf(content: readonly (TextContent | ImageContent)[] | undefined): ImageContent[] {
  if (!Array.isArray(content)) return [];
  return content.filter((block): block is ImageContent => block.type === "image" && typeof block.data === "string");
}

const SAFE_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/avif"]);

/** A data: URL for an image block; null for types a browser should not be handed (e.g. SVG). */
export function imageDataUrl(image: ImageContent): string | null {
  const type = image.mimeType.toLowerCase();
  if (!SAFE_IMAGE_TYPES.has(type)) return null;
  if (!/^[A-Za-z0-9+/=\s]*$/.test(image.data)) return null;
  return `data:${type};base64,${image.data.replace(/\s+/g, "")}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * A tool's path as a workspace-relative path the workbench can open, or null
 * (outside the project, home-relative, or empty). pi resolves relative paths
 * against its cwd, which is the workspace root.
 */
export function workspacePath(path: string, cwd: string | null | undefined): string | null {
  let p = path.trim();
  if (p.startsWith("@")) p = p.slice(1); // pi strips a leading @ (models copy it from mentions)
  if (p === "" || p.startsWith("~")) return null;
  if (p.startsWith("/")) {
    if (!cwd) return null;
    const root = cwd.endsWith("/") ? cwd : `${cwd}/`;
    if (!p.startsWith(root)) return null;
    p = p.slice(root.length);
  }
  p = p.replace(/^(\.\/)+/, "");
  const parts = p.split("/");
  if (p === "" || parts.includes("..")) return null;
  return parts.filter((part) => part !== "" && part !== ".").join("/");
}

export interface Replacement {
  oldText: string;
  newText: string;
}

/**
 * The replacements of an edit call's arguments: pi 0.87.1 sends
 * `{path, edits: [{oldText, newText}]}`; older pi and some models send a
 * single `{oldText, newText}` (or `old_string`/`new_string`).
 */
export function editReplacements(args: unknown): Replacement[] {
  if (typeof args !== "object" || args === null) return [];
  const a = args as Record<string, unknown>;
  const one = (value: unknown): Replacement | null => {
    if (typeof value !== "object" || value === null) return null;
    const v = value as Record<string, unknown>;
    const oldText = v.oldText ?? v.old_text ?? v.old_string;
    const newText = v.newText ?? v.new_text ?? v.new_string;
    return typeof oldText === "string" && typeof newText === "string" ? { oldText, newText } : null;
  };
  if (Array.isArray(a.edits)) return a.edits.map(one).filter((r): r is Replacement => r !== null);
  const single = one(a);
  return single ? [single] : [];
}
