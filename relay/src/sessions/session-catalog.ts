// pi's saved sessions of this workspace, listed from its session folder (pi
// has no command that lists them): a page of summaries, newest first, with
// search; the file `pi --continue` would open; the check a switch_session
// target must pass; and a watch that tells when the list may have changed.
//
// Summaries are cached per file and brought up to date incrementally (see
// session-summary.ts). Without a search only the page's files are read (their
// headers too, when pi filters the folder by cwd); a search reads them all
// once, and then only what was appended.
import { closeSync, lstatSync, readSync, realpathSync, statSync, watch, type Dirent, type FSWatcher, type Stats } from "node:fs";
import { readdir } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { SESSIONS_LIMITS, type SessionListItem, type SessionListResponse } from "@pier/protocol";
import { kindOf, openRegularFileSync } from "../regular-file.ts";
import { isInside } from "../workspace/workspace-paths.ts";
import {
  CwdProbe,
  fsReader,
  parseHeaderLine,
  scanIsCurrent,
  scanSessionFile,
  toListItem,
  type FileIdentity,
  type ScanDepth,
  type SessionFileReader,
  type SessionHeaderFacts,
  type SessionScan,
} from "./session-summary.ts";

export type SessionCatalogOptions = {
  /** The session folder (absolute), from resolveSessionDir. */
  dir: string;
  /** The workspace folder as pi sees it. */
  cwd: string;
  /** Only sessions whose header cwd is `cwd` belong here (pi's rule for a custom folder). */
  filterCwd: boolean;
  /** False when pi runs with --no-session. */
  persisted: boolean;
  log: (line: string) => void;
  /** Tests count or fail reads through this. */
  reader?: SessionFileReader;
  debounceMs?: number;
  maxWaitMs?: number;
  /** How often a missing session folder is looked for. */
  pollMs?: number;
};

export type SessionListRequest = { offset?: number; limit?: number; query?: string };

/** `path` is the path as given (resolved), for pi; `real` is where the file is, with no link in it. */
export type SwitchTargetCheck = { ok: true; path: string; real: string } | { ok: false; error: string };

/** A session file found in the folder. */
type FoundFile = { name: string; path: string; file: FileIdentity };

/** Files read at once (an injected asynchronous reader overlaps them; the default one is synchronous). */
const CONCURRENCY = 16;
/** What checkSwitchTarget reads at most, looking for the header. */
const SWITCH_HEADER_BYTES = 64 * 1024;
const DEBOUNCE_MS = 250;
const MAX_WAIT_MS = 1000;
const POLL_MS = 1000;
/** Longest stretch of synchronous file work before the event loop gets a turn. */
const SLICE_MS = 10;

export class SessionCatalog {
  readonly dir: string;
  readonly cwd: string;
  readonly filterCwd: boolean;
  readonly persisted: boolean;
  readonly #log: (line: string) => void;
  readonly #reader: SessionFileReader;
  readonly #debounceMs: number;
  readonly #maxWaitMs: number;
  readonly #pollMs: number;
  /** Path → the latest scan of that file. Pruned to the files present at each listing. */
  readonly #scans = new Map<string, SessionScan>();
  /** Path → the scan running now (scans of one file never overlap). */
  readonly #running = new Map<string, Promise<SessionScan>>();
  readonly #cwdProbe = new CwdProbe();
  #readdirFailure = "";
  #pinnedDirReal: string | undefined;

  constructor(options: SessionCatalogOptions) {
    this.dir = resolve(options.dir);
    this.cwd = resolve(options.cwd);
    this.filterCwd = options.filterCwd;
    this.persisted = options.persisted;
    this.#log = options.log;
    this.#reader = options.reader ?? fsReader;
    this.#debounceMs = options.debounceMs ?? DEBOUNCE_MS;
    this.#maxWaitMs = options.maxWaitMs ?? MAX_WAIT_MS;
    this.#pollMs = options.pollMs ?? POLL_MS;
  }

  /** How many files have a cached summary (tests, diagnostics). */
  get cachedFiles(): number {
    return this.#scans.size;
  }

  /** A page of sessions, newest first; with a query, only those that match it. */
  async list(request: SessionListRequest = {}): Promise<SessionListResponse> {
    const offset = wholeNumber(request.offset, 0, Number.MAX_SAFE_INTEGER, 0);
    const limit = wholeNumber(request.limit, 0, SESSIONS_LIMITS.maxPageSize, SESSIONS_LIMITS.defaultPageSize);
    const query = normalizeQuery(request.query);
    const files = await this.#files();
    let matching = files;
    if (query !== "" || this.filterCwd) {
      const depth: ScanDepth = query === "" ? "header" : "full";
      const scans = await mapLimit(files, CONCURRENCY, (found) => this.#scan(found, depth));
      matching = files.filter((found, index) => {
        const scan = scans[index]!;
        return !scan.vanished && this.#belongs(scan) && (query === "" || matches(scan, found.name, query));
      });
    }
    const page = matching.slice(offset, offset + limit);
    const scans = await mapLimit(page, CONCURRENCY, (found) => this.#scan(found, "full"));
    const sessions: SessionListItem[] = [];
    for (const scan of scans) {
      if (scan.vanished) continue;
      const cwdExists = scan.header ? await this.#cwdProbe.exists(resolve(this.cwd, scan.header.cwd)) : false;
      sessions.push(toListItem(scan, cwdExists));
    }
    return { dir: this.dir, total: matching.length, offset, sessions };
  }

  /**
   * Reads every file's summary ahead of a search (in slices, in the
   * background): the relay calls it once someone has looked at the list, so
   * that the first search does not have to read every file while they wait.
   */
  async prepareSearch(): Promise<void> {
    const files = await this.#files();
    await mapLimit(files, CONCURRENCY, (found) => this.#scan(found, "full"));
  }

  /**
   * The session `pi --continue` would open (pi's findMostRecentSession): the
   * newest file with a readable header (of this workspace, when filtering).
   */
  async mostRecent(): Promise<string | null> {
    for (const found of await this.#files()) {
      const scan = await this.#scan(found, "header");
      if (scan.header !== null && scan.error === null && this.#belongs(scan)) return found.path;
    }
    return null;
  }

  /**
   * Whether `path` may be given to pi's switch_session: an absolute path to a
   * regular .jsonl file with one link, stored in the session folder itself
   * (the folder may be reached through a link; the file may not be one), that
   * starts with a session header. Synchronous and cheap: the relay calls it
   * while forwarding a browser's command, in order.
   *
   * `real` is where the file is (no link in it): a reader opens `path` with
   * O_NOFOLLOW and checks that its descriptor is that file (session-service).
   *
   * What this cannot close: pi opens the path itself, by name, after this
   * check (SessionManager.open reads it, later appends to it), so Pier cannot
   * hand pi a descriptor. Refusing links defeats a link whose target is
   * swapped after the check. Someone who can write in the session folder
   * (or in a folder above it) can still rename a link over the checked name
   * between this check and pi's open, and pi follows it. By default that
   * folder is under ~/.pi/agent (only the user's own programs write there);
   * a project's .pi/settings.json may set `sessionDir` inside the workspace,
   * where the agent itself writes, and then only that race stands between
   * the agent and any file the user can read. The folder's real path is
   * pinned the first time it is seen, so swapping the folder itself for a
   * link is refused.
   */
  checkSwitchTarget(path: string): SwitchTargetCheck {
    const refuse = (error: string): SwitchTargetCheck => ({ ok: false, error });
    if (typeof path !== "string" || path === "") return refuse("the session path is empty; give the absolute path of a session file");
    if (path.includes("\0")) return refuse("the session path contains a NUL byte");
    if (!isAbsolute(path)) return refuse(`${path} is not an absolute path; give the session file's full path`);
    const full = resolve(path);
    if (!full.endsWith(".jsonl")) return refuse(`${full} is not a session file: its name does not end in .jsonl`);
    const folder = this.#folderReal();
    if (!folder.ok) return refuse(`${full} is outside this workspace's session folder ${this.dir}, ${folder.error}`);
    let parentReal: string;
    try {
      parentReal = realpathSync(dirname(full));
    } catch (error) {
      const code = errnoCode(error);
      if (code === "ENOENT" || code === "ENOTDIR") return refuse(`no session file at ${full}`);
      if (code === "ELOOP") return refuse(`${full} goes through a loop of symbolic links`);
      return refuse(`${full} cannot be opened (${code ?? String(error)})`);
    }
    if (parentReal !== folder.real) {
      if (isInside(folder.real, parentReal)) return refuse(`${full} is in a sub-folder of the session folder ${this.dir}; pi keeps its sessions in the folder itself`);
      return refuse(`${full} is outside this workspace's session folder ${this.dir}`);
    }
    const real = join(folder.real, basename(full));
    let named: Stats;
    try {
      named = lstatSync(real);
    } catch {
      return refuse(`no session file at ${full}`);
    }
    if (named.isSymbolicLink()) return refuse(`${full} is a symbolic link; Pier opens only session files stored in the session folder itself, never through a link`);
    if (named.isDirectory()) return refuse(`${full} is a folder, not a session file`);
    if (!named.isFile()) return refuse(`${full} is ${kindOf(named)}, not a session file`);
    if (named.nlink > 1) return refuse(`${full} has other hard links; Pier does not open hard-linked session files, their other names may be anywhere`);
    const header = readHeaderSync(real, { noFollow: true, sameAs: named });
    if (typeof header === "string") return refuse(`${full} ${header}`);
    if (this.filterCwd && !this.#cwdMatches(header.cwd)) {
      return refuse(`${full} is a session of another folder (${header.cwd || "none recorded"}), not of this workspace (${this.cwd})`);
    }
    return { ok: true, path: full, real };
  }

  /** The session folder's real path, pinned the first time it is found: later it must still be there, not elsewhere through a swapped link. */
  #folderReal(): { ok: true; real: string } | { ok: false; error: string } {
    let now: string;
    try {
      now = realpathSync(this.dir);
    } catch {
      return { ok: false, error: "which does not exist yet" };
    }
    this.#pinnedDirReal ??= now;
    if (now !== this.#pinnedDirReal) return { ok: false, error: `which now leads to ${now} instead of ${this.#pinnedDirReal} (was it replaced by a link?)` };
    return { ok: true, real: now };
  }

  /**
   * Calls `onChange` (debounced) when session files appear, grow or vanish.
   * The folder may not exist yet (pi creates it at start-up) or may be
   * removed: it is looked for every pollMs until it is there. Returns stop().
   */
  watch(onChange: () => void): () => void {
    let watcher: FSWatcher | null = null;
    let watchedIno = -1;
    let pollTimer: NodeJS.Timeout | null = null;
    let flushTimer: NodeJS.Timeout | null = null;
    let firstEventAt = 0;
    let changed = false;
    let stopped = false;

    const emit = () => {
      try {
        onChange();
      } catch (error) {
        this.#log(`session list listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
    const unwatch = () => {
      watcher?.close();
      watcher = null;
    };
    const arm = (): boolean => {
      let ino: number;
      try {
        const stats = statSync(this.dir);
        if (!stats.isDirectory()) return false;
        ino = stats.ino;
        watcher = watch(this.dir, { persistent: false }, (_event, filename) => onEvent(filename));
      } catch {
        return false;
      }
      watchedIno = ino;
      // Dropped by the system (the folder went, inotify trouble): look again.
      watcher.on("error", () => {
        unwatch();
        schedule(true);
      });
      return true;
    };
    const poll = () => {
      if (stopped || pollTimer) return;
      pollTimer = setInterval(() => {
        if (stopped || !arm()) return;
        clearInterval(pollTimer!);
        pollTimer = null;
        // The folder appeared, maybe with files in it already.
        schedule(true);
      }, this.#pollMs);
      pollTimer.unref();
    };
    const onEvent = (filename: string | Buffer | null) => {
      if (stopped) return;
      const name = filename === null ? null : String(filename);
      // Other names (the folder itself, a stray file) only make the folder be checked.
      schedule(name === null || name.endsWith(".jsonl"));
    };
    const schedule = (isChange: boolean) => {
      if (stopped) return;
      changed ||= isChange;
      const now = Date.now();
      if (flushTimer === null) firstEventAt = now;
      else clearTimeout(flushTimer);
      const wait = Math.max(0, Math.min(this.#debounceMs, firstEventAt + this.#maxWaitMs - now));
      flushTimer = setTimeout(flush, wait);
      flushTimer.unref();
    };
    const flush = () => {
      flushTimer = null;
      if (stopped) return;
      // Is the watched folder still the one at this path?
      let ino = -1;
      try {
        const stats = statSync(this.dir);
        if (stats.isDirectory()) ino = stats.ino;
      } catch {
        // gone
      }
      if (watcher === null || ino !== watchedIno) {
        if (watcher !== null) changed = true;
        unwatch();
        if (ino !== -1 && arm()) changed = true;
        else poll();
      }
      const report = changed;
      changed = false;
      if (report) emit();
    };

    if (!arm()) poll();
    return () => {
      stopped = true;
      unwatch();
      if (pollTimer) clearInterval(pollTimer);
      if (flushTimer) clearTimeout(flushTimer);
      pollTimer = flushTimer = null;
    };
  }

  /** The session files in the folder, newest first; [] when the folder is missing. */
  async #files(): Promise<FoundFile[]> {
    let entries: Dirent[];
    try {
      entries = await readdir(this.dir, { withFileTypes: true });
      this.#readdirFailure = "";
    } catch (error) {
      const code = errnoCode(error) ?? String(error);
      if (code !== "ENOENT" && code !== this.#readdirFailure) {
        this.#readdirFailure = code;
        this.#log(`cannot list the session folder ${this.dir} (${code})`);
      }
      this.#scans.clear();
      return [];
    }
    const found: FoundFile[] = [];
    const pause = yielder();
    // Synchronous stats, a slice at a time: 2,000 take ~7 ms, against ~30 ms
    // through the thread pool. Symbolic links are not listed: a switch to one
    // is refused (checkSwitchTarget), and a link checked here could point
    // elsewhere by the time it is read.
    for (const entry of entries) {
      if (!entry.name.endsWith(".jsonl") || !entry.isFile()) continue;
      await pause();
      const path = join(this.dir, entry.name);
      try {
        const stats = lstatSync(path);
        if (stats.isFile()) found.push({ name: entry.name, path, file: identityOf(stats) });
      } catch {
        // gone, a dangling link, no access: not listed
      }
    }
    // Newest first; equal times by name, descending (pi's names start with the creation time).
    found.sort((a, b) => b.file.mtimeMs - a.file.mtimeMs || (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    const present = new Set(found.map((entry) => entry.path));
    for (const path of this.#scans.keys()) if (!present.has(path)) this.#scans.delete(path);
    return found;
  }

  /** The up-to-date scan of one file; scans of the same file wait for each other. */
  #scan(found: FoundFile, depth: ScanDepth): Promise<SessionScan> | SessionScan {
    const before = this.#running.get(found.path);
    const cached = this.#scans.get(found.path);
    if (before === undefined && cached && scanIsCurrent(cached, found.file, depth)) return cached;
    const run = (before ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => scanSessionFile(found.path, found.file, this.#scans.get(found.path), depth, this.#reader))
      .then((scan) => {
        if (!scan.vanished) this.#scans.set(found.path, scan);
        return scan;
      });
    this.#running.set(found.path, run);
    void run.finally(() => {
      if (this.#running.get(found.path) === run) this.#running.delete(found.path);
    });
    return run;
  }

  #belongs(scan: SessionScan): boolean {
    // A file that is not a session cannot be told apart: it is listed, as unreadable.
    return !this.filterCwd || scan.header === null || this.#cwdMatches(scan.header.cwd);
  }

  /** pi's sessionCwdMatches: a recorded cwd that resolves to this workspace. */
  #cwdMatches(cwd: string): boolean {
    return cwd !== "" && resolve(this.cwd, cwd) === this.cwd;
  }
}

function identityOf(stats: Stats): FileIdentity {
  return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs };
}

/** Lower-cased, whitespace collapsed, bounded. */
function normalizeQuery(query: unknown): string {
  if (typeof query !== "string") return "";
  return query.slice(0, SESSIONS_LIMITS.maxQueryLength).replace(/\s+/g, " ").trim().toLowerCase();
}

/** Case-insensitive substring search over the name, the prompts kept for search and the id (a file name for unreadable files). */
function matches(scan: SessionScan, fileName: string, query: string): boolean {
  if (scan.header === null || scan.error !== null) return fileName.toLowerCase().includes(query);
  return (scan.name !== null && scan.name.replace(/\s+/g, " ").toLowerCase().includes(query)) || scan.searchText.includes(query) || scan.header.id.toLowerCase().includes(query);
}

function wholeNumber(value: unknown, min: number, max: number, fallback: number): number {
  if (typeof value !== "number" || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.trunc(value)));
}

/** Resolves at once, or (every SLICE_MS of work) after the event loop had a turn. */
function yielder(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < SLICE_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}

async function mapLimit<T, R>(items: readonly T[], limit: number, map: (item: T) => Promise<R> | R): Promise<R[]> {
  const results = new Array<R>(items.length);
  const pause = yielder();
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await pause();
      results[index] = await map(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * The header of a file, read synchronously (at most SWITCH_HEADER_BYTES), the
 * way pi looks for it: blank and malformed lines before it are skipped. A
 * string is the reason it is not a session, finishing "<path> …".
 */
export function readHeaderSync(path: string, options: { noFollow?: boolean; sameAs?: Stats } = {}): SessionHeaderFacts | string {
  // Never blocks on a named pipe, never reads anything but a regular file.
  const opened = openRegularFileSync(path, { what: "a session file", noFollow: options.noFollow });
  if (!opened.ok) {
    if (opened.code === "EACCES" || opened.code === "EPERM") return "cannot be read: permission denied";
    if (opened.code === "not_regular") return `is ${opened.kind}, not a session file`;
    if (opened.code === "ELOOP" && options.noFollow) return "is a symbolic link; Pier opens only session files stored in the session folder itself, never through a link";
    return `cannot be opened (${opened.code})`;
  }
  const fd = opened.fd;
  const { sameAs } = options;
  if (sameAs && (opened.stats.dev !== sameAs.dev || opened.stats.ino !== sameAs.ino)) {
    closeSync(fd);
    return "changed while it was being checked; try again";
  }
  try {
    const buffer = Buffer.allocUnsafe(SWITCH_HEADER_BYTES);
    let length = 0;
    let lineStart = 0;
    for (;;) {
      const bytesRead = readSync(fd, buffer, length, buffer.length - length, length);
      const atEnd = bytesRead === 0;
      length += bytesRead;
      let lf = buffer.subarray(0, length).indexOf(0x0a, lineStart);
      while (lf !== -1 || (atEnd && lineStart < length)) {
        const end = lf === -1 ? length : lf;
        const header = parseHeaderLine(buffer.subarray(lineStart, end));
        if (header === null) return "is not a pi session: its first line is not a session header";
        if (header !== undefined) return header;
        lineStart = end + 1;
        lf = lf === -1 ? -1 : buffer.subarray(0, length).indexOf(0x0a, lineStart);
      }
      if (atEnd) return length === 0 ? "is empty, not a pi session" : "is not a pi session: it has no session header";
      if (length === buffer.length) return `is not a pi session: no session header in its first ${SWITCH_HEADER_BYTES / 1024} KiB`;
    }
  } catch (error) {
    return `cannot be read (${errnoCode(error) ?? String(error)})`;
  } finally {
    closeSync(fd);
  }
}

function errnoCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined;
}
