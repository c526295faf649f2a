// Which highlight.js grammar a file gets, decided from its name alone.
import { describe, expect, test } from "vitest";
import { languageForPath } from "../src/lib/highlight/languages.ts";

describe("languageForPath", () => {
  test.each([
    ["src/greet.js", "javascript"],
    ["web/src/App.svelte", "xml"],
    ["a/b/c.test.ts", "typescript"],
    ["Component.TSX", "typescript"],
    ["package.json", "json"],
    ["README.md", "markdown"],
    ["scripts/build.sh", "bash"],
    ["main.py", "python"],
    ["lib.rs", "rust"],
    ["config/app.yml", "yaml"],
    ["Cargo.toml", "ini"],
    ["fix.patch", "diff"],
    ["Dockerfile", "bash"],
    ["/abs/path/Makefile", "bash"],
    ["C:\\work\\x.go", "go"],
    [".env", "ini"],
  ])("%s → %s", (path, language) => {
    expect(languageForPath(path)).toBe(language);
  });

  test.each([["notes.txt"], ["LICENSE"], ["archive.tar.gz"], ["dir/"], [".hidden"], ["trailing."], [""]])("%s has no grammar", (path) => {
    expect(languageForPath(path)).toBeNull();
  });

  test("missing paths are handled", () => {
    expect(languageForPath(undefined)).toBeNull();
    expect(languageForPath(null)).toBeNull();
  });
});
