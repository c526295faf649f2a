// The one line a collapsed tool card shows: what the tool acts on (command,
// path, pattern) and a short fact about the outcome ("lines 1–20", "+3 −1",
// "exit 1"). Pure, so the wording is tested without a browser.

import { stripAnsi } from "../ansi/strip-ansi.ts";
import { patchStats } from "../highlight/patch-stats.ts";
import { bashOutcome, editPatch, editReplacements, readRange, stringArg } from "./tool-details.ts";

export interface ToolHeadline {
  /** Short tool label shown first ("bash", "read", "my_tool"). */
  tool: string;
  /** What it acts on; may be empty. */
  subject: string;
  /** Whether `subject` is a file path (rendered as a link when possible). */
  subjectIsPath: boolean;
  /** Facts after the subject, e.g. ["lines 1–20"] or ["+3", "−1"]. */
  facts: string[];
}

export interface HeadlineInput {
  name: string;
  args: unknown;
  /** Result text so far (final or partial). */
  text: string;
  details: unknown;
  /** The tool finished with an error. */
  failed: boolean;
  /** A final result is in. */
  finished: boolean;
}

function firstLine(text: string): string {
  const line = text.trim().split("\n", 1)[0] ?? "";
  return text.trim().includes("\n") ? `${line} …` : line;
}

function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function toolHeadline(input: HeadlineInput): ToolHeadline {
  const { name, args } = input;
  const path = stringArg(args, "path", "file_path", "filePath");
  switch (name) {
    case "bash": {
      const command = stringArg(args, "command") ?? "";
      const facts: string[] = [];
      if (input.finished) {
        const outcome = bashOutcome(input.text, input.failed);
        if (outcome.ending === "exit") facts.push(`exit ${outcome.exitCode}`);
        else if (outcome.ending === "timeout") facts.push("timed out");
        else if (outcome.ending === "aborted") facts.push("aborted");
        else if (outcome.ending === "killed") facts.push("killed");
        if (outcome.notice) facts.push("truncated");
      }
      return { tool: "bash", subject: firstLine(stripAnsi(command)), subjectIsPath: false, facts };
    }
    case "read": {
      const range = readRange(args);
      return { tool: "read", subject: path ?? "", subjectIsPath: path !== null, facts: range ? [range] : [] };
    }
    case "write": {
      const content = stringArg(args, "content");
      return {
        tool: "write",
        subject: path ?? "",
        subjectIsPath: path !== null,
        facts: content === null ? [] : [plural(lineCount(content), "line")],
      };
    }
    case "edit": {
      // Counts only from pi's patch: a failed or pending edit has changed nothing yet.
      const patch = input.finished && !input.failed ? editPatch(input.details) : null;
      const replacements = editReplacements(args);
      const facts: string[] = [];
      if (replacements.length > 1) facts.push(plural(replacements.length, "change"));
      if (patch) {
        const stats = patchStats(patch);
        if (stats.added > 0) facts.push(`+${stats.added}`);
        if (stats.removed > 0) facts.push(`−${stats.removed}`);
      }
      return { tool: "edit", subject: path ?? "", subjectIsPath: path !== null, facts };
    }
    case "ls":
      return { tool: "ls", subject: path ?? ".", subjectIsPath: path !== null, facts: [] };
    case "grep":
    case "find": {
      const pattern = stringArg(args, "pattern", "query", "glob") ?? "";
      return { tool: name, subject: pattern, subjectIsPath: false, facts: path ? [`in ${path}`] : [] };
    }
    default: {
      const a = typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {};
      const first = Object.values(a).find((v): v is string => typeof v === "string" && v.trim() !== "");
      return { tool: name, subject: first ? firstLine(first) : "", subjectIsPath: false, facts: [] };
    }
  }
}
