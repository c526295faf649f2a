// Open/closed choices outlive the rows that show them, and stay bounded.
import { describe, expect, it } from "vitest";
import { isDisclosureOpen, setDisclosureOpen } from "../src/lib/transcript/disclosures.svelte.ts";

describe("transcript disclosures", () => {
  it("answers the fallback until the person chooses, then their last choice", () => {
    expect(isDisclosureOpen("tool:a", false)).toBe(false);
    expect(isDisclosureOpen("bash:1", true)).toBe(true);
    setDisclosureOpen("tool:a", true);
    setDisclosureOpen("bash:1", false);
    expect(isDisclosureOpen("tool:a", false)).toBe(true);
    expect(isDisclosureOpen("bash:1", true)).toBe(false);
    setDisclosureOpen("tool:a", false);
    expect(isDisclosureOpen("tool:a", true)).toBe(false);
  });

  it("forgets the least recently chosen beyond 5,000, never a recent one", () => {
    setDisclosureOpen("keep:early", true);
    for (let i = 0; i < 4000; i++) setDisclosureOpen(`old:${i}`, true);
    // Chosen again: it moves to the recent end.
    setDisclosureOpen("keep:early", false);
    for (let i = 0; i < 2000; i++) setDisclosureOpen(`new:${i}`, true);
    expect(isDisclosureOpen("old:0", false)).toBe(false);
    expect(isDisclosureOpen("old:3999", false)).toBe(true);
    expect(isDisclosureOpen("keep:early", true)).toBe(false);
    expect(isDisclosureOpen("new:1999", false)).toBe(true);
  });
});
