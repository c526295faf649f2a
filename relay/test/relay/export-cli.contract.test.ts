// `pier export CAPTURE`: one HTML page from a capture, its size said before
// it is written, never over an existing file without --force, and a clear
// sentence (and exit code) for a capture that is missing or not one.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatBytes } from "../../../web/src/lib/export/export-size.ts";
import { exportCapture } from "../../src/export/export-main.ts";
import { parseExportOptions } from "../../src/export/export-options.ts";
import { runPier } from "../support/pier-process.ts";

/** `pier export` starts no pi: no --pi is added. */
const PIER_EXPORT = { piFromPath: true };
const KEY = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789";
const HEADER = { type: "pier-capture", version: 1, startedAt: "2026-12-01T10:00:00.000Z", pier: "0.1.0", redacted: [] };
const CAPTURE = [
  JSON.stringify(HEADER),
  JSON.stringify({ t: 0, k: "frame", f: { type: "hello", cwd: "/home/alice/project" } }),
  JSON.stringify({ t: 1, k: "sent", c: JSON.stringify({ id: "c1:1", type: "prompt", message: `my key is ${KEY} </script><script>alert(1)</script>` }) }),
  JSON.stringify({ t: 2, k: "bytes", b: Buffer.from(`${JSON.stringify({ type: "agent_start" })}\n`).toString("base64") }),
  "",
].join("\n");

let dir: string;
/** A web root with a stand-in player: these tests are about the command, the e2e spec about the real page. */
let webRoot: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pier-export-cli-"));
  webRoot = join(dir, "dist");
  await mkdir(join(webRoot, "export"), { recursive: true });
  await writeFile(join(webRoot, "export", "player.js"), "window.player = true;");
  await writeFile(join(webRoot, "export", "player.css"), "body{}");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function exportHere(args: string[]) {
  const said: string[] = [];
  const result = await exportCapture(parseExportOptions(args, dir), webRoot, (line) => said.push(line));
  return { result, said };
}

describe("pier export writes a page", () => {
  it("next to the capture, its size said first, secrets and the home folder redacted", async () => {
    await writeFile(join(dir, "session.jsonl"), CAPTURE);
    const { result, said } = await exportHere(["session.jsonl"]);
    expect(result).toEqual({ ok: true });
    const page = join(dir, "session.html");
    const html = await readFile(page, "utf8");
    expect(said).toEqual([`${page}: ${formatBytes(Buffer.byteLength(html))} (the capture: ${formatBytes(Buffer.byteLength(CAPTURE))}, 3 events; redacted: secrets, home folder)`]);
    expect(html).toContain("window.player = true;");
    expect(html).not.toContain("abcdefghijklmnopqrstuvwxyz");
    expect(html).not.toContain("/home/alice");
    // Only the page's own three scripts: the capture's </script> is escaped.
    expect(html.match(/<script\b/g)).toHaveLength(3);
  });

  it("refuses to replace a file unless --force, and then replaces it", async () => {
    const target = join(dir, "taken.html");
    await writeFile(target, "mine");
    const refused = await exportHere(["session.jsonl", "-o", "taken.html"]);
    expect(refused.result).toEqual({ ok: false, message: `${target} exists: pass --force to replace it` });
    expect(refused.said).toEqual([]);
    expect(await readFile(target, "utf8")).toBe("mine");
    const forced = await exportHere(["session.jsonl", "-o", "taken.html", "--force"]);
    expect(forced.result).toEqual({ ok: true });
    expect(await readFile(target, "utf8")).toMatch(/^<!doctype html>/);
  });

  it("says so when the player is not built", async () => {
    const options = parseExportOptions(["session.jsonl", "-o", "nowhere.html"], dir);
    const result = await exportCapture(options, join(dir, "no-dist"), () => {});
    expect(result).toEqual({ ok: false, message: `the page's player is not built (${join(dir, "no-dist", "export", "player.js")} is missing): run pnpm build first` });
    expect(existsSync(join(dir, "nowhere.html"))).toBe(false);
  });

  it("refuses a capture the reader refuses (a later line is not JSON), naming the line", async () => {
    const broken = CAPTURE.split("\n");
    broken.splice(2, 0, "{not json");
    await writeFile(join(dir, "broken.jsonl"), broken.join("\n"));
    const { result } = await exportHere(["broken.jsonl"]);
    expect(result).toEqual({ ok: false, message: `${join(dir, "broken.jsonl")} cannot be exported: Line 3: not JSON.` });
    expect(existsSync(join(dir, "broken.html"))).toBe(false);
  });
});

describe("the pier export command", () => {
  it("a missing capture: exit 1, its path named, nothing written", async () => {
    const missing = join(dir, "nope.jsonl");
    const result = await runPier(["export", missing], PIER_EXPORT);
    expect({ code: result.code, stderr: result.stderr, stdout: result.stdout }).toEqual({ code: 1, stderr: `pier: ${missing}: no such file\n`, stdout: "" });
    expect(existsSync(join(dir, "nope.html"))).toBe(false);
  });

  it("a file that is not a capture: exit 1 with the reason", async () => {
    const notes = join(dir, "notes.txt");
    await writeFile(notes, "just some notes\n");
    const result = await runPier(["export", notes], PIER_EXPORT);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 1, stderr: `pier: ${notes} is not a Pier capture: its first line is not JSON\n` });
  });

  it("no capture, two captures, an output that is the capture: exit 2 with the usage", async () => {
    for (const [args, message] of [
      [["export"], "pier export needs the capture file to export"],
      [["export", "a.jsonl", "b.jsonl"], "pier export writes one capture at a time, not 2"],
      [["export", "a.jsonl", "-o", "a.jsonl"], "the page would replace the capture itself: give another -o"],
    ] as const) {
      const result = await runPier([...args], { ...PIER_EXPORT, cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`pier: ${message}\n`);
      expect(result.stderr).toContain("Usage: pier export CAPTURE [-o FILE.html] [--force]");
    }
  });

  it("an existing page without --force: exit 1 before anything is read", async () => {
    await writeFile(join(dir, "session.jsonl"), CAPTURE);
    await writeFile(join(dir, "exists.html"), "mine");
    const result = await runPier(["export", "session.jsonl", "-o", "exists.html"], { ...PIER_EXPORT, cwd: dir });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 1, stderr: `pier: ${join(dir, "exists.html")} exists: pass --force to replace it\n` });
    expect(await readFile(join(dir, "exists.html"), "utf8")).toBe("mine");
  });
});
