// SessionCatalog on a temporary session folder: order, paging, search, pi's
// cwd filter, unreadable files, symbolic links, mostRecent, and the checks
// on a switch_session target. Timings for 2,000 files are printed, not
// asserted (a shared machine makes time limits flaky).
import { execFileSync } from "node:child_process";
import { appendFile, link, mkdir, mkdtemp, realpath, rename, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionCatalog } from "../../src/sessions/session-catalog.ts";
import { assistant, countingReader, header, lines, sessionInfo, system, toolResult, user } from "./session-lines.ts";

describe("SessionCatalog", () => {
  let root: string;
  let dir: string;
  let cwd: string;
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), "pier-catalog-")));
    dir = join(root, "sessions");
    cwd = join(root, "project");
    await mkdir(dir);
    await mkdir(cwd);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const catalog = (options: { filterCwd?: boolean; dir?: string } = {}) => new SessionCatalog({ dir: options.dir ?? dir, cwd, filterCwd: options.filterCwd ?? false, persisted: true, log: () => {} });

  /** Writes a session file with its modification time `age` seconds in the past. */
  async function session(name: string, content: string, age: number): Promise<string> {
    const path = join(dir, name);
    await writeFile(path, content);
    const when = new Date(Date.UTC(2025, 0, 1) - age * 1000);
    await utimes(path, when, when);
    return path;
  }

  const simple = (prompt: string, options: { id?: string; cwd?: string; name?: string } = {}) =>
    lines(header({ cwd: options.cwd ?? cwd, ...(options.id ? { id: options.id } : {}) }), system(), user(prompt), assistant("ok"), ...(options.name ? [sessionInfo(options.name)] : []));

  it("lists newest first (ties by name), pages, and says which folder", async () => {
    await session("a.jsonl", simple("oldest"), 30);
    await session("b.jsonl", simple("tie b"), 10);
    await session("c.jsonl", simple("tie c"), 10);
    await session("d.jsonl", simple("newest"), 0);
    const sessions = catalog();
    const all = await sessions.list();
    expect(all.dir).toBe(dir);
    expect(all.total).toBe(4);
    expect(all.sessions.map((s) => (s.readable ? s.firstPrompt : s.error))).toEqual(["newest", "tie c", "tie b", "oldest"]);
    const page = await sessions.list({ offset: 1, limit: 2 });
    expect(page).toMatchObject({ total: 4, offset: 1 });
    expect(page.sessions.map((s) => s.path)).toEqual([join(dir, "c.jsonl"), join(dir, "b.jsonl")]);
    expect((await sessions.list({ offset: 10 })).sessions).toEqual([]);
  });

  it("answers an empty list for a missing folder", async () => {
    const missing = catalog({ dir: join(root, "not-yet") });
    expect(await missing.list()).toEqual({ dir: join(root, "not-yet"), total: 0, offset: 0, sessions: [] });
    expect(await missing.mostRecent()).toBeNull();
  });

  it("lists only .jsonl regular files, never a symbolic link (a switch to one is refused)", async () => {
    await session("real.jsonl", simple("real"), 5);
    await writeFile(join(dir, "notes.txt"), "x");
    await mkdir(join(dir, "folder.jsonl"));
    await writeFile(join(root, "outside.jsonl"), simple("outside"));
    await symlink(join(root, "outside.jsonl"), join(dir, "escape.jsonl"));
    await symlink(join(dir, "real.jsonl"), join(dir, "alias.jsonl"));
    await symlink(join(dir, "nowhere.jsonl"), join(dir, "dangling.jsonl"));
    const listed = await catalog().list();
    expect(listed.sessions.map((s) => s.path).sort()).toEqual([join(dir, "real.jsonl")]);
  });

  it("lists unreadable files with the reason, and whether a session's folder still exists", async () => {
    await session("empty.jsonl", "", 1);
    await session("text.jsonl", "just text\n", 2);
    await session("gone-cwd.jsonl", simple("moved away", { cwd: join(root, "deleted") }), 3);
    const listed = await catalog().list();
    expect(listed.sessions).toEqual([
      expect.objectContaining({ readable: false, path: join(dir, "empty.jsonl"), error: "the file is empty" }),
      expect.objectContaining({ readable: false, path: join(dir, "text.jsonl"), error: "not a pi session: its first line is not JSON" }),
      expect.objectContaining({ readable: true, firstPrompt: "moved away", cwdExists: false }),
    ]);
  });

  it("searches names, prompts and ids, case-insensitively, with paging over the matches", async () => {
    await session("1.jsonl", simple("Refactor the PARSER", { id: "id-one" }), 1);
    await session("2.jsonl", simple("write docs", { id: "id-two", name: "Parser docs" }), 2);
    await session("3.jsonl", lines(header({ cwd, id: "id-three" }), user("hello"), assistant("ok"), user("later:   the  parser again"), assistant("ok")), 3);
    await session("4.jsonl", simple("unrelated", { id: "id-four" }), 4);
    await session("parser-notes.jsonl", "not a session\n", 5);
    const sessions = catalog();
    const found = await sessions.list({ query: "  PARSER " });
    expect(found.total).toBe(4);
    expect(found.sessions.map((s) => s.path)).toEqual(["1", "2", "3", "parser-notes"].map((n) => join(dir, `${n}.jsonl`)));
    expect((await sessions.list({ query: "the parser again" })).total).toBe(1);
    expect((await sessions.list({ query: "ID-FOUR" })).sessions).toMatchObject([{ id: "id-four" }]);
    expect((await sessions.list({ query: "parser", offset: 1, limit: 2 })).sessions.map((s) => s.path)).toEqual([join(dir, "2.jsonl"), join(dir, "3.jsonl")]);
    expect((await sessions.list({ query: "nothing like this" })).total).toBe(0);
  });

  it("keeps only this workspace's sessions when pi filters by cwd", async () => {
    await session("mine.jsonl", simple("mine"), 3);
    await session("other.jsonl", simple("other project", { cwd: join(root, "other") }), 1);
    await session("broken.jsonl", "garbage\n", 2);
    const shared = catalog({ filterCwd: true });
    const listed = await shared.list();
    expect(listed.total).toBe(2);
    expect(listed.sessions.map((s) => s.path)).toEqual([join(dir, "broken.jsonl"), join(dir, "mine.jsonl")]);
    expect((await shared.list({ query: "project" })).total).toBe(0);
    expect(await shared.mostRecent()).toBe(join(dir, "mine.jsonl"));
    expect(await catalog().mostRecent()).toBe(join(dir, "other.jsonl"));
  });

  it("finds the session pi --continue would open: the newest with a readable header", async () => {
    await session("old.jsonl", simple("old"), 20);
    await session("newer.jsonl", simple("newer"), 10);
    await session("newest-broken.jsonl", "{}\n", 0);
    expect(await catalog().mostRecent()).toBe(join(dir, "newer.jsonl"));
  });

  it("reads only what was appended when a listed session grows", async () => {
    const path = await session("live.jsonl", lines(header({ cwd }), user("go"), assistant("ok"), toolResult("r".repeat(200_000))), 5);
    const reader = countingReader();
    const sessions = new SessionCatalog({ dir, cwd, filterCwd: false, persisted: true, log: () => {}, reader });
    expect((await sessions.list()).sessions[0]).toMatchObject({ messageCount: 3 });
    const before = reader.bytes;
    const added = lines(user("more"), assistant("sure", 0.1));
    await appendFile(path, added);
    expect((await sessions.list()).sessions[0]).toMatchObject({ messageCount: 5, cost: 0.1 });
    expect(reader.bytes - before).toBeLessThanOrEqual(Buffer.byteLength(added) + 256 + 64);
    // Nothing changed: nothing read.
    const after = reader.bytes;
    await sessions.list({ query: "more" });
    expect(reader.bytes).toBe(after);
  });

  it("prepares a search ahead: afterwards a search reads nothing", async () => {
    for (let i = 0; i < 5; i++) await session(`s${i}.jsonl`, simple(`prompt number ${i}`), i);
    const reader = countingReader();
    const sessions = new SessionCatalog({ dir, cwd, filterCwd: false, persisted: true, log: () => {}, reader });
    await sessions.list({ limit: 2 });
    await sessions.prepareSearch();
    expect(sessions.cachedFiles).toBe(5);
    const before = reader.bytes;
    expect((await sessions.list({ query: "number 4" })).total).toBe(1);
    expect(reader.bytes).toBe(before);
  });

  it("drops cached summaries of files that went", async () => {
    const path = await session("x.jsonl", simple("x"), 1);
    const sessions = catalog();
    await sessions.list();
    expect(sessions.cachedFiles).toBe(1);
    await rm(path);
    expect((await sessions.list()).total).toBe(0);
    expect(sessions.cachedFiles).toBe(0);
  });

  describe("checkSwitchTarget", () => {
    it("accepts a session file of the folder, even when the folder is reached through a link or a roundabout path", async () => {
      const path = await session("s.jsonl", simple("hi"), 1);
      const sessions = catalog({ filterCwd: true });
      expect(sessions.checkSwitchTarget(path)).toEqual({ ok: true, path, real: path });
      expect(sessions.checkSwitchTarget(join(dir, "..", "sessions", "s.jsonl"))).toEqual({ ok: true, path, real: path });
      await symlink(dir, join(root, "alias"));
      expect(sessions.checkSwitchTarget(join(root, "alias", "s.jsonl"))).toMatchObject({ ok: true });
    });

    it("refuses everything else, saying why", async () => {
      await session("s.jsonl", simple("hi"), 1);
      await writeFile(join(root, "outside.jsonl"), simple("outside"));
      await symlink(join(root, "outside.jsonl"), join(dir, "link.jsonl"));
      await mkdir(join(dir, "folder.jsonl"));
      await writeFile(join(dir, "notes.txt"), simple("hi"));
      await writeFile(join(dir, "plain.jsonl"), lines(user("no header")));
      await writeFile(join(dir, "empty.jsonl"), "");
      await writeFile(join(dir, "other.jsonl"), simple("x", { cwd: join(root, "elsewhere") }));
      const sessions = catalog({ filterCwd: true });
      const errorOf = (path: string) => {
        const result = sessions.checkSwitchTarget(path);
        return result.ok ? "accepted" : result.error;
      };
      expect(errorOf("sessions/s.jsonl")).toBe("sessions/s.jsonl is not an absolute path; give the session file's full path");
      expect(errorOf("")).toMatch(/empty/);
      expect(errorOf(join(dir, "missing.jsonl"))).toBe(`no session file at ${join(dir, "missing.jsonl")}`);
      expect(errorOf(join(dir, "..", "outside.jsonl"))).toBe(`${join(root, "outside.jsonl")} is outside this workspace's session folder ${dir}`);
      expect(errorOf(join(dir, "link.jsonl"))).toBe(`${join(dir, "link.jsonl")} is a symbolic link; Pier opens only session files stored in the session folder itself, never through a link`);
      expect(errorOf(join(dir, "folder.jsonl"))).toBe(`${join(dir, "folder.jsonl")} is a folder, not a session file`);
      expect(errorOf(join(dir, "notes.txt"))).toBe(`${join(dir, "notes.txt")} is not a session file: its name does not end in .jsonl`);
      expect(errorOf(join(dir, "plain.jsonl"))).toBe(`${join(dir, "plain.jsonl")} is not a pi session: its first line is not a session header`);
      expect(errorOf(join(dir, "empty.jsonl"))).toBe(`${join(dir, "empty.jsonl")} is empty, not a pi session`);
      expect(errorOf(join(dir, "other.jsonl"))).toBe(`${join(dir, "other.jsonl")} is a session of another folder (${join(root, "elsewhere")}), not of this workspace (${cwd})`);
      // Without pi's cwd filter, another folder's session is pi's business.
      expect(catalog().checkSwitchTarget(join(dir, "other.jsonl"))).toMatchObject({ ok: true });
      expect(catalog({ dir: join(root, "nope") }).checkSwitchTarget(join(dir, "s.jsonl")).ok).toBe(false);
    });

    // Hole 4 of issue 31: pi opens the path itself after the check, so a
    // link is refused whatever it points to today (its target can be swapped).
    it("refuses a symbolic link even to a session inside the folder, a hard-linked file, and a sub-folder", async () => {
      const path = await session("s.jsonl", simple("hi"), 1);
      await symlink(path, join(dir, "alias.jsonl"));
      await symlink("s.jsonl", join(dir, "relative-alias.jsonl"));
      await link(path, join(root, "hard-twin.jsonl"));
      await mkdir(join(dir, "sub"));
      await writeFile(join(dir, "sub", "deep.jsonl"), simple("deep"));
      await symlink(dir, join(dir, "loop"));
      const sessions = catalog();
      const errorOf = (candidate: string) => {
        const result = sessions.checkSwitchTarget(candidate);
        return result.ok ? "accepted" : result.error;
      };
      const viaLink = "is a symbolic link; Pier opens only session files stored in the session folder itself, never through a link";
      expect(errorOf(join(dir, "alias.jsonl"))).toBe(`${join(dir, "alias.jsonl")} ${viaLink}`);
      expect(errorOf(join(dir, "relative-alias.jsonl"))).toBe(`${join(dir, "relative-alias.jsonl")} ${viaLink}`);
      expect(errorOf(path)).toBe(`${path} has other hard links; Pier does not open hard-linked session files, their other names may be anywhere`);
      expect(errorOf(join(dir, "sub", "deep.jsonl"))).toBe(`${join(dir, "sub", "deep.jsonl")} is in a sub-folder of the session folder ${dir}; pi keeps its sessions in the folder itself`);
    });

    it("refuses a named pipe at once (it is never waited on), as every file it was told to read", async () => {
      execFileSync("mkfifo", [join(dir, "pipe.jsonl")]);
      const started = performance.now();
      expect(catalog().checkSwitchTarget(join(dir, "pipe.jsonl"))).toEqual({ ok: false, error: `${join(dir, "pipe.jsonl")} is a named pipe (FIFO), not a session file` });
      expect(await catalog().list()).toMatchObject({ total: 0 });
      expect(performance.now() - started).toBeLessThan(2000);
    });

    it("pins the session folder where it first was: the folder swapped for a link to another is refused", async () => {
      const path = await session("s.jsonl", simple("hi"), 1);
      const sessions = catalog();
      expect(sessions.checkSwitchTarget(path)).toMatchObject({ ok: true });
      const elsewhere = join(root, "elsewhere");
      await mkdir(elsewhere);
      await writeFile(join(elsewhere, "s.jsonl"), simple("not yours"));
      await rename(dir, join(root, "sessions.real"));
      await symlink(elsewhere, dir);
      expect(sessions.checkSwitchTarget(path)).toEqual({
        ok: false,
        error: `${path} is outside this workspace's session folder ${dir}, which now leads to ${elsewhere} instead of ${dir} (was it replaced by a link?)`,
      });
    });
  });

  it("lists 2,000 sessions: a cold first page, a cold and a warm search (timings printed)", { timeout: 120_000 }, async () => {
    const count = 2000;
    // A typical small session: system prompt, three prompts, answers, tool output (~12 KB).
    const body = (i: number) =>
      lines(
        header({ cwd, id: `session-${i}` }),
        system(),
        user(`Task ${i}: please look at module ${i % 97} and fix the flaky test`),
        assistant("Looking at it.", 0.01),
        toolResult("output line\n".repeat(300)),
        user(i % 100 === 7 ? "also check the needle in the haystack" : "thanks, now run the suite"),
        assistant("Done, all green.", 0.02),
        toolResult("ok\n".repeat(1500)),
        ...(i % 10 === 0 ? [sessionInfo(`Named ${i}`)] : []),
      );
    let bytes = 0;
    for (let start = 0; start < count; start += 100) {
      await Promise.all(
        Array.from({ length: 100 }, async (_, k) => {
          const i = start + k;
          const content = body(i);
          bytes += Buffer.byteLength(content);
          await session(`${String(i).padStart(5, "0")}.jsonl`, content, i);
        }),
      );
    }
    const time = async <T>(run: () => Promise<T>): Promise<[T, number]> => {
      const started = performance.now();
      const result = await run();
      return [result, performance.now() - started];
    };

    const [firstPage, coldPage] = await time(() => catalog().list());
    expect(firstPage.total).toBe(count);
    expect(firstPage.sessions).toHaveLength(50);
    expect(firstPage.sessions[0]).toMatchObject({ id: "session-0", name: "Named 0", messageCount: 6, cost: 0.03 });

    const warmCatalog = catalog();
    const [found, coldSearch] = await time(() => warmCatalog.list({ query: "NEEDLE in the" }));
    expect(found.total).toBe(20);
    const [again, warmSearch] = await time(() => warmCatalog.list({ query: "module 42 and" }));
    expect(again.total).toBeGreaterThan(0);
    const [filtered, coldFiltered] = await time(() => catalog({ filterCwd: true }).list());
    expect(filtered.total).toBe(count);

    console.log(
      `[sessions] ${count} files, ${(bytes / count / 1024).toFixed(1)} KiB each (${(bytes / 1024 / 1024).toFixed(1)} MiB in all): ` +
        `cold first page ${coldPage.toFixed(0)} ms, cold first page with the cwd filter ${coldFiltered.toFixed(0)} ms, ` +
        `cold search ${coldSearch.toFixed(0)} ms, warm search ${warmSearch.toFixed(0)} ms`,
    );
  });
});
