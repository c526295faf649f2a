// One file in pier's state folder (state-dir.ts), written whole: the bytes go
// to a temporary file beside it, then rename() swaps it in, so a crash or a
// second pier reading at that moment sees the old file or the new one, never
// half. The folder is 0700 and the file 0600: what pier remembers (folders,
// host names, session files) is its user's alone.
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/** Replaces `file` with `text`; throws what the file system said. */
export async function writeStateFile(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  await writeFile(temp, text, { mode: 0o600 });
  await rename(temp, file);
}

/** `file`'s text (at most `maxBytes`, else "too_large"), or null when there is none; throws any other failure to read. */
export async function readStateFile(file: string, maxBytes: number): Promise<string | "too_large" | null> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  return Buffer.byteLength(text) > maxBytes ? "too_large" : text;
}

/** Moves a file pier cannot read aside (never deletes it) and returns where it went. */
export async function setAside(file: string): Promise<string> {
  const aside = `${file}.unreadable-${Date.now()}`;
  await rename(file, aside).catch(() => {});
  return aside;
}
