import { describe, expect, it } from "vitest";
// Monaco's own theme rules (VS Code's "vs" and "vs-dark"), from the installed version: a new
// token colour in an upgrade is checked too. (Not an export of the package: imported by path.)
// @ts-expect-error -- a plain ESM file of monaco-editor without types
import { vs, vs_dark } from "../node_modules/monaco-editor/esm/vs/editor/standalone/common/themes.js";
import { DARK_BRACKETS, DARK_SURFACES, DARK_SYNTAX, LIGHT_BRACKETS, LIGHT_SURFACES, LIGHT_SYNTAX, type EditorSurfaces, type SyntaxColour } from "../src/lib/monaco/editor-palette.ts";

interface ThemeRule {
  token: string;
  foreground?: string;
}

/** WCAG 2 relative luminance of #rrggbb. */
function luminance(hex: string): number {
  const channel = (at: number) => {
    const c = parseInt(hex.replace("#", "").slice(at, at + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Each token's colour as the editor shows it: Monaco's rule, unless Pier's comes after it. */
function effectiveColours(base: readonly ThemeRule[], overrides: readonly SyntaxColour[]): Map<string, string> {
  const colours = new Map<string, string>();
  for (const rule of [...base, ...overrides]) if (rule.foreground) colours.set(rule.token, rule.foreground.slice(0, 6));
  return colours;
}

/** The tokens (and bracket colours) under 4.5:1 on the editor's background or the current line's highlight. */
function unreadable(colours: Map<string, string>, surfaces: EditorSurfaces): string[] {
  const failing: string[] = [];
  for (const [token, colour] of colours) {
    for (const background of [surfaces.bg, surfaces.sunken]) {
      const ratio = contrast(`#${colour}`, background);
      if (ratio < 4.5) failing.push(`${token || "(default)"} #${colour} on ${background}: ${ratio.toFixed(2)}:1`);
    }
  }
  return failing;
}

const brackets = (colours: Record<string, string>) => new Map(Object.entries(colours).map(([name, hex]) => [name, hex.slice(1)]));

describe("the editor's syntax colours", () => {
  it("were under 4.5:1 in Monaco's own themes (what the overrides are for)", () => {
    expect(unreadable(effectiveColours(vs.rules, []), LIGHT_SURFACES).length).toBeGreaterThan(0);
    expect(unreadable(effectiveColours(vs_dark.rules, []), DARK_SURFACES).length).toBeGreaterThan(0);
  });

  it("all reach 4.5:1 on the light editor's background and line highlight", () => {
    expect(unreadable(effectiveColours(vs.rules, LIGHT_SYNTAX), LIGHT_SURFACES)).toEqual([]);
    expect(unreadable(brackets(LIGHT_BRACKETS), LIGHT_SURFACES)).toEqual([]);
  });

  it("all reach 4.5:1 on the dark editor's background and line highlight", () => {
    expect(unreadable(effectiveColours(vs_dark.rules, DARK_SYNTAX), DARK_SURFACES)).toEqual([]);
    expect(unreadable(brackets(DARK_BRACKETS), DARK_SURFACES)).toEqual([]);
  });

  it("change only tokens Monaco's themes colour (a typo would change nothing)", () => {
    const tokens = (rules: readonly ThemeRule[]) => new Set(rules.map((rule) => rule.token));
    expect(LIGHT_SYNTAX.filter((rule) => !tokens(vs.rules).has(rule.token))).toEqual([]);
    expect(DARK_SYNTAX.filter((rule) => !tokens(vs_dark.rules).has(rule.token))).toEqual([]);
  });
});
