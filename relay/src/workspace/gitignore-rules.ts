// What git would ignore: .gitignore files at every level (deeper files win)
// and .git/info/exclude at the root, matched by the `ignore` library (the
// gitignore semantics eslint and others rely on). Rule files are read lazily
// and cached per folder; the watcher invalidates a folder when its
// .gitignore changes. As in git, a .gitignore that is a symbolic link, a FIFO
// or anything but a regular file is not read.
import { constants } from "node:fs";
import { lstat, open } from "node:fs/promises";
import { join } from "node:path";
import ignore, { type Ignore } from "ignore";

const MAX_RULES_BYTES = 1024 * 1024;
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export class GitignoreRules {
  readonly #rootReal: string;
  readonly #cache = new Map<string, Promise<Ignore | null>>();

  constructor(rootReal: string) {
    this.#rootReal = rootReal;
  }

  /** Forget the rules of one folder ("" is the root). */
  invalidate(dirRel: string): void {
    this.#cache.delete(dirRel);
  }

  /** Whether `rel` is ignored, its ancestors included (an ignored folder hides everything in it). */
  async isIgnored(rel: string, isDir: boolean): Promise<boolean> {
    const segments = rel.split("/");
    for (let i = 1; i < segments.length; i++) {
      if (await this.isIgnoredEntry(segments.slice(0, i).join("/"), true)) return true;
    }
    return this.isIgnoredEntry(rel, isDir);
  }

  /** Whether `rel` itself is ignored, given that none of its ancestors is. */
  async isIgnoredEntry(rel: string, isDir: boolean): Promise<boolean> {
    const segments = rel.split("/");
    let ignored = false;
    for (let depth = 0; depth < segments.length; depth++) {
      const base = segments.slice(0, depth).join("/");
      const rules = await this.#rules(base);
      if (!rules) continue;
      const sub = segments.slice(depth).join("/") + (isDir ? "/" : "");
      try {
        const result = rules.test(sub);
        if (result.ignored) ignored = true;
        else if (result.unignored) ignored = false;
      } catch {
        // A name the library cannot judge is shown rather than hidden.
      }
    }
    return ignored;
  }

  #rules(dirRel: string): Promise<Ignore | null> {
    let rules = this.#cache.get(dirRel);
    if (!rules) {
      rules = this.#load(dirRel);
      this.#cache.set(dirRel, rules);
    }
    return rules;
  }

  async #load(dirRel: string): Promise<Ignore | null> {
    const dir = join(this.#rootReal, dirRel);
    const sources = dirRel === "" ? [join(dir, ".git", "info", "exclude"), join(dir, ".gitignore")] : [join(dir, ".gitignore")];
    const texts = (await Promise.all(sources.map(readRulesFile))).filter((text): text is string => text !== null);
    if (texts.length === 0) return null;
    const rules = ignore();
    for (const text of texts) rules.add(text);
    return rules;
  }
}

async function readRulesFile(path: string): Promise<string | null> {
  try {
    const info = await lstat(path);
    if (!info.isFile()) return null;
    const handle = await open(path, READ_FLAGS);
    try {
      const buffer = Buffer.alloc(Math.min(info.size, MAX_RULES_BYTES));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      return buffer.subarray(0, bytesRead).toString("utf8");
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}
