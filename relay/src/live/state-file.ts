// One file in pier's state folder (state-dir.ts), written whole: the bytes go
// to a temporary file beside it, then rename() swaps it in, so a crash or a
// second pier reading at that moment sees the old file or the new one, never
// half. The folder is 0700 and the file 0600: what pier remembers (folders,
// host names, session files) is its user's alone.
import { randomBytes } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { readRegularTextFile } from "../regular-file.ts";

/** Replaces `file` with `text`; throws what the file system said. */
export async function writeStateFile(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  await writeFile(temp, text, { mode: 0o600 });
  await rename(temp, file);
}

/**
 * `file`'s text (at most `maxBytes`, else "too_large"), or null when there is
 * none; throws a sentence for anything else. Read like any file pier is
 * told to read (regular-file.ts): a named pipe put where the state file goes
 * is never waited on, so it cannot hold pier's start.
 */
export async function readStateFile(file: string, maxBytes: number): Promise<string | "too_large" | null> {
  const read = await readRegularTextFile(file, { what: "a file pier wrote", maxBytes });
  if (read.ok) return read.text;
  if (read.code === "ENOENT") return null;
  if (read.code === "too_large") return "too_large";
  throw new Error(read.message);
}

/** Moves a file pier cannot read aside (never deletes it) and returns where it went. */
export async function setAside(file: string): Promise<string> {
  const aside = `${file}.unreadable-${Date.now()}`;
  await rename(file, aside).catch(() => {});
  return aside;
}
