// Fresh links when pier has no terminal to read: started in the background
// of an interactive shell (`pier &`, where reading the terminal would get it
// stopped by SIGTTIN), or with nothing on standard input (a service
// manager). Either way it keeps serving, says how to get a fresh link, and
// prints one on SIGUSR2.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { withPiUnderTest } from "../support/pi-under-test.ts";
import { connectBrowser, isAlive, PIER_BIN, startPier } from "../support/pier-process.ts";

// pier's own host name for this launch (relay/src/launch-host.ts).
const LINK = /^http:\/\/pier-[a-z2-7]{10}\.localhost:\d+\/\?token=[A-Za-z0-9_-]{43}$/;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(100);
  }
}

/** The link lines written so far to `file` (pier's stdout). */
async function linksIn(file: string): Promise<string[]> {
  const text = await readFile(file, "utf8").catch(() => "");
  return text.split("\n").filter((line) => line !== "");
}

/** A link opened as a browser would: 303 and a cookie when it is good. Times out (a stopped pier answers nothing). */
async function redeem(link: string): Promise<number> {
  const response = await fetch(link, { redirect: "manual", signal: AbortSignal.timeout(5000) });
  await response.body?.cancel();
  return response.status;
}

/** The state letter of /proc/<pid>/stat: "R" running, "S" sleeping, "T" stopped (SIGTTIN, SIGTSTP), "Z" exited. */
function processState(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0]!;
}

/** Stops a pier (and its pi) that runs in a process group of its own. */
function stopGroup(pid: number): () => Promise<void> {
  return async () => {
    for (const signal of ["SIGCONT", "SIGTERM"] as const) {
      try {
        process.kill(-pid, signal);
      } catch {
        return;
      }
    }
    for (let i = 0; i < 100 && isAlive(pid); i++) await delay(100);
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // Gone.
    }
  };
}

const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

describe("fresh links without a terminal to read", () => {
  it("`pier &` in an interactive shell keeps serving (it does not read the terminal it does not own) and prints a fresh link on SIGUSR2", async () => {
    const dir = await mkdtemp(join(tmpdir(), "pier-background-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const out = join(dir, "out");
    const err = join(dir, "err");
    const pier = [process.execPath, PIER_BIN, ...withPiUnderTest(["--demo"])].map(quote).join(" ");
    // An interactive bash (job control on) in a pseudo-terminal from `script`: pier runs as a background job of it.
    // The shell stays as long as pier does, stopped or not (`wait` would return when it stops).
    const job = `${pier} > ${quote(out)} 2> ${quote(err)} & echo "pier-pid=$!"; while kill -0 $! 2>/dev/null; do sleep 0.2; done`;
    const shell: ChildProcess = spawn("script", ["-qefc", `bash --norc --noprofile -i -c ${quote(job)}`, "/dev/null"], {
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    let terminal = "";
    shell.stdout!.on("data", (chunk: Buffer) => (terminal += chunk.toString("utf8")));
    shell.stderr!.on("data", (chunk: Buffer) => (terminal += chunk.toString("utf8")));
    cleanups.push(async () => {
      try {
        process.kill(-shell.pid!, "SIGKILL");
      } catch {
        // Gone.
      }
    });
    const pid = await until("the job's pid", () => {
      const found = /pier-pid=(\d+)/.exec(terminal);
      return found ? Number(found[1]) : undefined;
    });
    cleanups.push(stopGroup(pid));
    const [link] = await until("pier's link", async () => {
      const links = await linksIn(out);
      return links.length > 0 ? links : undefined;
    });
    expect(link).toMatch(LINK);
    // Something typed into the terminal (the person's next command): the old
    // pier, reading its terminal from the background, was stopped by it.
    shell.stdin!.write("ls\n");
    await delay(1000);
    expect(processState(pid)).toMatch(/^[RS]$/);
    expect(await redeem(link!)).toBe(303);
    const log = await readFile(err, "utf8");
    expect(log).toContain(`once pier is in the foreground (fg), or run \`kill -USR2 ${pid}\`, for a fresh one`);

    process.kill(pid, "SIGUSR2");
    const links = await until("a second link", async () => {
      const all = await linksIn(out);
      return all.length > 1 ? all : undefined;
    });
    expect(links).toHaveLength(2);
    expect(links[1]).toMatch(LINK);
    expect(links[1]).not.toBe(link);
    expect(await redeem(links[1]!)).toBe(303);
    expect(processState(pid)).toMatch(/^[RS]$/);
  });

  it("with nothing on standard input (a service manager) it says to send SIGUSR2, and does", async () => {
    const pier = spawn(process.execPath, [PIER_BIN, ...withPiUnderTest(["--demo"])], { stdio: ["ignore", "pipe", "pipe"], detached: true });
    cleanups.push(stopGroup(pier.pid!));
    let stdout = "";
    let stderr = "";
    pier.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    pier.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const lines = () => stdout.split("\n").filter((line) => line !== "");
    await until("pier's link", () => (lines().length > 0 && stderr.includes("each link works once") ? true : undefined));
    expect(stderr).toContain(`each link works once, for one browser: run \`kill -USR2 ${pier.pid}\` for a fresh one`);
    expect(stderr).not.toContain("press Enter");

    pier.kill("SIGUSR2");
    await until("a second link", () => (lines().length > 1 ? true : undefined));
    const [first, second] = lines();
    expect(second).toMatch(LINK);
    expect(second).not.toBe(first);
    expect(await redeem(second!)).toBe(303);
    expect(await redeem(first!)).toBe(303);
  });

  it("outlives a reader of its standard output that went away (`pier | head -1`): the link asked for then is lost, pier is not", async () => {
    const pier = await startPier(["--demo"]);
    cleanups.push(async () => void (await pier.stop("SIGKILL", 0)));
    pier.process.stdout!.destroy();
    pier.process.stdin!.write("\n");
    await delay(1000);
    expect(isAlive(pier.process.pid!), pier.stderr.join("\n")).toBe(true);
    // Still serving: a browser connects and gets its hello (the page itself may not be built when this runs).
    const browser = await connectBrowser(pier);
    expect(browser.hello.type).toBe("hello");
    await browser.close();
    expect(await pier.stop()).toEqual({ code: 0, signal: null });
  });
});
