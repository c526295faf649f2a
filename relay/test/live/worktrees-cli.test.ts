// pier's --worktrees option: where agents' worktrees go, resolved against
// the folder pier was started in; none given: beside each repository.
import { describe, expect, it } from "vitest";
import { CliError, parseCliOptions } from "../../src/cli-options.ts";

describe("--worktrees", () => {
  it("is resolved against the starting folder", () => {
    expect(parseCliOptions(["--worktrees", "trees"], "/home/ada").worktreesDir).toBe("/home/ada/trees");
    expect(parseCliOptions(["--worktrees", "/srv/trees"], "/home/ada").worktreesDir).toBe("/srv/trees");
  });

  it("defaults to none (beside each repository)", () => {
    expect(parseCliOptions([], "/home/ada").worktreesDir).toBeNull();
  });

  it("refuses an empty folder with a sentence", () => {
    expect(() => parseCliOptions(["--worktrees", " "], "/home/ada")).toThrow(CliError);
    expect(() => parseCliOptions(["--worktrees", ""], "/home/ada")).toThrow("--worktrees needs a folder");
  });
});
