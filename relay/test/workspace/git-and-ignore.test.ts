// The pure parts of git-facts (porcelain parsing, status mapping) and the
// gitignore rules (nested files, negation, folders) on a temporary folder.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addLineCounts, classify, parsePorcelainZ } from "../../src/workspace/git-facts.ts";
import { parseNumstatZ } from "../../src/live/git-parse.ts";
import { GitignoreRules } from "../../src/workspace/gitignore-rules.ts";
import { decodeText } from "../../src/workspace/file-content.ts";

describe("parsePorcelainZ", () => {
  it("maps each entry, reads a rename's old path, strips the workspace prefix and drops what is outside", () => {
    const output = [" M sub/a.ts", "?? sub/new file.txt", "R  sub/to.ts", "sub/from.ts", "UU sub/c.ts", "A  other/x.ts", " D sub/gone.ts", "AM sub/added.ts", ""].join("\0");
    expect(parsePorcelainZ(output, "sub/", 100)).toEqual({
      changes: [
        { path: "a.ts", status: "modified", index: " ", worktree: "M" },
        { path: "new file.txt", status: "untracked", index: "?", worktree: "?" },
        { path: "to.ts", status: "renamed", index: "R", worktree: " ", from: "from.ts" },
        { path: "c.ts", status: "conflicted", index: "U", worktree: "U" },
        { path: "gone.ts", status: "deleted", index: " ", worktree: "D" },
        { path: "added.ts", status: "added", index: "A", worktree: "M" },
      ],
      truncated: false,
    });
  });

  it("stops at its limit", () => {
    const output = ["?? a", "?? b", "?? c", ""].join("\0");
    expect(parsePorcelainZ(output, "", 2)).toEqual({
      changes: [
        { path: "a", status: "untracked", index: "?", worktree: "?" },
        { path: "b", status: "untracked", index: "?", worktree: "?" },
      ],
      truncated: true,
    });
  });

  it("adds numstat's line counts to the changes it counted (not to a binary file, nor one it did not list)", () => {
    const { changes } = parsePorcelainZ([" M a.ts", "?? new.txt", " M logo.png", "R  to.ts", "from.ts", ""].join("\0"), "", 100);
    addLineCounts(changes, parseNumstatZ(["12\t3\ta.ts", "-\t-\tlogo.png", "1\t0\t", "from.ts", "to.ts", ""].join("\0")));
    expect(changes.map(({ path, added, deleted }) => ({ path, added, deleted }))).toEqual([
      { path: "a.ts", added: 12, deleted: 3 },
      { path: "new.txt", added: undefined, deleted: undefined },
      { path: "logo.png", added: undefined, deleted: undefined },
      { path: "to.ts", added: 1, deleted: 0 },
    ]);
  });

  it("classifies the two-letter codes", () => {
    expect(classify("D", "D")).toBe("conflicted");
    expect(classify("A", "A")).toBe("conflicted");
    expect(classify("M", "D")).toBe("deleted");
    expect(classify("T", " ")).toBe("modified");
    expect(classify("!", "!")).toBeNull();
  });
});

describe("decodeText", () => {
  it("keeps a BOM, refuses NUL and invalid UTF-8", () => {
    expect(decodeText(Buffer.from("\uFEFFhi"))).toBe("\uFEFFhi");
    expect(decodeText(Buffer.from([0x61, 0x00, 0x62]))).toBeNull();
    expect(decodeText(Buffer.from([0x61, 0xff]))).toBeNull();
    expect(decodeText(Buffer.from("é".repeat(5000)))).toBe("é".repeat(5000)); // a character across the 8 KiB sniff edge
  });
});

describe("GitignoreRules", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "pier-ignore-"));
    await mkdir(join(root, "pkg", "build"), { recursive: true });
    await writeFile(join(root, ".gitignore"), "node_modules/\n*.log\n!keep.log\n/top-only.txt\n");
    await writeFile(join(root, "pkg", ".gitignore"), "build/\nsecret.*\n!*.log\n");
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("applies root and nested files with git's precedence", async () => {
    const rules = new GitignoreRules(root);
    expect(await rules.isIgnored("node_modules", true)).toBe(true);
    expect(await rules.isIgnored("node_modules/x/index.js", false)).toBe(true);
    expect(await rules.isIgnored("node_modules", false)).toBe(false); // a file named like a folder pattern
    expect(await rules.isIgnored("debug.log", false)).toBe(true);
    expect(await rules.isIgnored("keep.log", false)).toBe(false);
    expect(await rules.isIgnored("top-only.txt", false)).toBe(true);
    expect(await rules.isIgnored("pkg/top-only.txt", false)).toBe(false);
    expect(await rules.isIgnored("pkg/build", true)).toBe(true);
    expect(await rules.isIgnored("pkg/build/out.js", false)).toBe(true);
    expect(await rules.isIgnored("pkg/secret.env", false)).toBe(true);
    expect(await rules.isIgnored("pkg/debug.log", false)).toBe(false); // re-included deeper
    expect(await rules.isIgnored("build/out.js", false)).toBe(false); // pkg's rule is pkg's only
  });

  it("reloads a folder's rules after invalidate", async () => {
    const rules = new GitignoreRules(root);
    expect(await rules.isIgnored("fresh.txt", false)).toBe(false);
    await writeFile(join(root, ".gitignore"), "fresh.txt\n");
    expect(await rules.isIgnored("fresh.txt", false)).toBe(false);
    rules.invalidate("");
    expect(await rules.isIgnored("fresh.txt", false)).toBe(true);
  });
});
