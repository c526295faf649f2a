// Replace across files, in two steps a person confirms between: a preview of
// every change (per file, per match), then the replace of the chosen matches.
// The preview names each file's version; the replace writes a file only
// through the file service's no-clobber save from that version, so a file
// changed since the preview (by pi, an editor, another browser) is skipped
// and listed, and nothing in it is lost. Matches are numbered in file order
// by the same RegExp in both steps: with the version unchanged, the content
// is, and so are the numbers.
import { SEARCH_LIMITS, type ReplacePreviewFile, type ReplacePreviewMatch, type SearchPreviewResponse, type SearchQuery, type SearchReplaceResponse } from "@pier/protocol";
import { runGitGrep } from "./content-search.ts";
import { applyReplacements, buildLineRegExp, cutLine, planReplacements } from "./search-pattern.ts";
import { WorkspaceError } from "./workspace-error.ts";
import type { WorkspaceFiles } from "./workspace-files.ts";

export const CHANGED_MEANWHILE = "changed meanwhile, not replaced";

export async function previewReplace(files: WorkspaceFiles, query: SearchQuery, replacement: string, gitCommand?: string): Promise<SearchPreviewResponse> {
  const rootReal = await files.paths.rootReal();
  const paths: string[] = [];
  let truncated = false;
  const outcome = await runGitGrep(rootReal, query, {
    command: gitCommand,
    onLines: (lines) => {
      for (const line of lines) {
        if (paths.at(-1) === line.path) continue;
        if (paths.length >= SEARCH_LIMITS.maxPreviewFiles) {
          truncated = true;
          return false;
        }
        paths.push(line.path);
      }
    },
  });
  if (!outcome.ok) throw new WorkspaceError(400, "bad_request", outcome.message);
  const regExp = buildLineRegExp(query);
  const result: ReplacePreviewFile[] = [];
  const skipped: SearchPreviewResponse["skipped"] = [];
  let total = 0;
  for (const path of paths) {
    if (total >= SEARCH_LIMITS.maxMatches) {
      truncated = true;
      break;
    }
    let file;
    try {
      file = await files.read(path);
    } catch (error) {
      skipped.push({ path, reason: error instanceof Error ? error.message : String(error) });
      continue;
    }
    if (file.content === null) {
      skipped.push({ path, reason: file.reason === "too_large" ? "too large to edit here" : "not text" });
      continue;
    }
    const plan = planReplacements(file.content, regExp, replacement, query.regex);
    if (plan.matches.length === 0) continue;
    const matches: ReplacePreviewMatch[] = plan.matches.map((match) => {
      const line = plan.lines[match.lineIndex]!;
      const before = cutLine(line, match.start, match.end);
      const afterLine = line.slice(0, match.start) + match.replacement + line.slice(match.end);
      const after = cutLine(afterLine, match.start, match.start + match.replacement.length);
      return {
        index: match.index,
        line: match.lineIndex + 1,
        before: before.text,
        after: after.text,
        beforeRange: [match.start - before.cutBefore, Math.min(match.end - before.cutBefore, before.text.length)],
        afterRange: [match.start - after.cutBefore, Math.min(match.start + match.replacement.length - after.cutBefore, after.text.length)],
      };
    });
    total += matches.length;
    result.push({ path, version: file.version, matches });
  }
  return { files: result, truncated, skipped };
}

export async function replaceInFiles(files: WorkspaceFiles, query: SearchQuery, replacement: string, chosenInput: unknown): Promise<SearchReplaceResponse> {
  const chosen = parseChosen(chosenInput);
  const regExp = buildLineRegExp(query);
  const replaced: SearchReplaceResponse["replaced"] = [];
  const skipped: SearchReplaceResponse["skipped"] = [];
  for (const { path, version, matches } of chosen) {
    try {
      const file = await files.read(path);
      if (file.version !== version || file.content === null) {
        skipped.push({ path, reason: CHANGED_MEANWHILE });
        continue;
      }
      const plan = planReplacements(file.content, regExp, replacement, query.regex);
      const wanted = new Set(matches.filter((index) => index < plan.matches.length));
      if (wanted.size === 0) continue;
      const saved = await files.save(path, applyReplacements(plan.lines, plan.matches, wanted), version);
      replaced.push({ path, matches: wanted.size, version: saved.version });
    } catch (error) {
      if (error instanceof WorkspaceError && (error.code === "conflict" || error.code === "not_found")) skipped.push({ path, reason: CHANGED_MEANWHILE });
      else skipped.push({ path, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return { replaced, skipped };
}

function parseChosen(input: unknown): { path: string; version: string; matches: number[] }[] {
  const shape = '"files" must be a list of {path, version, matches: [numbers]} from the preview.';
  if (!Array.isArray(input) || input.length > SEARCH_LIMITS.maxPreviewFiles) throw new WorkspaceError(400, "bad_request", shape);
  return input.map((item: unknown) => {
    const { path, version, matches } = (item ?? {}) as Record<string, unknown>;
    if (typeof path !== "string" || typeof version !== "string" || !Array.isArray(matches) || !matches.every((n) => Number.isInteger(n) && n >= 0)) {
      throw new WorkspaceError(400, "bad_request", shape);
    }
    return { path, version, matches: matches as number[] };
  });
}
