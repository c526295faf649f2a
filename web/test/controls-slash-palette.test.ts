import { describe, expect, test } from "vitest";
import type { RpcSlashCommand } from "@pier/protocol";
import { completeCommand, filterCommands, namesCommand, originLabel, slashQuery, sourceLabel } from "../src/lib/controls/slash-palette.ts";

const cmd = (name: string, source: RpcSlashCommand["source"], description?: string): RpcSlashCommand => ({
  name,
  source,
  ...(description ? { description } : {}),
  sourceInfo: { path: `/p/${name}`, source: "local", scope: "project", origin: "top-level" },
});

const commands = [
  cmd("review", "prompt", "Review staged git changes"),
  cmd("explain", "prompt", "Explain a file in plain words"),
  cmd("skill:pdf-tools", "skill", "Extract text from PDF files"),
  cmd("deploy", "extension"),
  cmd("preview", "extension", "Open a preview"),
];

describe("slashQuery", () => {
  test("open only while the caret is in a leading /word", () => {
    expect(slashQuery("/")).toBe("");
    expect(slashQuery("/exp")).toBe("exp");
    expect(slashQuery("/explain src/x.ts")).toBeNull();
    expect(slashQuery("/explain src/x.ts", 4)).toBe("explain");
    expect(slashQuery("hello /exp")).toBeNull();
    expect(slashQuery(" /exp")).toBeNull();
    expect(slashQuery("")).toBeNull();
    expect(slashQuery("/exp\nmore")).toBeNull();
  });
});

describe("filterCommands", () => {
  test("empty query lists everything in pi's order", () => {
    expect(filterCommands(commands, "").map((c) => c.name)).toEqual(commands.map((c) => c.name));
  });

  test("name prefix first, then name substring, then description; case-insensitive", () => {
    expect(filterCommands(commands, "re").map((c) => c.name)).toEqual(["review", "preview"]);
    expect(filterCommands(commands, "PLAIN").map((c) => c.name)).toEqual(["explain"]);
    expect(filterCommands(commands, "git").map((c) => c.name)).toEqual(["review"]);
  });

  test("skills match on their bare name too", () => {
    expect(filterCommands(commands, "pdf").map((c) => c.name)).toEqual(["skill:pdf-tools"]);
    expect(filterCommands(commands, "skill:").map((c) => c.name)).toEqual(["skill:pdf-tools"]);
  });

  test("nothing matches: empty", () => {
    expect(filterCommands(commands, "zzz")).toEqual([]);
  });
});

describe("completion", () => {
  test("choosing replaces the typed word with /name and a space, keeping arguments", () => {
    expect(completeCommand("/exp", { name: "explain" })).toEqual({ text: "/explain ", caret: 9 });
    expect(completeCommand("/ex src/a.js", { name: "explain" })).toEqual({ text: "/explain src/a.js", caret: 9 });
  });

  test("namesCommand: the first word is exactly /name", () => {
    expect(namesCommand("/explain", { name: "explain" })).toBe(true);
    expect(namesCommand("/explain x", { name: "explain" })).toBe(true);
    expect(namesCommand("/expl", { name: "explain" })).toBe(false);
  });
});

describe("labels", () => {
  test("kinds in words", () => {
    expect(sourceLabel("extension")).toBe("Extension");
    expect(sourceLabel("prompt")).toBe("Prompt template");
    expect(sourceLabel("skill")).toBe("Skill");
  });

  test("origin: scope and a short path (relative to cwd, ~ for home, package-relative, inline)", () => {
    expect(originLabel({ path: "/work/app/.pi/prompts/explain.md", source: "auto", scope: "project", origin: "top-level", baseDir: "/work/app/.pi" }, "/work/app")).toBe(
      "project · .pi/prompts/explain.md",
    );
    expect(originLabel({ path: "/home/me/.pi/agent/prompts/r.md", source: "local", scope: "user", origin: "top-level" }, "/work/app", "/home/me")).toBe("user · ~/.pi/agent/prompts/r.md");
    expect(originLabel({ path: "/nm/my-pkg/prompts/x.md", source: "npm:my-pkg", scope: "user", origin: "package", baseDir: "/nm/my-pkg" })).toBe("user package · my-pkg/prompts/x.md");
    expect(originLabel({ path: "<inline:llama.cpp>", source: "inline", scope: "temporary", origin: "top-level" })).toBe("temporary · inline:llama.cpp");
    expect(originLabel(undefined)).toBe("");
  });
});
