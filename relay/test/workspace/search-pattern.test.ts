// The search query's checks and the replacement builder (search-pattern.ts).
import { describe, expect, it } from "vitest";
import { applyReplacements, buildLineRegExp, cutLine, expandReplacement, matchRanges, parseSearchQuery, planReplacements } from "../../src/workspace/search-pattern.ts";

const q = (pattern: string, options: { regex?: boolean; caseSensitive?: boolean; wholeWord?: boolean } = {}) => ({ pattern, regex: false, caseSensitive: false, wholeWord: false, ...options });

describe("parseSearchQuery", () => {
  it("reads URL parameters and a JSON body alike", () => {
    const fromUrl = parseSearchQuery(new URLSearchParams({ q: "a.b", regex: "1", case: "1", include: "src/**, *.ts", exclude: "" }));
    expect(fromUrl).toEqual({ pattern: "a.b", regex: true, caseSensitive: true, wholeWord: false, include: ["src/**", "*.ts"], exclude: [], ignored: false });
    expect(parseSearchQuery({ pattern: "x", wholeWord: true, include: ["a/**"] })).toMatchObject({ pattern: "x", wholeWord: true, include: ["a/**"] });
  });

  it("refuses an empty query, a line break, an invalid regex, with a sentence", () => {
    expect(() => parseSearchQuery(new URLSearchParams({ q: "" }))).toThrow(/empty/);
    expect(() => parseSearchQuery({ pattern: "a\nb" })).toThrow(/line break/);
    expect(() => parseSearchQuery({ pattern: "(a", regex: true })).toThrow(/regular expression is not valid/);
    // The same text is fine as plain text.
    expect(parseSearchQuery({ pattern: "(a" }).pattern).toBe("(a");
  });
});

describe("matching within a line", () => {
  it("finds every match, with case, word and literal modes", () => {
    expect(matchRanges(buildLineRegExp(q("ab")), "Ab ab xab")).toEqual([
      [0, 2],
      [3, 5],
      [7, 9],
    ]);
    expect(matchRanges(buildLineRegExp(q("ab", { caseSensitive: true })), "Ab ab")).toEqual([[3, 5]]);
    expect(matchRanges(buildLineRegExp(q("ab", { wholeWord: true })), "ab xab ab_ ab.")).toEqual([
      [0, 2],
      [11, 13],
    ]);
    expect(matchRanges(buildLineRegExp(q("a.b")), "axb a.b")).toEqual([[4, 7]]);
    expect(matchRanges(buildLineRegExp(q("a.b", { regex: true })), "axb a.b")).toEqual([
      [0, 3],
      [4, 7],
    ]);
    // An empty match never loops.
    expect(matchRanges(buildLineRegExp(q("x*", { regex: true })), "abxxc")).toEqual([[2, 4]]);
  });

  it("cuts a long line around the match and says what was left off", () => {
    const line = "a".repeat(1000) + "NEEDLE" + "b".repeat(1000);
    const cut = cutLine(line, 1000, 1006, 240);
    expect(cut.text.length).toBe(240);
    expect(cut.text).toContain("NEEDLE");
    expect(line.slice(cut.cutBefore, cut.cutBefore + 240)).toBe(cut.text);
    expect(cut.cutAfter).toBe(true);
    expect(cutLine("short", 0, 1)).toEqual({ text: "short", cutBefore: 0, cutAfter: false });
  });
});

describe("the replacement builder", () => {
  const match = (re: RegExp, text: string) => re.exec(text)!;

  it("expands $1, $<name>, $& and $$ in regex mode, and nothing in plain mode", () => {
    const m = match(/(?<key>\w+)=(\d+)/, "size=42");
    expect(expandReplacement("$2:$1", m, true)).toBe("42:size");
    expect(expandReplacement("$<key>!", m, true)).toBe("size!");
    expect(expandReplacement("[$&] $$1", m, true)).toBe("[size=42] $1");
    // No group 9: left as typed; "$12" with two groups is $1 then "2".
    expect(expandReplacement("$9", m, true)).toBe("$9");
    expect(expandReplacement("$12", m, true)).toBe("size2");
    expect(expandReplacement("$1 costs $$", m, false)).toBe("$1 costs $$");
  });

  it("numbers matches in file order and replaces only the chosen ones, keeping line ends", () => {
    const content = "foo(1) foo(2)\r\nx\nfoo(3)\n";
    const plan = planReplacements(content, buildLineRegExp(q("foo\\((\\d)\\)", { regex: true })), "bar$1", true);
    expect(plan.matches.map((m) => [m.index, m.lineIndex, m.replacement])).toEqual([
      [0, 0, "bar1"],
      [1, 0, "bar2"],
      [2, 2, "bar3"],
    ]);
    expect(applyReplacements(plan.lines, plan.matches, new Set([1, 2]))).toBe("foo(1) bar2\r\nx\nbar3\n");
    expect(applyReplacements(plan.lines, plan.matches, new Set())).toBe(content);
  });
});
