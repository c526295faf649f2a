import { describe, expect, it } from "vitest";
import { foregroundFromStat } from "../../src/fresh-links.ts";

// /proc/<pid>/stat: pid (comm) state ppid pgrp session tty_nr tpgid flags …
const stat = (comm: string, pgrp: number, tpgid: number) => `4242 (${comm}) S 4000 ${pgrp} 4000 34816 ${tpgid} 4194560 1 2 3 4`;

describe("foregroundFromStat", () => {
  it("is true when the process group is the terminal's foreground group, false when another group has the terminal", () => {
    expect(foregroundFromStat(stat("node", 4242, 4242))).toBe(true);
    expect(foregroundFromStat(stat("node", 4242, 4000))).toBe(false);
  });

  it("is false without a controlling terminal (tpgid -1)", () => {
    expect(foregroundFromStat(stat("node", 4242, -1))).toBe(false);
  });

  it("counts the fields after the last parenthesis: a command name may hold spaces and parentheses", () => {
    expect(foregroundFromStat(stat("pier (x) 1 2 3 4 5 6", 7, 7))).toBe(true);
    expect(foregroundFromStat(stat("a) S 1 9 9 9 9", 7, 8))).toBe(false);
  });

  it("throws on text that is not a stat line", () => {
    expect(() => foregroundFromStat("")).toThrow(/not a \/proc stat line/);
    expect(() => foregroundFromStat("4242 (node) S")).toThrow(/not a \/proc stat line/);
    expect(() => foregroundFromStat("4242 (node) S x y z w v")).toThrow(/not a \/proc stat line/);
  });
});
