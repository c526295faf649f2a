// The hunk review behind the Changes view: one file's diff as hunks, and
// stage / unstage / revert of a hunk, an edited hunk, a mode change, a file
// or several files (types and who may: @pier/protocol git-review-api.ts).
//
// Staging never touches the working file: the index text is built in memory
// (the index blob with the chosen hunk applied, git-hunks.ts), written with
// `git hash-object -w --stdin --no-filters` and put in the index with
// `git update-index -z --index-info`. Reverting never runs `git checkout`:
// the new text is computed from the file's version the diff was made from
// and written by the file service's save, which refuses a file changed
// meanwhile (checked-replace.ts). A hunk is named by an id that covers both
// sides of the file (git-hunks.ts hunkId): a page that showed an older diff
// is told so (stale_change) instead of having the wrong lines moved; a
// revert so refused says what it would make of the file now, when it can,
// for the page's conflict view (a hunk's: findHunkOrOffer; a whole file's:
// wholeFileStale).
//
// git runs through git-exec.ts (guarded environment, argument arrays, -z
// everywhere, literal pathspecs); none of the commands here runs a hook.
// Actions are serialised, so two browsers' clicks cannot interleave their
// read of the index and their write.
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import type { FileContentResponse, GitDiffKind, GitDiffResponse, GitDiffSide, GitHunk, GitReviewRequest, GitReviewResponse, GitRevertConflictResponse } from "@pier/protocol";
import { prepareGitExec, type GitExec, type GitOutput } from "./git-exec.ts";
import { applyHunks, hunkId, hunkSide, parseFileDiff, reverseHunkNear, StaleHunkError, wholeTextHunk, type ParsedHunk } from "./git-hunks.ts";
import { decodeText, MAX_EDITABLE_BYTES } from "./file-content.ts";
import { WorkspaceError, errnoCode } from "./workspace-error.ts";
import type { WorkspaceFiles } from "./workspace-files.ts";
import { validatePath } from "./workspace-paths.ts";

/** Diff lines sent to a page at most (drawn at once: 5,000 rows stay within a frame or two); beyond, the hunks stop with a note and "Open file". */
export const MAX_DIFF_LINES = 5_000;
/** git's patch for one file read at most (more: only the note). */
const MAX_PATCH_BYTES = 32 * 1024 * 1024;
/** Files staged or unstaged in one request at most. */
const MAX_PATHS = 5_000;

type Entry = { mode: string; sha: string };

/** One request's view of the repository. */
type Repo = { exec: GitExec; prefix: string; hasHead: boolean; rootReal: string };

/** A diff as computed for the page, with what an action needs beside it. */
type Computed = {
  response: GitDiffResponse;
  hunks: { id: string; hunk: ParsedHunk }[];
  index: Entry | null;
  head: Entry | null;
  worktree: FileContentResponse | null;
};

export class GitReview {
  readonly #files: WorkspaceFiles;
  readonly #command: string | undefined;
  #actions: Promise<unknown> = Promise.resolve();

  constructor(files: WorkspaceFiles, options: { command?: string } = {}) {
    this.#files = files;
    this.#command = options.command;
  }

  async diff(pathInput: unknown, staged: boolean, fromInput: unknown, options: { repoCommands?: boolean } = {}): Promise<GitDiffResponse> {
    const path = checkPath(pathInput);
    const from = fromInput === null || fromInput === undefined || fromInput === "" ? null : checkPath(fromInput, "from");
    const repo = await this.#open(options);
    return (await this.#compute(repo, path, staged ? "staged" : "unstaged", from)).response;
  }

  stage(body: GitReviewRequest, options: { repoCommands?: boolean } = {}): Promise<GitReviewResponse> {
    return this.#exclusive(async () => {
      const repo = await this.#open(options);
      if (body.paths !== undefined) {
        const paths = checkPaths(body.paths);
        await check(await repo.exec(["add", "-A", "--", ...paths]), "stage");
        return { paths };
      }
      const path = checkPath(body.path);
      const diff = await this.#compute(repo, path, "unstaged", null);
      if (body.part === "mode") {
        const change = diff.response.modeChange;
        if (change === null || (body.base !== undefined && body.base !== diff.response.base)) throw stale(path);
        await check(await repo.exec(["update-index", `--chmod=${change.to === "100755" ? "+" : "-"}x`, "--", path]), "stage");
        return { paths: [path] };
      }
      if (body.hunk === undefined) {
        if (body.base !== undefined && body.base !== diff.response.base) throw stale(path);
        await check(await repo.exec(["add", "-A", "--", path]), "stage");
        return { paths: [path] };
      }
      refuseHunks(diff.response);
      const chosen = findHunk(diff, body.hunk, path);
      const indexText = diff.index === null ? "" : await readBlob(repo, diff.index.sha, path);
      let edited: Map<ParsedHunk, string> | undefined;
      if (body.text !== undefined) {
        if (typeof body.text !== "string") throw badRequest(`"text" must be the hunk's new text.`);
        edited = new Map([[chosen, endLikeHunk(body.text, chosen)]]);
      }
      const next = applyOrStale(indexText, chosen, "forward", path, edited);
      const mode = diff.index?.mode ?? (await worktreeMode(repo, path));
      await writeIndexEntry(repo, mode, next, path);
      return { paths: [path] };
    });
  }

  unstage(body: GitReviewRequest, options: { repoCommands?: boolean } = {}): Promise<GitReviewResponse> {
    return this.#exclusive(async () => {
      const repo = await this.#open(options);
      if (body.paths !== undefined) {
        const paths = checkPaths(body.paths);
        await unstageWhole(repo, paths);
        return { paths };
      }
      const path = checkPath(body.path);
      const from = body.from === undefined ? null : checkPath(body.from, "from");
      const diff = await this.#compute(repo, path, "staged", from);
      if (body.part === "mode") {
        const change = diff.response.modeChange;
        if (change === null || (body.base !== undefined && body.base !== diff.response.base)) throw stale(path);
        await check(await repo.exec(["update-index", `--chmod=${change.from === "100755" ? "+" : "-"}x`, "--", path]), "unstage");
        return { paths: [path] };
      }
      if (body.hunk === undefined) {
        if (body.base !== undefined && body.base !== diff.response.base) throw stale(path);
        const paths = from === null ? [path] : [path, from];
        await unstageWhole(repo, paths);
        return { paths };
      }
      refuseHunks(diff.response);
      const chosen = findHunk(diff, body.hunk, path);
      const indexText = diff.index === null ? "" : await readBlob(repo, diff.index.sha, path);
      const next = applyOrStale(indexText, chosen, "reverse", path);
      const mode = diff.index?.mode ?? diff.head?.mode ?? "100644";
      await writeIndexEntry(repo, mode, next, path);
      return { paths: [path] };
    });
  }

  revert(body: GitReviewRequest, options: { repoCommands?: boolean } = {}): Promise<GitReviewResponse> {
    return this.#exclusive(async () => {
      const repo = await this.#open(options);
      if (body.paths !== undefined) throw badRequest("Revert one file at a time, with the `base` of the diff you saw.");
      const path = checkPath(body.path);
      const diff = await this.#compute(repo, path, "unstaged", null);
      const { response, worktree } = diff;
      if (body.hunk !== undefined && response.kind !== "untracked") {
        refuseHunks(response);
        const chosen = findHunkOrOffer(diff, body, path);
        if (worktree === null || worktree.content === null) throw unsupported(`${JSON.stringify(path)} cannot be read as text, so it is not changed hunk by hunk.`);
        const next = applyOrStale(worktree.content, chosen, "reverse", path);
        await this.#files.save(path, next, worktree.version);
        return { paths: [path] };
      }
      // The whole file (an untracked file's only hunk is the whole file).
      if (response.kind === "untracked") {
        if (body.hunk !== undefined) findHunk(diff, body.hunk, path, staleUntracked);
        else if (body.base !== undefined && body.base !== response.base) throw staleUntracked(path);
        // Deleted only if it is still the file the page showed.
        const now = await this.#files.read(path).catch(() => null);
        if (now === null || worktree === null || now.version !== worktree.version) throw staleUntracked(path);
        await this.#files.delete(path, false);
        return { paths: [path] };
      }
      if (body.base !== undefined && body.base !== response.base) throw await wholeFileStale(repo, diff, path);
      if (response.kind === "conflicted" || response.kind === "submodule") throw unsupported(response.note ?? `${JSON.stringify(path)} cannot be reverted from the page.`);
      if (response.kind === "unchanged") throw stale(path);
      if (diff.index === null) throw stale(path);
      if (response.binary || response.symlink)
        throw unsupported(`${JSON.stringify(path)} is ${response.binary ? "a binary file" : "a symbolic link"}; revert it in a terminal (git restore -- <file>).`);
      const indexText = await readBlob(repo, diff.index.sha, path);
      if (worktree === null) await this.#files.save(path, indexText, null);
      else if (worktree.content === null) throw unsupported(`${JSON.stringify(path)} is too large to revert from the page; use git restore in a terminal.`);
      else await this.#files.save(path, indexText, worktree.version);
      return { paths: [path] };
    });
  }

  async #open(options: { repoCommands?: boolean }): Promise<Repo> {
    const rootReal = await this.#files.paths.rootReal();
    const exec = await prepareGitExec(rootReal, { repoCommands: options.repoCommands, command: this.#command });
    if (exec === null) throw new WorkspaceError(409, "git_failed", "git cannot read this repository's configuration (or it names too many filters and drivers to switch off).");
    // One git for both facts: the prefix is printed first; exit code 1 is a repository with no commit yet, 128 no repository.
    const where = await exec(["rev-parse", "--show-prefix", "--verify", "--quiet", "HEAD^{commit}"]);
    if (!where.ok && where.exitCode !== 1) throw new WorkspaceError(409, "not_a_repo", "This workspace is not in a git repository, so there is nothing to stage or revert.");
    const prefix = where.stdout.toString("utf8").split("\n")[0] ?? "";
    return { exec, prefix, hasHead: where.ok, rootReal };
  }

  async #compute(repo: Repo, path: string, side: GitDiffSide, from: string | null): Promise<Computed> {
    const entries = await indexEntries(repo, path);
    const conflicted = entries.some((entry) => entry.stage !== "0");
    const index = entries.find((entry) => entry.stage === "0") ?? null;
    const head = side === "staged" && repo.hasHead ? await headEntry(repo, from ?? path) : null;
    const special = conflicted || index?.mode === "160000" || index?.mode === "120000";
    // A submodule's folder, a link or a conflicted file is not read as the file's text.
    const worktree =
      side === "unstaged" ? await this.#files.read(path).catch((error: unknown) => (special || (error instanceof WorkspaceError && error.status === 404) ? null : Promise.reject(error))) : null;
    const base = side === "staged" ? `${head?.sha ?? "none"}:${index?.sha ?? "none"}` : `${index?.sha ?? "none"}:${worktree?.version ?? "none"}`;
    const response: GitDiffResponse = { path, side, kind: "modified", base, binary: false, modeChange: null, hunks: [] };
    if (from !== null) response.from = from;
    const computed: Computed = { response, hunks: [], index, head, worktree };
    if (conflicted) {
      response.kind = "conflicted";
      response.note = `${JSON.stringify(path)} has merge conflicts. Resolve them in the editor, then stage the whole file to mark it resolved.`;
      return computed;
    }
    if (index?.mode === "160000" || head?.mode === "160000") {
      response.kind = "submodule";
      response.note = `${JSON.stringify(path)} is a submodule: its changes are commits inside it, not lines; only the whole entry can be staged.`;
      return computed;
    }
    if (index?.mode === "120000" || head?.mode === "120000") response.symlink = true;

    if (side === "unstaged" && index === null) {
      if (worktree === null) {
        response.kind = "unchanged";
        return computed;
      }
      response.kind = "untracked";
      if (worktree.content === null) {
        response.binary = worktree.reason === "binary";
        response.note = worktree.reason === "binary" ? "A new binary file: stage it whole." : "A new file too large to show: stage it whole, or open it.";
        return computed;
      }
      const whole = wholeTextHunk(worktree.content);
      if (whole !== null) addHunks(computed, [whole]);
      return computed;
    }

    const args = ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/", "-U3", "--ignore-submodules=none"];
    if (side === "staged") args.push("--cached", "-M");
    args.push("--", path);
    if (from !== null) args.push(from);
    const run = await repo.exec(args, { maxBuffer: MAX_PATCH_BYTES });
    if (!run.ok) {
      if (run.tooLarge) {
        response.truncated = { shownLines: 0, totalLines: null };
        response.note = `The diff of ${JSON.stringify(path)} is larger than ${MAX_PATCH_BYTES / 1024 / 1024} MB; open the file instead.`;
        return computed;
      }
      throw gitFailure(run, "read the diff");
    }
    const patchText = decodeText(run.stdout) ?? run.stdout.toString("utf8");
    const parsed = parseFileDiff(patchText);
    response.kind = kindOf(side, index, head, from, worktree !== null || response.symlink === true, parsed.deletedFile);
    if (parsed.oldMode !== null && parsed.newMode !== null && parsed.oldMode !== parsed.newMode) response.modeChange = { from: parsed.oldMode, to: parsed.newMode };
    if (parsed.binary) {
      response.binary = true;
      response.note = "A binary file: its change is not shown as lines; stage or unstage it whole.";
      return computed;
    }
    addHunks(computed, parsed.hunks);
    if (computed.hunks.length === 0 && response.modeChange === null && response.kind === "modified") response.kind = "unchanged";
    return computed;
  }

  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#actions.then(task, task);
    this.#actions = run.catch(() => {});
    return run;
  }
}

function kindOf(side: GitDiffSide, index: Entry | null, head: Entry | null, from: string | null, onDisk: boolean, deleted: boolean): GitDiffKind {
  if (side === "unstaged") return !onDisk || deleted ? "deleted" : "modified";
  if (index === null || deleted) return "deleted";
  if (from !== null && head !== null) return "renamed";
  return head === null ? "added" : "modified";
}

/** Puts the hunks (ids, and the lines the page is sent, up to the cap) into the response. */
function addHunks(computed: Computed, hunks: readonly ParsedHunk[]): void {
  const { response } = computed;
  let shown = 0;
  let total = 0;
  for (const hunk of hunks) {
    const id = hunkId(response.base, hunk);
    computed.hunks.push({ id, hunk });
    total += hunk.lines.length;
    if (response.truncated === undefined && shown + hunk.lines.length <= MAX_DIFF_LINES) {
      shown += hunk.lines.length;
      const shownHunk: GitHunk = { id, header: hunk.header, oldStart: hunk.oldStart, oldCount: hunk.oldCount, newStart: hunk.newStart, newCount: hunk.newCount, lines: hunk.lines };
      response.hunks.push(shownHunk);
    } else {
      response.truncated = { shownLines: shown, totalLines: 0 };
    }
  }
  if (response.truncated !== undefined) {
    response.truncated.totalLines = total;
    response.note = `This diff has ${total.toLocaleString("en-US")} lines; the first ${shown.toLocaleString("en-US")} are shown. Open the file to see the rest.`;
  }
}

function findHunk(diff: Computed, id: unknown, path: string, gone: (path: string) => WorkspaceError = stale): ParsedHunk {
  if (typeof id !== "string" || id === "") throw badRequest(`"hunk" must be the id of a hunk from the diff.`);
  const found = diff.hunks.find((candidate) => candidate.id === id);
  if (found === undefined) throw gone(path);
  return found.hunk;
}

/**
 * A whole file's revert whose `base` is no longer the file's (saved, staged
 * or deleted meanwhile). A text file git tracks that is still there gets the
 * offer a hunk's revert gets (GitRevertConflictResponse): the file now beside
 * the index's text, which is all the revert writes, both bounded like a read
 * (MAX_EDITABLE_BYTES); taking it is a save at the version of the file now.
 * Anything else is a sentence saying what the file is now.
 */
async function wholeFileStale(repo: Repo, diff: Computed, path: string): Promise<WorkspaceError> {
  const { response, worktree, index } = diff;
  const name = JSON.stringify(path);
  if (response.kind === "conflicted" || response.kind === "submodule") return unsupported(response.note ?? `${name} cannot be reverted from the page.`);
  if (response.kind === "unchanged")
    return new WorkspaceError(
      409,
      "stale_change",
      index === null && worktree === null
        ? `${name} no longer exists, so there is nothing to revert.`
        : `${name} changed since its diff was shown and now matches its staged version: there is nothing left to revert.`,
    );
  if (response.kind === "deleted")
    return new WorkspaceError(409, "stale_change", `${name} was deleted since its diff was shown, so nothing was reverted. The diff now shows it deleted: revert again to bring it back.`);
  if (response.binary || response.symlink || index === null || worktree === null || worktree.content === null || worktree.version === null) return stale(path);
  const reverted = await readBlob(repo, index.sha, path).catch((error: unknown) => (error instanceof WorkspaceError ? null : Promise.reject(error)));
  if (reverted === null || Buffer.byteLength(reverted, "utf8") > MAX_EDITABLE_BYTES || reverted === worktree.content) return stale(path);
  const offer: GitRevertConflictResponse["revert"] = { current: { content: worktree.content, version: worktree.version }, reverted };
  return new WorkspaceError(
    409,
    "stale_change",
    `${name} changed since its diff was shown, so nothing was reverted. Compare the file as it is now with what the revert would make of it, and choose.`,
    { revert: offer },
  );
}

/**
 * The hunk a revert names; when it is no longer in the diff (the file changed
 * meanwhile) the refusal carries what the revert would make of the file now,
 * if the request showed the hunk (checked against its id, so only a hunk this
 * relay showed at that base is used) and its lines are still in the file.
 */
function findHunkOrOffer(diff: Computed, body: GitReviewRequest, path: string): ParsedHunk {
  try {
    return findHunk(diff, body.hunk, path);
  } catch (error) {
    const offer = revertOffer(diff, body);
    if (offer === null || !(error instanceof WorkspaceError) || error.code !== "stale_change") throw error;
    const refusal: GitRevertConflictResponse["revert"] = offer;
    throw new WorkspaceError(
      409,
      "stale_change",
      `${JSON.stringify(path)} changed since its diff was shown, so nothing was reverted. Compare the file as it is now with what the revert would make of it, and choose.`,
      { revert: refusal },
    );
  }
}

function revertOffer(diff: Computed, body: GitReviewRequest): GitRevertConflictResponse["revert"] | null {
  const { worktree } = diff;
  const shown = body.shown;
  if (worktree === null || worktree.content === null || worktree.version === null || typeof body.base !== "string" || typeof body.hunk !== "string") return null;
  if (typeof shown !== "object" || shown === null || typeof shown.header !== "string" || !Array.isArray(shown.lines) || !shown.lines.every((line) => typeof line === "string")) return null;
  const header = HUNK_RANGES.exec(shown.header);
  if (header === null || hunkId(body.base, shown) !== body.hunk) return null;
  const hunk: ParsedHunk = {
    header: shown.header,
    oldStart: Number(header[1]),
    oldCount: header[2] === undefined ? 1 : Number(header[2]),
    newStart: Number(header[3]),
    newCount: header[4] === undefined ? 1 : Number(header[4]),
    lines: shown.lines,
  };
  const reverted = reverseHunkNear(worktree.content, hunk);
  if (reverted === null || reverted === worktree.content) return null;
  return { current: { content: worktree.content, version: worktree.version }, reverted };
}

const HUNK_RANGES = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

function refuseHunks(diff: GitDiffResponse): void {
  if (diff.kind === "conflicted") throw unsupported(diff.note!);
  if (diff.kind === "submodule") throw unsupported(diff.note!);
  if (diff.binary) throw unsupported(`${JSON.stringify(diff.path)} is a binary file: it has no hunks; stage it whole.`);
  if (diff.symlink) throw unsupported(`${JSON.stringify(diff.path)} is a symbolic link: stage it whole.`);
}

function applyOrStale(text: string, hunk: ParsedHunk, direction: "forward" | "reverse", path: string, edited?: ReadonlyMap<ParsedHunk, string>): string {
  try {
    return applyHunks(text, [hunk], direction, edited);
  } catch (error) {
    if (error instanceof StaleHunkError) throw stale(path);
    throw error;
  }
}

/** An edited hunk's text ends with a newline when the hunk's own new side did (a textarea drops it easily). */
function endLikeHunk(text: string, hunk: ParsedHunk): string {
  const side = hunkSide(hunk, "new");
  const endsWithNewline = side.length === 0 || side[side.length - 1]!.endsWith("\n");
  if (text !== "" && endsWithNewline && !text.endsWith("\n")) return text + "\n";
  return text;
}

async function indexEntries(repo: Repo, path: string): Promise<(Entry & { stage: string })[]> {
  const run = await repo.exec(["ls-files", "-s", "-z", "--", path], { maxBuffer: 16 * 1024 * 1024 });
  if (!run.ok) throw gitFailure(run, "read the index");
  const entries: (Entry & { stage: string })[] = [];
  for (const record of run.stdout.toString("utf8").split("\0")) {
    const tab = record.indexOf("\t");
    if (tab === -1) continue;
    // "<mode> <sha> <stage>\t<path>"; a folder's pathspec lists what is in it: only the path itself counts.
    if (record.slice(tab + 1) !== path) continue;
    const [mode, sha, stage] = record.slice(0, tab).split(" ");
    if (mode && sha && stage) entries.push({ mode, sha, stage });
  }
  return entries;
}

async function headEntry(repo: Repo, path: string): Promise<Entry | null> {
  const run = await repo.exec(["ls-tree", "-z", "HEAD", "--", path]);
  if (!run.ok) throw gitFailure(run, "read HEAD");
  for (const record of run.stdout.toString("utf8").split("\0")) {
    const tab = record.indexOf("\t");
    if (tab === -1 || record.slice(tab + 1) !== path) continue;
    const [mode, type, sha] = record.slice(0, tab).split(" ");
    if (mode && sha && type !== "tree") return { mode, sha };
  }
  return null;
}

async function readBlob(repo: Repo, sha: string, path: string): Promise<string> {
  const run = await repo.exec(["cat-file", "blob", sha], { maxBuffer: MAX_PATCH_BYTES });
  if (!run.ok) throw gitFailure(run, "read the staged text");
  const text = decodeText(run.stdout);
  if (text === null) throw unsupported(`The staged ${JSON.stringify(path)} is not text, so it is not changed hunk by hunk.`);
  return text;
}

async function worktreeMode(repo: Repo, path: string): Promise<string> {
  try {
    const info = await lstat(join(repo.rootReal, path));
    return (info.mode & 0o111) !== 0 ? "100755" : "100644";
  } catch (error) {
    if (errnoCode(error) === "ENOENT") throw stale(path);
    throw error;
  }
}

async function writeIndexEntry(repo: Repo, mode: string, text: string, path: string): Promise<void> {
  const hashed = await repo.exec(["hash-object", "-w", "--stdin", "--no-filters"], { input: Buffer.from(text, "utf8") });
  if (!hashed.ok) throw gitFailure(hashed, "write the staged text");
  const sha = hashed.stdout.toString("utf8").trim();
  // --index-info takes paths from the repository's top, whatever the cwd.
  await check(await repo.exec(["update-index", "-z", "--index-info"], { input: `${mode} ${sha}\t${repo.prefix}${path}\0` }), "stage");
}

async function unstageWhole(repo: Repo, paths: string[]): Promise<void> {
  if (repo.hasHead) await check(await repo.exec(["reset", "-q", "HEAD", "--", ...paths]), "unstage");
  // No commit yet: unstaging is taking the file out of the index (-f: even when it differs from the file; --cached leaves the file alone).
  else await check(await repo.exec(["rm", "--cached", "-f", "-q", "-r", "--ignore-unmatch", "--", ...paths]), "unstage");
}

async function check(run: GitOutput, what: string): Promise<void> {
  if (!run.ok) throw gitFailure(run, what);
}

function gitFailure(run: GitOutput, what: string): WorkspaceError {
  const lock = /Unable to create '([^']*index\.lock)': File exists/.exec(run.stderr);
  if (lock !== null) {
    return new WorkspaceError(
      409,
      "git_locked",
      `Another git is using this repository: ${lock[1]} exists, so nothing was changed. If no git is running (one that crashed left it behind), delete that file and try again.`,
    );
  }
  const said = run.stderr.trim().split("\n").slice(0, 6).join("\n");
  return new WorkspaceError(409, "git_failed", `git could not ${what}${said ? `: ${said}` : "."}`, { output: run.stderr.slice(0, 8192) });
}

function checkPath(input: unknown, field = "path"): string {
  const path = validatePath(input, field);
  // git printed a name that is not UTF-8; the page only has its replacement characters, which name no file.
  if (path.includes("\uFFFD")) throw new WorkspaceError(400, "bad_path", `${JSON.stringify(path)} is not a valid UTF-8 name, so pier cannot name it to git; stage or revert it in a terminal.`);
  return path;
}

function checkPaths(input: unknown): string[] {
  if (!Array.isArray(input) || input.length === 0 || input.length > MAX_PATHS) throw badRequest(`"paths" must list between 1 and ${MAX_PATHS} files.`);
  return input.map((path) => checkPath(path, "paths"));
}

function stale(path: string): WorkspaceError {
  return new WorkspaceError(409, "stale_change", `${JSON.stringify(path)} changed since its diff was shown; nothing was done. The diff has been refreshed: look again.`);
}

/**
 * An untracked file changed (or went) since its diff: it is not deleted. No
 * offer: the conflict view's right side is a text saved over the disk's, and
 * a deletion has no text (an empty right side would read as "empty the
 * file", which is not what happens); the refreshed diff shows the new text,
 * and deleting it again asks again.
 */
function staleUntracked(path: string): WorkspaceError {
  return new WorkspaceError(
    409,
    "stale_change",
    `${JSON.stringify(path)} changed since its diff was shown, so it was not deleted. The diff now shows it as it is: delete it again if you still want it gone.`,
  );
}

function unsupported(message: string): WorkspaceError {
  return new WorkspaceError(409, "unsupported_change", message);
}

function badRequest(message: string): WorkspaceError {
  return new WorkspaceError(400, "bad_request", message);
}
