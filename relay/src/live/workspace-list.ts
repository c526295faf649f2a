// The workspaces of this pier: the folders given with --cwd (the first is
// where the primary session runs), those added from the page, and those
// used recently in earlier runs, remembered in pier's state directory
// (state-dir.ts) in `workspaces.json`. Removing one from the list forgets
// it; no file of the folder is ever touched.
//
// The file is pier's, but anything may have written it: it is read with
// every field checked, a file that is not what pier writes is set aside
// (renamed, never deleted) with a line in the log, and writes replace it
// whole (a temporary file renamed over it), so a crash leaves the old list.
import { basename, isAbsolute, join } from "node:path";
import type { WorkspaceInfo } from "@pier/protocol";
import { readStateFile, setAside, writeStateFile } from "./state-file.ts";

const FILE = "workspaces.json";
const VERSION = 1;
/** Recent workspaces remembered at most (the oldest are forgotten first). */
export const MAX_REMEMBERED = 30;
/** A state file bigger than this is not one pier wrote. */
const MAX_FILE_BYTES = 256 * 1024;

type Remembered = { path: string; lastUsedAt: number };

export class WorkspaceList {
  readonly #dir: string;
  readonly #log: (line: string) => void;
  /** Given on the command line this run (always listed, first first). */
  readonly #given: string[];
  /** Listed this run but never saved (the demo's scratch copy, gone when pier stops). */
  readonly #transient: string[];
  /** By path: when each was last used (this run or an earlier one). */
  readonly #remembered = new Map<string, number>();
  #saving: Promise<void> = Promise.resolve();

  private constructor(dir: string, given: string[], transient: string[], log: (line: string) => void) {
    this.#dir = dir;
    this.#given = [...new Set(given)];
    this.#transient = transient.filter((path) => !this.#given.includes(path));
    this.#log = log;
  }

  /** Reads what earlier runs remembered; the folders of `given` are used now. */
  static async open(options: { stateDir: string; given: string[]; transient?: string[]; log: (line: string) => void; now?: number }): Promise<WorkspaceList> {
    const list = new WorkspaceList(options.stateDir, options.given, options.transient ?? [], options.log);
    await list.#load();
    const now = options.now ?? Date.now();
    for (const path of list.#given) list.#remembered.set(path, now);
    list.#trim();
    await list.#save();
    return list;
  }

  /** Every workspace: those given this run first, then the rest, most recently used first. */
  list(): WorkspaceInfo[] {
    const given = new Set([...this.#given, ...this.#transient]);
    const rest = [...this.#remembered].filter(([path]) => !given.has(path)).sort((a, b) => b[1] - a[1]);
    const first = [...this.#transient, ...this.#given].map((path) => [path, this.#remembered.get(path) ?? 0] as const);
    return [...first, ...rest].map(([path, lastUsedAt]) => ({
      path,
      name: basename(path) || path,
      lastUsedAt,
      given: given.has(path),
    }));
  }

  has(path: string): boolean {
    return this.#remembered.has(path);
  }

  /** `path` (absolute, checked by the caller) was added or an agent started there: listed, and remembered. */
  async use(path: string, now = Date.now()): Promise<void> {
    if (this.#transient.includes(path)) return;
    this.#remembered.delete(path);
    this.#remembered.set(path, now);
    this.#trim();
    await this.#save();
  }

  /** Forget `path` (not one given with --cwd this run). False when it was not listed. Its files are not touched. */
  async remove(path: string): Promise<boolean> {
    if (this.#given.includes(path) || this.#transient.includes(path) || !this.#remembered.delete(path)) return false;
    await this.#save();
    return true;
  }

  #trim(): void {
    const given = new Set(this.#given);
    const rest = [...this.#remembered].filter(([path]) => !given.has(path)).sort((a, b) => a[1] - b[1]);
    while (rest.length > 0 && this.#remembered.size > MAX_REMEMBERED) this.#remembered.delete(rest.shift()![0]);
  }

  async #load(): Promise<void> {
    const file = join(this.#dir, FILE);
    let text: string | "too_large" | null;
    try {
      text = await readStateFile(file, MAX_FILE_BYTES);
    } catch (error) {
      this.#log(`cannot read the recent workspaces in ${file}: ${String(error)}`);
      return;
    }
    if (text === null) return;
    const entries = text === "too_large" ? null : parse(text);
    if (entries === null) {
      const aside = await setAside(file);
      this.#log(`${file} is not a list of workspaces pier wrote; it was set aside as ${aside} and the list starts empty`);
      return;
    }
    for (const entry of entries) this.#remembered.set(entry.path, entry.lastUsedAt);
  }

  /** One write at a time, each of the whole list as it is then. A failure is logged: the list still works for this run. */
  #save(): Promise<void> {
    this.#saving = this.#saving.then(async () => {
      const entries: Remembered[] = [...this.#remembered].map(([path, lastUsedAt]) => ({ path, lastUsedAt }));
      const file = join(this.#dir, FILE);
      try {
        await writeStateFile(file, `${JSON.stringify({ version: VERSION, workspaces: entries }, null, 2)}\n`);
      } catch (error) {
        this.#log(`cannot remember the recent workspaces in ${file}: ${String(error)}`);
      }
    });
    return this.#saving;
  }
}

/** The entries of a state file, or null when it is not one pier wrote. */
function parse(text: string): Remembered[] | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { version, workspaces } = value as Record<string, unknown>;
  if (version !== VERSION || !Array.isArray(workspaces)) return null;
  const entries: Remembered[] = [];
  for (const entry of workspaces) {
    if (typeof entry !== "object" || entry === null) return null;
    const { path, lastUsedAt } = entry as Record<string, unknown>;
    if (typeof path !== "string" || !isAbsolute(path) || path.includes("\0") || typeof lastUsedAt !== "number" || !Number.isFinite(lastUsedAt)) return null;
    entries.push({ path, lastUsedAt });
  }
  return entries;
}
