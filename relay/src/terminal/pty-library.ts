// The PTY library, loaded on first use: @lydell/node-pty carries its native
// binary in a per-platform npm package (no install script, no compiler, no
// download), so it installs offline. Where no such package exists for the
// platform, pier still starts and the terminal says why in one sentence.
// The relay bundle leaves it external (scripts/bundle.mjs): a native module
// is loaded from its installed package at run time.
import { createRequire } from "node:module";
import type * as NodePty from "@lydell/node-pty";

export type PtyLibrary = typeof NodePty;

let loaded: PtyLibrary | { unavailable: string } | null = null;

/**
 * Required, not imported: the package is CommonJS, and `require` gives its
 * exports the same way from the sources and from the bundle (an `import()`
 * of it answers with a namespace whose shape depends on who loads it).
 */
export async function loadPty(): Promise<PtyLibrary | { unavailable: string }> {
  try {
    loaded ??= createRequire(import.meta.url)("@lydell/node-pty") as PtyLibrary;
  } catch (error) {
    loaded = {
      unavailable: `Shells cannot be opened here: the pseudo-terminal library did not load on ${process.platform}-${process.arch} (${firstLine(error)}).`,
    };
  }
  return loaded;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0]!.replace(/\.$/, "");
}
