// Whether the workspace is trusted: one decision shared with pi. pi keeps
// per-folder decisions in <agentDir>/trust.json (its `/trust` command writes
// them; pi 0.87.1 and 1.6.0 use the same format, dist/core/trust-manager.js):
// a JSON object whose keys are canonical folder paths (symbolic links
// resolved) and whose values are true, false or null, sorted, two-space
// indented. The closest saved decision for the folder or one of its parents
// applies; with none, pi's global `defaultProjectTrust` setting
// (<agentDir>/settings.json): "always" trusts, "ask" and "never" do not (pi's
// RPC mode cannot ask). This file reads and writes those decisions exactly as
// pi does, so a folder trusted in pi's terminal is trusted here and the
// reverse.
//
// Writes take pi's own lock (proper-lockfile's: a folder "trust.json.lock",
// stale after 10 s) so a concurrent `/trust` in pi's terminal is not lost,
// keep every other entry, and replace the file atomically (pi itself
// rewrites it in place). A trust store that cannot be read is never
// overwritten: the folder counts as untrusted and the reason is told.
import { randomBytes } from "node:crypto";
import { mkdir, realpath, rename, rmdir, stat, unlink, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { WorkspaceTrustInfo } from "@pier/protocol";
import { readRegularTextFile } from "../regular-file.ts";
import { piAgentDir } from "../sessions/session-dir.ts";

/** trust.json and settings.json are small; anything larger is not pi's. */
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

export type TrustStoreData = Record<string, boolean | null>;
export type DefaultProjectTrust = "always" | "ask" | "never";

/** proper-lockfile's default `stale`: a lock folder older than this was left by a process that died. */
const LOCK_STALE_MS = 10_000;
/** How long a write waits for pi to release its lock (pi holds it for one read and one write). */
const LOCK_WAIT_MS = 2_000;
const LOCK_RETRY_MS = 20;

export class TrustStoreError extends Error {
  override name = "TrustStoreError";
}

/** trust.json's text as pi reads it (a BOM is ignored); throws TrustStoreError with a sentence. */
export function parseTrustStore(text: string, file: string): TrustStoreData {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new TrustStoreError(`pi's trust store ${file} is not valid JSON (${error instanceof Error ? error.message : String(error)}).`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new TrustStoreError(`pi's trust store ${file} is not a JSON object.`);
  const data: TrustStoreData = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (value !== true && value !== false && value !== null) throw new TrustStoreError(`pi's trust store ${file} holds ${JSON.stringify(key)}: ${JSON.stringify(value)}, not true, false or null.`);
    data[key] = value;
  }
  return data;
}

/** trust.json's text as pi writes it: keys sorted, two spaces, a final newline. */
export function formatTrustStore(data: TrustStoreData): string {
  const sorted: TrustStoreData = {};
  for (const key of Object.keys(data).sort()) {
    const value = data[key];
    if (value === true || value === false || value === null) sorted[key] = value;
  }
  return `${JSON.stringify(sorted, null, 2)}\n`;
}

/** pi's findNearestTrustEntry: the saved decision for `folder` (canonical) or its closest parent. */
export function nearestDecision(data: TrustStoreData, folder: string): { path: string; trusted: boolean } | null {
  let current = folder;
  for (;;) {
    const value = data[current];
    if (value === true || value === false) return { path: current, trusted: value };
    const parent = dirname(current);
    if (parent === current) return null;
    current = parent;
  }
}

/** pi's getDefaultProjectTrust: the global settings' value, "ask" unless it is "always" or "never". */
export function defaultProjectTrust(settingsText: string | null): DefaultProjectTrust {
  if (settingsText === null) return "ask";
  try {
    const settings = JSON.parse(settingsText.charCodeAt(0) === 0xfeff ? settingsText.slice(1) : settingsText) as { defaultProjectTrust?: unknown } | null;
    const value = settings?.defaultProjectTrust;
    return value === "always" || value === "never" ? value : "ask";
  } catch {
    // pi refuses to start on a settings file it cannot parse; "ask" is the safe reading.
    return "ask";
  }
}

export class WorkspaceTrust {
  /** The workspace as pi names it in trust.json: the canonical path of its working folder. */
  readonly folder: string;
  readonly trustFile: string;
  readonly settingsFile: string;

  private constructor(folder: string, agentDir: string) {
    this.folder = folder;
    this.trustFile = join(agentDir, "trust.json");
    this.settingsFile = join(agentDir, "settings.json");
  }

  /** For the folder pi runs in, with pi's environment (PI_CODING_AGENT_DIR, HOME). */
  static async open(cwd: string, env: NodeJS.ProcessEnv): Promise<WorkspaceTrust> {
    // pi's process.cwd() is the kernel's answer: symbolic links resolved, as its canonicalizePath does.
    const folder = await realpath(cwd).catch(() => resolve(cwd));
    return new WorkspaceTrust(folder, resolve(folder, piAgentDir(env, env.HOME || homedir())));
  }

  /** The decision that applies now, read afresh (another pi may have changed it). */
  async read(): Promise<WorkspaceTrustInfo> {
    let data: TrustStoreData;
    try {
      data = await this.#readStore();
    } catch (error) {
      if (!(error instanceof TrustStoreError)) throw error;
      return { trusted: false, source: "default", problem: error.message };
    }
    const saved = nearestDecision(data, this.folder);
    if (saved !== null) return { trusted: saved.trusted, source: saved.path === this.folder ? "folder" : "parent", path: saved.path };
    const settings = await readRegularTextFile(this.settingsFile, { what: "pi's settings", maxBytes: MAX_CONFIG_BYTES }).then((read) => (read.ok ? read.text : null));
    return { trusted: defaultProjectTrust(settings) === "always", source: "default" };
  }

  /**
   * Saves a decision for this folder, as pi's "Trust" / "Do not trust"
   * choices do (the folder's own entry; a parent's entry stays), and
   * returns the decision that now applies.
   */
  async decide(trusted: boolean): Promise<WorkspaceTrustInfo> {
    await mkdir(dirname(this.trustFile), { recursive: true });
    const release = await this.#lock();
    try {
      const data = await this.#readStore();
      data[this.folder] = trusted;
      const temporary = `${this.trustFile}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        await writeFile(temporary, formatTrustStore(data), { encoding: "utf8", flag: "wx", mode: 0o600 });
        await rename(temporary, this.trustFile);
      } catch (error) {
        await unlink(temporary).catch(() => {});
        throw error;
      }
    } finally {
      await release();
    }
    return this.read();
  }

  async #readStore(): Promise<TrustStoreData> {
    // Never waits on a named pipe, never reads a huge file (regular-file.ts).
    const read = await readRegularTextFile(this.trustFile, { what: "pi's trust store", maxBytes: MAX_CONFIG_BYTES });
    if (!read.ok) {
      if (read.code === "ENOENT") return {};
      throw new TrustStoreError(`pi's trust store cannot be read: ${read.message}.`);
    }
    return parseTrustStore(read.text, this.trustFile);
  }

  /** pi's lock: mkdir of "<trust.json>.lock" is atomic; a lock older than proper-lockfile's stale time is taken over. */
  async #lock(): Promise<() => Promise<void>> {
    const lock = `${this.trustFile}.lock`;
    const giveUpAt = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        await mkdir(lock);
        return () => rmdir(lock).catch(() => {});
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const held = await stat(lock).catch(() => null);
      if (held !== null && Date.now() - held.mtimeMs > LOCK_STALE_MS) {
        await rmdir(lock).catch(() => {});
        continue;
      }
      if (Date.now() > giveUpAt) throw new TrustStoreError(`pi's trust store is locked by another program (${lock}); try again in a moment.`);
      await new Promise((done) => setTimeout(done, LOCK_RETRY_MS));
    }
  }
}
