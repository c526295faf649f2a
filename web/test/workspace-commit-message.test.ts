import { describe, expect, it } from "vitest";
import { commitMessageHint, hintText } from "../src/lib/workspace/commit-message.ts";

describe("commit message hint", () => {
  it("a subject within 50 characters and a blank second line: nothing to say", () => {
    const hint = commitMessageHint("Fix the parser\n\nIt dropped a trailing \\r.");
    expect(hint).toEqual({ subjectLength: 14, subject: "ok", secondLineNotBlank: false, empty: false });
    expect(hintText(hint)).toBeNull();
  });

  it("over 50 warned, over 72 clearly, counted in characters a person sees", () => {
    expect(commitMessageHint("x".repeat(50)).subject).toBe("ok");
    expect(commitMessageHint("x".repeat(51)).subject).toBe("long");
    expect(hintText(commitMessageHint("x".repeat(51)))).toMatch(/51 characters: keep it within 50/);
    expect(commitMessageHint("x".repeat(72)).subject).toBe("long");
    expect(commitMessageHint("x".repeat(73)).subject).toBe("too_long");
    expect(hintText(commitMessageHint("x".repeat(73)))).toMatch(/73 characters: over 72/);
    // 50 emoji are 100 UTF-16 units but 50 characters.
    expect(commitMessageHint("🎉".repeat(50)).subject).toBe("ok");
  });

  it("a body on the second line is pointed out; trailing spaces on the subject do not count", () => {
    const hint = commitMessageHint("Subject   \nbody right away");
    expect(hint.subjectLength).toBe(7);
    expect(hint.secondLineNotBlank).toBe(true);
    expect(hintText(hint)).toMatch(/second line blank/);
  });

  it("white space only is empty (git would refuse it)", () => {
    expect(commitMessageHint(" \n\t\n").empty).toBe(true);
    expect(hintText(commitMessageHint(""))).toBeNull();
  });
});
