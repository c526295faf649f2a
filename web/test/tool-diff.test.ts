// Diff rows for the edit card: from pi's own unified patch (line numbers in
// the file) and from an edit call's replacements (before pi has applied it).
import { describe, expect, test } from "vitest";
import { editReplacements } from "../src/lib/tools/tool-details.ts";
import { diffStats, parseUnifiedPatch, replacementLines } from "../src/lib/highlight/diff-lines.ts";
import { patchStats } from "../src/lib/highlight/patch-stats.ts";

// What pi 0.87.1's edit tool returns in details.patch (jsdiff createTwoFilesPatch).
const PI_PATCH = [
  "Index: src/greetings.js",
  "===================================================================",
  "--- src/greetings.js",
  "+++ src/greetings.js",
  "@@ -3,4 +3,5 @@",
  " export const GREETINGS = {",
  '   en: "Hello, {name}!",',
  '-  de: "Hallo",',
  '+  de: "Hallo, {name}!",',
  '+  es: "¡Hola, {name}!",',
  " };",
  "\\ No newline at end of file",
  "",
].join("\n");

describe("parseUnifiedPatch", () => {
  test("rows carry kinds and old/new line numbers from the hunk header", () => {
    const rows = parseUnifiedPatch(PI_PATCH);
    expect(rows.map((r) => [r.kind, r.oldNo, r.newNo, r.text])).toEqual([
      ["hunk", null, null, "@@ -3,4 +3,5 @@"],
      ["context", 3, 3, "export const GREETINGS = {"],
      ["context", 4, 4, '  en: "Hello, {name}!",'],
      ["del", 5, null, '  de: "Hallo",'],
      ["add", null, 5, '  de: "Hallo, {name}!",'],
      ["add", null, 6, '  es: "¡Hola, {name}!",'],
      ["context", 6, 7, "};"],
      ["note", null, null, "No newline at end of file"],
    ]);
    expect(diffStats(rows)).toEqual({ added: 2, removed: 1 });
    // The collapsed card counts the same without jsdiff; --- / +++ headers are not lines.
    expect(patchStats(PI_PATCH)).toEqual({ added: 2, removed: 1 });
  });

  test("garbage is no diff rather than an exception", () => {
    expect(parseUnifiedPatch("@@ not a patch")).toEqual([]);
    expect(parseUnifiedPatch("")).toEqual([]);
  });
});

describe("replacementLines", () => {
  test("shows every line of both snippets, without file line numbers", () => {
    const rows = replacementLines("a\nb\nc\n", "a\nB\nc\nd\n");
    expect(rows.map((r) => `${r.kind}:${r.text}`)).toEqual(["context:a", "del:b", "add:B", "context:c", "add:d"]);
    expect(rows.every((r) => r.oldNo === null && r.newNo === null)).toBe(true);
  });

  test("snippets without trailing newlines still diff line by line", () => {
    const rows = replacementLines("return 1;", "return 2;");
    expect(diffStats(rows)).toEqual({ added: 1, removed: 1 });
  });
});

describe("editReplacements", () => {
  test("pi 0.87.1 shape: edits[]", () => {
    expect(
      editReplacements({
        path: "x",
        edits: [
          { oldText: "a", newText: "b" },
          { oldText: "c", newText: "d" },
        ],
      }),
    ).toEqual([
      { oldText: "a", newText: "b" },
      { oldText: "c", newText: "d" },
    ]);
  });

  test("older single-replacement shapes", () => {
    expect(editReplacements({ path: "x", oldText: "a", newText: "b" })).toEqual([{ oldText: "a", newText: "b" }]);
    expect(editReplacements({ file_path: "x", old_string: "a", new_string: "" })).toEqual([{ oldText: "a", newText: "" }]);
  });

  test("malformed arguments give no replacements", () => {
    expect(editReplacements(null)).toEqual([]);
    expect(editReplacements({ edits: [{ oldText: 1 }, "x"] })).toEqual([]);
  });
});
