// A search query as the relay checks it, and the JavaScript RegExp that
// matches what `git grep` matched: git finds the lines (fast, threaded),
// this finds every match inside a line (for highlighting) and computes a
// replacement. git grep matches line by line, so the RegExp runs on one line
// at a time too (^ and $ are the line's ends). Regex mode is PCRE (-P) in git
// and ECMAScript here: a pattern must compile in both, and the few features
// that differ (possessive quantifiers, \A…) are refused by one or the other.
import { SEARCH_LIMITS, type SearchQuery } from "@pier/protocol";
import { WorkspaceError } from "./workspace-error.ts";

/** Reads a query from the search URL's parameters (GET) or a JSON body's `query` (POST). */
export function parseSearchQuery(input: URLSearchParams | unknown): SearchQuery {
  const get = (name: string): unknown => (input instanceof URLSearchParams ? input.get(name) : typeof input === "object" && input !== null ? (input as Record<string, unknown>)[name] : undefined);
  const flag = (name: string, alias: string) => {
    const value = get(name) ?? get(alias);
    return value === true || value === "1" || value === "true";
  };
  const pattern = get("q") ?? get("pattern");
  if (typeof pattern !== "string" || pattern === "") throw bad("Say what to search for (the query is empty).");
  if (pattern.length > SEARCH_LIMITS.maxQueryChars) throw bad(`The query is longer than ${SEARCH_LIMITS.maxQueryChars} characters.`);
  if (/[\n\r\0]/.test(pattern)) throw bad("The query cannot hold a line break or a NUL: git grep matches within one line.");
  const query: SearchQuery = {
    pattern,
    regex: flag("regex", "regex"),
    caseSensitive: flag("case", "caseSensitive"),
    wholeWord: flag("word", "wholeWord"),
    include: globs(get("include"), "include"),
    exclude: globs(get("exclude"), "exclude"),
    ignored: flag("ignored", "ignored"),
  };
  buildLineRegExp(query);
  return query;
}

/** "src/**, *.ts" or ["src/**", "*.ts"]: trimmed globs, none empty. */
function globs(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : null;
  if (list === null || list.some((item) => typeof item !== "string")) throw bad(`"${field}" must be globs separated by commas.`);
  const trimmed = (list as string[]).map((item) => item.trim()).filter((item) => item !== "");
  if (trimmed.length > SEARCH_LIMITS.maxGlobs) throw bad(`At most ${SEARCH_LIMITS.maxGlobs} ${field} globs.`);
  for (const glob of trimmed) {
    if (/[\0\n]/.test(glob) || glob.length > 1000) throw bad(`The ${field} glob ${JSON.stringify(glob.slice(0, 80))} is not usable.`);
  }
  return trimmed;
}

/** The RegExp (global) matching `query` inside one line; throws a 400 with the engine's reason when it does not compile. */
export function buildLineRegExp(query: Pick<SearchQuery, "pattern" | "regex" | "caseSensitive" | "wholeWord">): RegExp {
  const source = query.regex ? query.pattern : escapeRegExp(query.pattern);
  const flags = "gu" + (query.caseSensitive ? "" : "i");
  try {
    return new RegExp(query.wholeWord ? `\\b(?:${source})\\b` : source, flags);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^Invalid regular expression: /, "") : String(error);
    throw new WorkspaceError(400, "bad_request", `The regular expression is not valid: ${reason}`, { invalidPattern: true });
  }
}

export function escapeRegExp(text: string): string {
  // Only syntax characters: the "u" flag refuses any other escaped one.
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** Every match in `line` as [start, end); an empty match counts only where git would show a line (it is skipped here). */
export function matchRanges(regExp: RegExp, line: string): [number, number][] {
  const ranges: [number, number][] = [];
  regExp.lastIndex = 0;
  for (let match = regExp.exec(line); match !== null; match = regExp.exec(line)) {
    if (match[0].length === 0) {
      regExp.lastIndex = advance(line, regExp.lastIndex);
      continue;
    }
    ranges.push([match.index, match.index + match[0].length]);
  }
  return ranges;
}

function advance(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code >= 0xd800 && code <= 0xdbff && index + 1 < text.length ? index + 2 : index + 1;
}

/** A long line cut to about `max` characters around [focusStart, focusEnd), with what was left off. */
export function cutLine(text: string, focusStart: number, focusEnd: number, max: number = SEARCH_LIMITS.maxLineChars): { text: string; cutBefore: number; cutAfter: boolean } {
  if (text.length <= max) return { text, cutBefore: 0, cutAfter: false };
  // Some context before the match, the rest after it.
  let start = Math.max(0, Math.min(focusStart - Math.floor(max / 4), text.length - max));
  if (focusEnd - start > max) start = focusStart;
  const end = Math.min(text.length, start + max);
  return { text: text.slice(start, end), cutBefore: start, cutAfter: end < text.length };
}

/**
 * The replacement text for one match: in regex mode `$1`…`$99`, `$<name>`,
 * `$&` and `$$` as in String.prototype.replace; in plain mode the text as
 * typed (a "$" is a "$").
 */
export function expandReplacement(template: string, match: RegExpExecArray, regex: boolean): string {
  if (!regex) return template;
  return template.replace(/\$(\$|&|<([^>]*)>|(\d{1,2}))/g, (whole, what: string, name: string | undefined, digits: string | undefined) => {
    if (what === "$") return "$";
    if (what === "&") return match[0];
    if (name !== undefined) return match.groups?.[name] ?? (match.groups ? "" : whole);
    let group = Number(digits);
    // "$12" with one group is $1 followed by "2", as in String.prototype.replace.
    if (group >= match.length && digits!.length === 2) {
      group = Number(digits![0]);
      if (group > 0 && group < match.length) return (match[group] ?? "") + digits![1];
      return whole;
    }
    if (group === 0 || group >= match.length) return whole;
    return match[group] ?? "";
  });
}

/** One match of a file (in file order), with what replaces it. */
export type PlannedReplacement = { index: number; lineIndex: number; start: number; end: number; replacement: string };

/**
 * Every match in `content` with its replacement, line by line as git grep
 * matched ("\n" ends a line; a "\r" before it belongs to the line, as in git).
 */
export function planReplacements(content: string, regExp: RegExp, template: string, regex: boolean): { lines: string[]; matches: PlannedReplacement[] } {
  const lines = content.split("\n");
  const matches: PlannedReplacement[] = [];
  lines.forEach((line, lineIndex) => {
    regExp.lastIndex = 0;
    for (let match = regExp.exec(line); match !== null; match = regExp.exec(line)) {
      if (match[0].length === 0) {
        regExp.lastIndex = advance(line, regExp.lastIndex);
        continue;
      }
      matches.push({ index: matches.length, lineIndex, start: match.index, end: match.index + match[0].length, replacement: expandReplacement(template, match, regex) });
    }
  });
  return { lines, matches };
}

/** `lines` (from planReplacements) joined again with the chosen matches replaced. */
export function applyReplacements(lines: readonly string[], matches: readonly PlannedReplacement[], chosen: ReadonlySet<number>): string {
  const out = [...lines];
  const byLine = new Map<number, PlannedReplacement[]>();
  for (const match of matches) if (chosen.has(match.index)) (byLine.get(match.lineIndex) ?? byLine.set(match.lineIndex, []).get(match.lineIndex)!).push(match);
  for (const [lineIndex, list] of byLine) {
    const line = lines[lineIndex]!;
    let result = "";
    let at = 0;
    for (const match of list) {
      result += line.slice(at, match.start) + match.replacement;
      at = match.end;
    }
    out[lineIndex] = result + line.slice(at);
  }
  return out.join("\n");
}

function bad(message: string): WorkspaceError {
  return new WorkspaceError(400, "bad_request", message);
}
