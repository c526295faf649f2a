// scanSessionFile on real files: what a session's summary holds, how odd
// lines are survived, and that a grown file is read from where the last scan
// stopped (bytes counted through the reader).
import { appendFile, chmod, mkdir, mkdtemp, open, rm, stat, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SUMMARY_LIMITS, scanSessionFile, toListItem, type FileIdentity, type ScanDepth, type SessionFileReader, type SessionScan } from "../../src/sessions/session-summary.ts";
import { assistant, countingReader, header, label, lines, sessionInfo, system, toolResult, user } from "./session-lines.ts";

const CWD = "/work/project";

async function identity(path: string): Promise<FileIdentity> {
  const stats = await stat(path);
  return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs };
}

describe("scanSessionFile", () => {
  let dir: string;
  let path: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "pier-scan-"));
    path = join(dir, "2025-01-02T03-04-05-000Z_s.jsonl");
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const scan = async (previous?: SessionScan, depth: ScanDepth = "full", reader?: SessionFileReader) => scanSessionFile(path, await identity(path), previous, depth, reader);

  it("summarizes a session: header facts, messages without the system prompt, first prompt, latest name, cost", async () => {
    await writeFile(
      path,
      lines(
        header({ cwd: CWD, id: "abc-123", timestamp: "2025-01-02T03:04:05.000Z", parentSession: "/s/parent.jsonl" }),
        system(),
        user([{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }]),
        assistant("I see a picture.", 0.25),
        sessionInfo("First name"),
        user([
          { type: "text", text: "  Fix   the\tbug\n" },
          { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
          { type: "text", text: "in parser.ts" },
        ]),
        assistant("Done.", 0.5),
        toolResult("ok"),
        label(),
        sessionInfo("Renamed"),
      ),
    );
    const result = await scan();
    expect(result.error).toBeNull();
    expect(toListItem(result, true)).toEqual({
      readable: true,
      path,
      id: "abc-123",
      cwd: CWD,
      cwdExists: true,
      name: "Renamed",
      // Like pi: the first user message with text (the image-only one has none).
      firstPrompt: "Fix the bug in parser.ts",
      created: "2025-01-02T03:04:05.000Z",
      modified: Math.trunc((await stat(path)).mtimeMs),
      messageCount: 5,
      cost: 0.75,
      parentSession: "/s/parent.jsonl",
      partial: false,
    });
    expect(result.searchText).toBe("fix the bug in parser.ts");
  });

  it("clears the name with an empty one, and reports no cost when none was reported", async () => {
    await writeFile(path, lines(header({ cwd: CWD }), user("hi"), assistant("hello"), sessionInfo("Named"), sessionInfo("   ")));
    const result = await scan();
    expect(result.name).toBeNull();
    expect(result.cost).toBeNull();
    expect(result.messageCount).toBe(2);
  });

  it("cuts a long first prompt and bounds the search text", async () => {
    const long = "word ".repeat(2000);
    await writeFile(path, lines(header({ cwd: CWD }), user(long), assistant("ok"), user("SECOND Prompt"), assistant("ok")));
    const result = await scan();
    expect(result.firstPrompt!.length).toBe(SUMMARY_LIMITS.firstPromptChars);
    expect(result.firstPrompt!.endsWith("…")).toBe(true);
    expect(result.searchText.length).toBeLessThanOrEqual(SUMMARY_LIMITS.searchChars);
    // The first prompt filled the search text: later ones are not kept.
    expect(result.searchText).not.toContain("second");
  });

  it("survives CRLF, U+2028 inside strings, blank lines and garbage", async () => {
    const text = [
      header({ cwd: CWD }),
      "",
      "this is not json",
      '{"type":"message","message":{"role":"user","content":"cut short by a cra',
      user("line\u2028separated\u2029prompt"),
      "[1,2,3]",
      "null",
      assistant("ok", 1),
      '{"type":"message","id":"x","parentId":null,"timestamp":"t","message":{"role":"toolResult","content":[{"type":"te',
      toolResult("fine"),
    ].join("\r\n");
    await writeFile(path, `${text}\r\n`);
    const result = await scan();
    expect(result.error).toBeNull();
    expect(result.messageCount).toBe(3);
    expect(result.firstPrompt).toBe("line separated prompt");
    expect(result.cost).toBe(1);
  });

  it("does not count a half-written last line until its newline arrives, and then reads only the new bytes", async () => {
    const filler = toolResult("x".repeat(1024 * 1024));
    await writeFile(path, lines(header({ cwd: CWD }), user("start"), assistant("ok"), filler));
    const reader = countingReader();
    const first = await scan(undefined, "full", reader);
    expect(first.messageCount).toBe(3);
    const sizeBefore = (await stat(path)).size;
    expect(reader.bytes).toBe(sizeBefore);

    const next = user("second prompt");
    await appendFile(path, next.slice(0, 40));
    const half = await scan(first, "full", reader);
    expect(half.messageCount).toBe(3);
    expect(half.offset).toBe(sizeBefore);

    await appendFile(path, `${next.slice(40)}\n${assistant("done", 2)}\n`);
    const before = reader.bytes;
    const done = await scan(half, "full", reader);
    expect(done.messageCount).toBe(5);
    expect(done.cost).toBe(2);
    expect(done.searchText).toBe("start\nsecond prompt");
    const grown = (await stat(path)).size - sizeBefore;
    // The new bytes, plus the few kept to check the old ones are unchanged.
    expect(reader.bytes - before).toBeLessThanOrEqual(grown + 256 + 64);
    expect(done.bytesRead).toBe(reader.bytes);
  });

  it("reads nothing when the file did not change", async () => {
    await writeFile(path, lines(header({ cwd: CWD }), user("hi"), assistant("ok")));
    const reader = countingReader();
    const first = await scan(undefined, "full", reader);
    const again = await scan(first, "full", reader);
    expect(again).toBe(first);
    expect(reader.opens).toBe(1);
  });

  it("goes on from a header-only scan when the whole file is wanted", async () => {
    // The header read takes one small chunk: the lines after it come later.
    await writeFile(path, lines(header({ cwd: CWD, id: "h1" }), user("hello"), toolResult("t".repeat(10_000)), assistant("ok")));
    const reader = countingReader();
    const headerOnly = await scan(undefined, "header", reader);
    expect(headerOnly.header?.id).toBe("h1");
    expect(headerOnly.complete).toBe(false);
    expect(headerOnly.messageCount).toBe(0);
    expect(reader.bytes).toBeLessThan(10_000);
    const before = reader.bytes;
    const full = await scan(headerOnly, "full", reader);
    expect(full.messageCount).toBe(3);
    expect(full.complete).toBe(true);
    // Read on from where the header read stopped (no check reads: the file did not change).
    expect(reader.bytes - before).toBe((await stat(path)).size - headerOnly.offset);
  });

  it("scans again from the start when the file was truncated or rewritten", async () => {
    await writeFile(path, lines(header({ cwd: CWD, id: "one" }), user("first"), assistant("ok"), user("more"), assistant("ok")));
    const first = await scan();
    expect(first.messageCount).toBe(4);

    // Rewritten in place, shorter (same inode).
    const handle = await open(path, "r+");
    await handle.truncate(0);
    await handle.write(lines(header({ cwd: CWD, id: "two" }), user("other")), 0);
    await handle.close();
    const shorter = await scan(first);
    expect(shorter.header?.id).toBe("two");
    expect(shorter.messageCount).toBe(1);

    // Rewritten in place, longer, with a different beginning.
    await writeFile(path, lines(header({ cwd: CWD, id: "three" }), user("third"), assistant("a"), assistant("b"), assistant("c")));
    const longer = await scan(shorter);
    expect(longer.header?.id).toBe("three");
    expect(longer.firstPrompt).toBe("third");
    expect(longer.messageCount).toBe(4);
  });

  it("looks only at the ends of a huge line, and still counts it", async () => {
    const huge = 5 * 1024 * 1024;
    await writeFile(
      path,
      lines(header({ cwd: CWD }), user([{ type: "text", text: `Please read this log:\n${"L".repeat(huge)}` }]), toolResult("y".repeat(huge)), assistant(`${"z".repeat(huge)}`, 3), toolResult("small")),
    );
    const result = await scan();
    expect(result.messageCount).toBe(4);
    expect(result.firstPrompt!.startsWith("Please read this log: LLLL")).toBe(true);
    expect(result.cost).toBe(3);
  });

  it("stops at the byte cap and says the summary is partial", async () => {
    await writeFile(path, lines(header({ cwd: CWD }), user("before the cap"), assistant("ok")));
    await truncate(path, SUMMARY_LIMITS.maxScanBytes + 1024);
    const result = await scan();
    expect(result.partial).toBe(true);
    expect(result.messageCount).toBe(2);
    expect(toListItem(result, true)).toMatchObject({ readable: true, partial: true });
  });

  it("accepts a header whose newline is not written yet, like pi", async () => {
    await writeFile(path, header({ cwd: CWD, id: "unterminated" }));
    const result = await scan();
    expect(result.error).toBeNull();
    expect(result.header?.id).toBe("unterminated");
    await appendFile(path, `\n${user("now")}\n`);
    expect((await scan(result)).messageCount).toBe(1);
  });

  it("tells why a file is not a readable session", async () => {
    const errorOf = async (content: string | null) => {
      if (content !== null) await writeFile(path, content);
      const item = toListItem(await scan(), false);
      return item.readable ? null : item.error;
    };
    expect(await errorOf("")).toBe("the file is empty");
    expect(await errorOf("\n\n  \n")).toBe("the file holds no entries");
    expect(await errorOf("hello world\nmore text\n")).toBe("not a pi session: its first line is not JSON");
    expect(await errorOf(lines(user("no header"), header({ cwd: CWD })))).toBe("not a pi session: its first line is not a session header");
    expect(await errorOf(lines('{"type":"session","version":3}'))).toBe("not a pi session: its first line is not a session header");
    // Garbage before the header is skipped, as pi does.
    expect(await errorOf(lines("garbage", header({ cwd: CWD })))).toBeNull();

    const folder = join(dir, "folder.jsonl");
    await mkdir(folder);
    const asFolder = await scanSessionFile(folder, await identity(folder), undefined, "full");
    expect(asFolder.error).toBe("it is a folder, not a file");
  });

  it("reports a file it may not read (the test runs as root, so the denial is injected)", async () => {
    await writeFile(path, lines(header({ cwd: CWD })));
    const denied: SessionFileReader = {
      open: async () => {
        throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
      },
    };
    const result = await scan(undefined, "full", denied);
    expect(toListItem(result, false)).toMatchObject({ readable: false, error: "the relay may not read it (permission denied)" });
    // Not cached as final: once readable (chmod moves ctime) it is scanned again.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await chmod(path, 0o600);
    expect((await scan(result)).error).toBeNull();
  });

  it("marks a file that vanished before it was read", async () => {
    await writeFile(path, lines(header({ cwd: CWD })));
    const file = await identity(path);
    await rm(path);
    const result = await scanSessionFile(path, file, undefined, "full");
    expect(result.vanished).toBe(true);
  });
});
