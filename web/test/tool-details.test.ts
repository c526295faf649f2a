// Reading pi 0.87.1's built-in tool results (texts as produced by
// dist/core/tools/bash.js, read.js, edit.js) and the one-line card headline.
import { describe, expect, test } from "vitest";
import { bashOutcome, editPatch, imageDataUrl, readOutcome, readRange, truncationDetails, workspacePath } from "../src/lib/tools/tool-details.ts";
import { toolHeadline } from "../src/lib/tools/tool-headline.ts";

describe("bashOutcome", () => {
  test("success: the output as is, exit 0", () => {
    expect(bashOutcome("hello\n", false)).toEqual({ output: "hello\n", ending: "ok", exitCode: 0, statusLine: null, notice: null });
  });

  test("pi's '(no output)' placeholder is no output", () => {
    expect(bashOutcome("(no output)", false).output).toBe("");
    expect(bashOutcome("(no output)\n\nCommand exited with code 1", true)).toMatchObject({ output: "", exitCode: 1 });
  });

  test("non-zero exit: status line split off, code parsed", () => {
    const outcome = bashOutcome("oops\nbad\n\nCommand exited with code 3", true);
    expect(outcome).toMatchObject({ output: "oops\nbad", ending: "exit", exitCode: 3, statusLine: "Command exited with code 3" });
  });

  test("timeout, abort, and an error before running", () => {
    expect(bashOutcome("partial\n\nCommand timed out after 5 seconds", true)).toMatchObject({ ending: "timeout", output: "partial", exitCode: null });
    expect(bashOutcome("Command aborted", true)).toMatchObject({ ending: "aborted", output: "" });
    expect(bashOutcome("Working directory does not exist: /x\nCannot execute bash commands.", true)).toMatchObject({ ending: "error" });
  });

  test("truncation notice is separated from the output", () => {
    const text = "line 9\nline 10\n\n[Showing lines 9-10 of 10. Full output: /tmp/pi-bash-1.log]";
    expect(bashOutcome(text, false)).toMatchObject({ output: "line 9\nline 10", notice: "Showing lines 9-10 of 10. Full output: /tmp/pi-bash-1.log" });
  });
});

describe("read and edit results", () => {
  test("read: continuation notice split off", () => {
    expect(readOutcome("a\nb\n\n[5 more lines in file. Use offset=13 to continue.]")).toEqual({
      body: "a\nb",
      notice: "5 more lines in file. Use offset=13 to continue.",
    });
    expect(readOutcome("a [not a notice]")).toEqual({ body: "a [not a notice]", notice: null });
  });

  test("read range wording", () => {
    expect(readRange({ path: "x", offset: 10, limit: 20 })).toBe("lines 10–29");
    expect(readRange({ offset: 10 })).toBe("from line 10");
    expect(readRange({ limit: 1 })).toBe("first 1 line");
    expect(readRange({ path: "x" })).toBeNull();
  });

  test("truncation details and the full output path", () => {
    const details = {
      truncation: { truncated: true, truncatedBy: "lines", totalLines: 5000, outputLines: 2000, totalBytes: 90000, outputBytes: 40000 },
      fullOutputPath: "/tmp/pi-bash-abc.log",
    };
    expect(truncationDetails(details)).toEqual({
      truncation: { truncatedBy: "lines", totalLines: 5000, outputLines: 2000, totalBytes: 90000, outputBytes: 40000 },
      fullOutputPath: "/tmp/pi-bash-abc.log",
    });
    expect(truncationDetails(undefined)).toEqual({ truncation: null, fullOutputPath: null });
    expect(truncationDetails({ truncation: { truncated: false } })).toEqual({ truncation: null, fullOutputPath: null });
  });

  test("edit patch only when it is a non-empty string", () => {
    expect(editPatch({ diff: "x", patch: "--- a\n+++ b\n" })).toBe("--- a\n+++ b\n");
    expect(editPatch({ patch: "  " })).toBeNull();
    expect(editPatch(null)).toBeNull();
  });
});

describe("images and paths", () => {
  test("raster images become data: URLs; SVG and junk do not", () => {
    expect(imageDataUrl({ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" })).toBe("data:image/png;base64,iVBORw0KGgo=");
    expect(imageDataUrl({ type: "image", mimeType: "image/svg+xml", data: "PHN2Zz4=" })).toBeNull();
    expect(imageDataUrl({ type: "image", mimeType: "image/png", data: '"><script>' })).toBeNull();
  });

  test("tool paths become workspace paths only inside the project", () => {
    expect(workspacePath("src/a.js", "/p")).toBe("src/a.js");
    expect(workspacePath("./src//a.js", "/p")).toBe("src/a.js");
    expect(workspacePath("@src/a.js", "/p")).toBe("src/a.js");
    expect(workspacePath("/p/src/a.js", "/p")).toBe("src/a.js");
    expect(workspacePath("/p/src/a.js", "/p/")).toBe("src/a.js");
    expect(workspacePath("/other/a.js", "/p")).toBeNull();
    expect(workspacePath("/pp/a.js", "/p")).toBeNull();
    expect(workspacePath("../secret", "/p")).toBeNull();
    expect(workspacePath("~/x", "/p")).toBeNull();
    expect(workspacePath("/p/a.js", null)).toBeNull();
  });
});

describe("toolHeadline", () => {
  const base = { text: "", details: undefined, failed: false, finished: true };

  test("bash: command's first line, exit code only when it failed", () => {
    expect(toolHeadline({ ...base, name: "bash", args: { command: "npm test\nnpm run lint" }, text: "ok" })).toEqual({
      tool: "bash",
      subject: "npm test …",
      subjectIsPath: false,
      facts: [],
    });
    const failed = toolHeadline({ ...base, name: "bash", args: { command: "false" }, text: "Command exited with code 1", failed: true });
    expect(failed.facts).toEqual(["exit 1"]);
  });

  test("read / write: path plus range or size", () => {
    expect(toolHeadline({ ...base, name: "read", args: { path: "a.ts", offset: 1, limit: 12 } })).toMatchObject({ subject: "a.ts", subjectIsPath: true, facts: ["lines 1–12"] });
    expect(toolHeadline({ ...base, name: "write", args: { path: "b.js", content: "x\ny\n" } }).facts).toEqual(["2 lines"]);
  });

  test("edit: +/− counts from pi's patch; none for a failed edit", () => {
    const patch = "--- a\n+++ a\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n";
    expect(toolHeadline({ ...base, name: "edit", args: { path: "a", edits: [{ oldText: "a", newText: "b" }] }, details: { patch } }).facts).toEqual(["+1", "−1"]);
    expect(toolHeadline({ ...base, name: "edit", args: { path: "a", edits: [{ oldText: "a", newText: "b\nc" }] }, failed: true }).facts).toEqual([]);
    const two = {
      path: "a",
      edits: [
        { oldText: "a", newText: "b" },
        { oldText: "c", newText: "d" },
      ],
    };
    expect(toolHeadline({ ...base, name: "edit", args: two, finished: false }).facts).toEqual(["2 changes"]);
  });

  test("unknown tools: name and first string argument", () => {
    expect(toolHeadline({ ...base, name: "web_search", args: { limit: 3, query: "svelte runes" } })).toMatchObject({ tool: "web_search", subject: "svelte runes" });
    expect(toolHeadline({ ...base, name: "noop", args: null })).toMatchObject({ tool: "noop", subject: "" });
  });
});
