// The Search view's pure parts: records grouped by file, highlighting, where
// a result opens, and NDJSON arriving in pieces (search-results.ts, search-api.ts).
import type { SearchMatchRecord } from "@pier/protocol";
import { describe, expect, it } from "vitest";
import { NdjsonLines, searchUrl } from "../../src/lib/workspace/search-api.ts";
import { addMatches, focusOn, highlightPieces, matchColumn } from "../../src/lib/workspace/search-results.ts";

const match = (path: string, line: number, ranges: [number, number][], extra: Partial<SearchMatchRecord> = {}): SearchMatchRecord => ({
  type: "match",
  path,
  line,
  text: "x".repeat(40),
  ranges,
  ...extra,
});

describe("search results", () => {
  it("groups lines by file across batches, counting matches (a cut line's by its whole count)", () => {
    const first = addMatches(
      [],
      [
        match("a.ts", 1, [[0, 1]]),
        match("a.ts", 2, [
          [0, 1],
          [3, 4],
        ]),
      ],
    );
    const second = addMatches(first, [match("a.ts", 9, [[0, 1]], { matchCount: 5 }), match("b.ts", 1, [])]);
    expect(second.map((f) => [f.path, f.lines.map((l) => l.line), f.matches])).toEqual([
      ["a.ts", [1, 2, 9], 8],
      ["b.ts", [1], 1],
    ]);
    // The earlier state is left as it was (a raw $state sees a new value).
    expect(first[0]!.lines).toHaveLength(2);
  });

  it("marks matches without HTML, and brings a far match into view", () => {
    expect(
      highlightPieces("a <b> a", [
        [0, 1],
        [6, 7],
      ]),
    ).toEqual([
      { text: "a", match: true },
      { text: " <b> ", match: false },
      { text: "a", match: true },
    ]);
    const far = focusOn("y".repeat(100) + "NEEDLE", [[100, 106]], 10);
    expect(far).toEqual({ text: "y".repeat(10) + "NEEDLE", ranges: [[10, 16]], lead: true });
    expect(focusOn("short NEEDLE", [[6, 12]]).lead).toBe(false);
  });

  it("opens a result at its first match's column in the whole line", () => {
    expect(matchColumn(match("a", 1, [[4, 6]]))).toBe(5);
    expect(matchColumn(match("a", 1, [[4, 6]], { cutBefore: 100 }))).toBe(105);
  });

  it("reads NDJSON cut anywhere into records, and builds the search URL", () => {
    const lines = new NdjsonLines();
    const text = '{"type":"match","path":"a","line":1,"text":"x","ranges":[]}\n{"type":"done"}\n';
    const out = [...lines.push(text.slice(0, 17)), ...lines.push(text.slice(17, 70)), ...lines.push(text.slice(70))];
    expect(out.map((r) => r.type)).toEqual(["match", "done"]);
    expect(searchUrl("/live/2", { pattern: "a b", regex: true, caseSensitive: false, wholeWord: true, include: ["src/**", "*.ts"], exclude: [], ignored: false })).toBe(
      "/live/2/api/search?q=a+b&regex=1&word=1&include=src%2F**%2C*.ts",
    );
  });
});
