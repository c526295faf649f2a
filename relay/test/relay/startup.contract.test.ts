// Starting pier as a script would: one URL line on stdout, and a clear failure
// (with pier's own explanation) when it cannot start.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PIER_BIN, connectBrowser, runPier, startPier, type RunningPier } from "../support/pier-process.ts";

const SCENARIO = fileURLToPath(new URL("./fixtures/long-stream.json", import.meta.url));

describe("pier start-up", () => {
  let pier: RunningPier;
  beforeAll(async () => {
    pier = await startPier(["--demo"]);
  });
  afterAll(async () => {
    await pier?.stop();
  });

  it("prints only links on stdout: the loopback URL with a 256-bit token, and one more per Enter", () => {
    // startPier asked for one more link (for its own test browser).
    const lines = pier.stdout.filter((line) => line !== "");
    expect(lines[0]).toBe(pier.url);
    expect(lines).toHaveLength(2);
    // Under pier's own host name for this launch (relay/src/launch-host.ts), not 127.0.0.1.
    for (const line of lines) expect(line).toMatch(/^http:\/\/pier-[a-z2-7]{10}\.localhost:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
    expect(new Set(lines).size).toBe(2);
    // The secret goes to stdout only, never to the log.
    expect(pier.stderr.join("\n")).not.toContain(pier.token);
  });

  it("says in its hello whether the demo plays the tour or a scenario file (the page describes the tour's records from the start)", async () => {
    const browser = await connectBrowser(pier);
    try {
      expect(browser.hello.demo).toMatchObject({ reason: "requested", tour: true });
    } finally {
      await browser.close();
    }
    const scripted = await startPier(["--demo", "--demo-scenario", SCENARIO]);
    try {
      const viewer = await connectBrowser(scripted);
      expect(viewer.hello.demo).toMatchObject({ reason: "requested", tour: false });
      await viewer.close();
    } finally {
      await scripted.stop();
    }
  });

  it("runs its relay in place with one V8 helper thread, unless told another number", async () => {
    // execve: the pid the launcher spawned is the relay's (pier-process.ts's stop() and scripts rely on it).
    const args = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    expect(args(pier.process.pid!)).toEqual(expect.arrayContaining(["--v8-pool-size=1", PIER_BIN, "--demo"]));
    const own = await startPier(["--demo"], { env: { ...process.env, NODE_OPTIONS: "--v8-pool-size=3" } });
    try {
      expect(args(own.process.pid!).some((arg) => arg.startsWith("--v8-pool-size"))).toBe(false);
      const browser = await connectBrowser(own);
      await browser.close();
    } finally {
      await own.stop();
    }
  });

  it("reports a bad option with pier's usage text instead of hanging", async () => {
    const failure = startPier(["--no-such-option"], { startTimeoutMs: 10_000 });
    await expect(failure).rejects.toThrow(/exited \(code 2[\s\S]*no-such-option[\s\S]*Usage: pier/);
  });

  it("says so when its port is taken, prints no link, exits 1 and leaves none of the demo's scratch folders behind", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as AddressInfo).port;
    // The demo's folders are made in the temporary folder: a fresh one shows what is left.
    const tmp = await mkdtemp(join(tmpdir(), "pier-port-taken-"));
    try {
      const result = await runPier(["--demo", "--port", String(port)], { env: { ...process.env, TMPDIR: tmp } });
      expect(result).toMatchObject({ code: 1, stdout: "" });
      expect(result.stderr).toContain(`pier: cannot listen on 127.0.0.1:${port}: the port is in use (another pier?). Choose another with --port`);
      expect(await readdir(tmp)).toEqual([]);
    } finally {
      taken.close();
      await rm(tmp, { recursive: true, force: true });
    }
  });

  // Hole 9 of issue 31: a file Pier is told to open is checked for being a
  // regular file, without blocking on a named pipe, and named for what it is.
  it("refuses a --session that is a named pipe, a device or a folder, at once and saying what it is", async () => {
    const dir = await mkdtemp(join(tmpdir(), "pier-session-kind-"));
    try {
      const fifo = join(dir, "pipe.jsonl");
      execFileSync("mkfifo", [fifo]);
      const cases: [string, string][] = [
        [fifo, `${fifo} is a named pipe (FIFO), not a session file`],
        ["/dev/zero", "/dev/zero is a device, not a session file"],
        [dir, `${dir} is a folder, not a session file`],
      ];
      for (const [file, message] of cases) {
        const result = await runPier(["--demo", "--session", file], { timeoutMs: 10_000 });
        expect({ file, code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({ file, code: 1, stdout: "", stderr: `pier: --session ${message}\n` });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses a --session file that pi would refuse (lines but no session header), and starts on an empty one as pi does", async () => {
    const dir = await mkdtemp(join(tmpdir(), "pier-session-arg-"));
    try {
      const files = {
        "notes.txt": "Remember the milk.\n",
        "entry.jsonl": `${JSON.stringify({ type: "message", id: "a1" })}\n`,
        "blank.jsonl": "\n\n",
      };
      const reasons = {
        "notes.txt": "is not a pi session: it has no session header",
        "entry.jsonl": "is not a pi session: its first line is not a session header",
        "blank.jsonl": "is not a pi session: it has no session header",
      };
      for (const [name, text] of Object.entries(files)) {
        await writeFile(join(dir, name), text);
        const result = await runPier(["--demo", "--session", join(dir, name)]);
        expect(result, name).toMatchObject({ code: 1, stdout: "" });
        expect(result.stderr).toBe(`pier: --session ${join(dir, name)} ${reasons[name as keyof typeof reasons]}\n`);
      }
      await writeFile(join(dir, "empty.jsonl"), "");
      const started = await startPier(["--demo", "--session", join(dir, "empty.jsonl")]);
      try {
        const browser = await connectBrowser(started);
        expect(browser.hello.child.state).toBe("running");
        await browser.close();
      } finally {
        await started.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
