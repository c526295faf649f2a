import { describe, expect, it } from "vitest";
import { languageForFence } from "../src/lib/highlight/languages.ts";

describe("languageForFence", () => {
  it.each([
    ["ts", "typescript"],
    ["TypeScript", "typescript"],
    ["js", "javascript"],
    ["shell", "bash"],
    ["sh", "bash"],
    ["py", "python"],
    ["json", "json"],
    ["html", "xml"],
    ["c++", "cpp"],
  ])("%s -> %s", (fence, language) => {
    expect(languageForFence(fence)).toBe(language);
  });

  it("has no language for unknown or empty fences", () => {
    expect(languageForFence("klingon")).toBeNull();
    expect(languageForFence("")).toBeNull();
    expect(languageForFence(undefined)).toBeNull();
  });
});
