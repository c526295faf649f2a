// Path validation and safe resolution: the lexical rules, and realpath-based
// containment against symbolic links, on a real temporary folder.
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkspaceError } from "../../src/workspace/workspace-error.ts";
import { WorkspacePaths, isInside, validatePath } from "../../src/workspace/workspace-paths.ts";

function refusal(run: () => unknown): { status: number; code: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof WorkspaceError) return { status: error.status, code: error.code };
    throw error;
  }
  throw new Error("expected a refusal");
}

async function asyncRefusal(run: () => Promise<unknown>): Promise<{ status: number; code: string }> {
  try {
    await run();
  } catch (error) {
    if (error instanceof WorkspaceError) return { status: error.status, code: error.code };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("validatePath", () => {
  it("accepts plain relative paths, unchanged", () => {
    for (const path of ["a", "src/app.ts", "with space/ünïcode.md", ".gitignore", ".github/x.yml", "a..b", "...", "%2e%2e", "-rf", "a:b"]) {
      expect(validatePath(path)).toBe(path);
    }
  });

  it.each([
    ["", "empty"],
    ["/etc/passwd", "absolute"],
    ["../x", "parent"],
    ["a/../../x", "parent inside"],
    ["a/..", "trailing parent"],
    ["./a", "dot"],
    ["a/./b", "dot inside"],
    ["a//b", "empty segment"],
    ["a/", "trailing slash"],
    ["a\\b", "backslash"],
    ["\\..\\x", "windows traversal"],
    ["a\0b", "NUL"],
    ["x".repeat(5000), "too long"],
  ])("refuses %j (%s) with 400 bad_path", (path) => {
    expect(refusal(() => validatePath(path))).toEqual({ status: 400, code: "bad_path" });
  });

  it.each([[null], [undefined], [42], [["a"]], [{ path: "a" }]])("refuses a non-string %j", (value) => {
    expect(refusal(() => validatePath(value))).toEqual({ status: 400, code: "bad_path" });
  });

  it.each([".git", ".git/config", "sub/.git/HEAD", ".GIT/config", "a/.Git"])("refuses %j (inside .git) with 403", (path) => {
    expect(refusal(() => validatePath(path))).toEqual({ status: 403, code: "forbidden_path" });
  });

  it("names the field in its message", () => {
    try {
      validatePath("../x", "to");
    } catch (error) {
      expect((error as Error).message).toContain('"to"');
    }
  });
});

describe("isInside", () => {
  it("is a folder-boundary prefix test", () => {
    expect(isInside("/w", "/w")).toBe(true);
    expect(isInside("/w", "/w/a")).toBe(true);
    expect(isInside("/w", "/wx/a")).toBe(false);
    expect(isInside("/w", "/")).toBe(false);
    expect(isInside("/", "/anything")).toBe(true);
  });
});

describe("WorkspacePaths", () => {
  let base: string;
  let root: string;
  let paths: WorkspacePaths;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "pier-paths-"));
    root = join(base, "ws");
    await mkdir(join(root, "src"), { recursive: true });
    await mkdir(join(root, ".git"));
    await writeFile(join(root, ".git", "config"), "[core]\n");
    await writeFile(join(root, "src", "a.txt"), "a");
    await writeFile(join(base, "secret.txt"), "secret");
    await mkdir(join(base, "wsx"));
    await writeFile(join(base, "wsx", "b.txt"), "b");
    await symlink(join(base, "secret.txt"), join(root, "escape"));
    await symlink("/", join(root, "rootdir"));
    await symlink("../wsx", join(root, "sibling")); // shares the "ws" prefix
    await symlink("src/a.txt", join(root, "inner"));
    await symlink("src", join(root, "srclink"));
    await symlink(".git", join(root, "gitlink"));
    await symlink("loop", join(root, "loop"));
    paths = new WorkspacePaths(root);
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("resolves a file and a symbolic link that stays inside", async () => {
    expect((await paths.resolveExisting("src/a.txt")).real).toBe(join(root, "src", "a.txt"));
    expect((await paths.resolveExisting("inner")).real).toBe(join(root, "src", "a.txt"));
    expect((await paths.resolveExisting("srclink/a.txt")).real).toBe(join(root, "src", "a.txt"));
  });

  it("refuses links that lead outside, even to a folder sharing the root's name prefix", async () => {
    for (const rel of ["escape", "rootdir/etc/passwd", "sibling/b.txt"]) {
      expect(await asyncRefusal(() => paths.resolveExisting(rel))).toEqual({ status: 403, code: "outside_workspace" });
    }
  });

  it("refuses a link into .git and a link loop", async () => {
    expect(await asyncRefusal(() => paths.resolveExisting("gitlink/config"))).toEqual({ status: 403, code: "forbidden_path" });
    expect(await asyncRefusal(() => paths.resolveExisting("loop"))).toEqual({ status: 403, code: "symlink_refused" });
  });

  it("answers 404 for a missing entry", async () => {
    expect(await asyncRefusal(() => paths.resolveExisting("nope.txt"))).toEqual({ status: 404, code: "not_found" });
  });

  it("for changes, refuses any symbolic link on the way and parents outside", async () => {
    const target = await paths.changeAt("src/new.txt", async (target) => target);
    expect(target.full).toBe(join(root, "src", "new.txt"));
    expect(target.name).toBe("new.txt");
    const change = (rel: string) => paths.changeAt(rel, async () => "changed");
    expect(await asyncRefusal(() => change("srclink/new.txt"))).toEqual({ status: 403, code: "symlink_refused" });
    expect(await asyncRefusal(() => change("rootdir/tmp/x"))).toEqual({ status: 403, code: "outside_workspace" });
    expect(await asyncRefusal(() => change("gitlink/config"))).toEqual({ status: 403, code: "forbidden_path" });
    expect(await asyncRefusal(() => change("loop/x"))).toEqual({ status: 403, code: "symlink_refused" });
    expect(await asyncRefusal(() => change("missing/new.txt"))).toEqual({ status: 404, code: "not_found" });
    expect(await asyncRefusal(() => change("src/a.txt/new.txt"))).toEqual({ status: 404, code: "not_found" });
    expect(await change("src/deeper-is-fine-if-it-exists")).toBe("changed");
  });
});
