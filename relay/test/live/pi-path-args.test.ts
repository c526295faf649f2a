// An agent beyond the first gets the resource paths of pier's pi arguments
// as the first agent's pi resolved them, not against its own folder.
import { describe, expect, it } from "vitest";
import { withAbsolutePiPaths } from "../../src/live/pi-path-args.ts";

const exists = (path: string) => path === "/home/u/repo/prompt.md";

describe("withAbsolutePiPaths", () => {
  it("makes relative resource paths absolute against the first agent's folder, in both spellings", () => {
    expect(withAbsolutePiPaths(["-e", "./ext.ts", "--extension=../shared/x.ts", "--skill", "skills/a", "--theme", "t.json", "--session-dir", "s"], "/home/u/repo", exists)).toEqual([
      "-e",
      "/home/u/repo/ext.ts",
      "--extension=/home/u/shared/x.ts",
      "--skill",
      "/home/u/repo/skills/a",
      "--theme",
      "/home/u/repo/t.json",
      "--session-dir",
      "/home/u/repo/s",
    ]);
  });

  it("leaves absolute paths, home paths, package sources and other options alone", () => {
    const args = ["-e", "/abs/ext.ts", "-e", "~/ext.ts", "-e", "builtin:mcp", "--extension", "npm:@x/y", "--model", "./not-a-path", "--no-session"];
    expect(withAbsolutePiPaths(args, "/home/u/repo", exists)).toEqual(args);
  });

  it("treats a system prompt as a path only when that file exists, as pi does", () => {
    expect(withAbsolutePiPaths(["--append-system-prompt", "prompt.md", "--system-prompt", "Be brief."], "/home/u/repo", exists)).toEqual([
      "--append-system-prompt",
      "/home/u/repo/prompt.md",
      "--system-prompt",
      "Be brief.",
    ]);
  });

  it("keeps a dangling option as it is", () => {
    expect(withAbsolutePiPaths(["--skill"], "/r", exists)).toEqual(["--skill"]);
  });
});
