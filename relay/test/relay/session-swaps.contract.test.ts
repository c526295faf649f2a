// Hole 4 of issue 31, against the real relay and the real pi: a session file
// swapped for a symbolic link (and back) while the relay serves or checks it.
// - GET /api/sessions/download checked the path and then opened it again by
//   name: the file outside the session folder was served. Now the file is
//   opened once, without following a link, and its descriptor is checked.
// - switch_session: pi opens the path itself after the relay's check, so a
//   path that is or goes through a link is refused whatever it points to now.
import { copyFile, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandId, connectBrowser, startPier, type Browser, type PiRecord, type RunningPier } from "../support/pier-process.ts";
import { startFolderSwapper } from "../workspace/folder-swapper.ts";
import { httpJson } from "../workspace/workspace-http.ts";

const SCENARIO = fileURLToPath(new URL("../../../e2e/scenarios/hello.json", import.meta.url));
const MARK = "OUTSIDE THE SESSION FOLDER";
/** Longer than any session here: a relay that announced the session's size and read this instead sends its first bytes. */
const OUTSIDE = `${MARK}: never to be served\n`.repeat(2000);
/** Downloads tried while the swapper runs, and the most time they may take. */
const TRIES = 200;
const BUDGET_MS = 30_000;

async function ask(browser: Browser, command: Record<string, unknown>): Promise<PiRecord> {
  const id = commandId();
  browser.send({ ...command, id });
  return browser.waitForRecord((record) => record.type === "response" && record.id === id);
}

describe("session files swapped for links", () => {
  let pier: RunningPier;
  let browser: Browser;
  let scratch: string;
  let sessionDir: string;
  let firstFile: string;
  let outsideFile: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "pier-session-swaps-"));
    outsideFile = join(scratch, "outside.jsonl");
    await writeFile(outsideFile, OUTSIDE);
    pier = await startPier(["--demo", "--demo-scenario", SCENARIO]);
    browser = await connectBrowser(pier);
    sessionDir = browser.hello.sessions!.dir;
    expect(await ask(browser, { type: "prompt", message: "hello there" })).toMatchObject({ success: true });
    await browser.waitForRecord((record) => record.type === "agent_settled");
    await browser.waitForFrame("sessions_changed");
    firstFile = (await ask(browser, { type: "get_state" })).data.sessionFile;
  });
  afterAll(async () => {
    await browser?.close();
    await pier?.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it(`never serves the outside file while a session file is swapped with a link to it (${TRIES} downloads)`, async () => {
    const victim = join(sessionDir, "victim.jsonl");
    await copyFile(firstFile, victim);
    const real = await readFile(victim, "utf8");
    const seen: Record<string, number> = {};
    let leaks = 0;
    let tries = 0;
    const swapper = startFolderSwapper(victim, outsideFile, { linkMicros: 300, realMicros: 300 });
    const deadline = Date.now() + BUDGET_MS;
    try {
      while (tries < TRIES && Date.now() < deadline) {
        tries++;
        const answer = await httpJson(pier, "GET", `/api/sessions/download?path=${encodeURIComponent(victim)}`).catch((error: Error) => error);
        if (answer instanceof Error) {
          seen[`failed: ${answer.message}`] = (seen[`failed: ${answer.message}`] ?? 0) + 1;
          continue;
        }
        if (answer.text.includes(MARK)) leaks++;
        const key = answer.status === 200 ? (answer.text === real ? "200 the session" : answer.text.includes(MARK) ? "200 OUTSIDE" : "200 other") : `${answer.status} ${answer.json?.error?.code}`;
        seen[key] = (seen[key] ?? 0) + 1;
      }
    } finally {
      const { swaps } = await swapper.stop();
      console.log(`session download race: ${tries} downloads, ${swaps} swaps, ${leaks} leaks; ${JSON.stringify(seen)}`);
    }
    expect(leaks, JSON.stringify(seen)).toBe(0);
    expect(
      Object.keys(seen).every((key) => /^(200 the session|403 forbidden_path|404 (forbidden_path|not_found))$/.test(key)),
      JSON.stringify(seen),
    ).toBe(true);
    // The race was run: the swapper made the relay refuse at least once, and served the real file at least once.
    expect(tries).toBeGreaterThanOrEqual(50);
    expect(seen["200 the session"] ?? 0).toBeGreaterThan(0);
    expect(tries - (seen["200 the session"] ?? 0)).toBeGreaterThan(0);
  });

  it("refuses switch_session to a symbolic link, to a session inside the folder or to a file outside, saying why; a regular session still switches", async () => {
    const inside = join(sessionDir, "alias-inside.jsonl");
    const outside = join(sessionDir, "alias-outside.jsonl");
    await symlink(firstFile, inside);
    await copyFile(firstFile, join(scratch, "outside-session.jsonl"));
    await symlink(join(scratch, "outside-session.jsonl"), outside);
    for (const link of [inside, outside]) {
      const id = commandId();
      browser.send({ type: "switch_session", sessionPath: link, id });
      const refusal = await browser.waitForFrame("error", (frame) => frame.command?.id === id);
      expect(refusal).toMatchObject({
        code: "path_refused",
        message: `switch_session refused: ${link} is a symbolic link; Pier opens only session files stored in the session folder itself, never through a link`,
      });
    }
    // Nor may it be downloaded through the link.
    const download = await httpJson(pier, "GET", `/api/sessions/download?path=${encodeURIComponent(outside)}`);
    expect({ status: download.status, code: download.json?.error?.code }).toEqual({ status: 403, code: "forbidden_path" });

    expect(await ask(browser, { type: "new_session" })).toMatchObject({ success: true });
    expect(await ask(browser, { type: "switch_session", sessionPath: firstFile })).toMatchObject({ success: true, data: { cancelled: false } });
    expect(basename((await ask(browser, { type: "get_state" })).data.sessionFile)).toBe(basename(firstFile));
  });
});
