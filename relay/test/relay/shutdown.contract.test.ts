// Stopping pier: SIGTERM (kill, systemd, a test runner), SIGINT (Ctrl+C) and
// SIGHUP (its terminal closed) end pier with code 0 after it has ended pi
// and removed the demo's scratch folders, whether pi is idle or in the
// middle of an answer.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { commandId, connectBrowser, isAlive, startPier, type ExitStatus, type RunningPier } from "../support/pier-process.ts";

const LONG_STREAM = fileURLToPath(new URL("./fixtures/long-stream.json", import.meta.url));
const EXIT_WITHIN_MS = 5000;

/** pi's config dir, read from its environment (Linux /proc), or null. */
function agentDirOf(pid: number): string | null {
  try {
    const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    return environ.find((entry) => entry.startsWith("PI_CODING_AGENT_DIR="))?.slice("PI_CODING_AGENT_DIR=".length) ?? null;
  } catch {
    return null;
  }
}

function exitWithin(pier: RunningPier, ms: number): Promise<ExitStatus | "still running"> {
  return Promise.race([pier.exited, new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), ms))]);
}

let pier: RunningPier | undefined;
afterEach(async () => {
  await pier?.stop("SIGKILL", 0);
  pier = undefined;
});

describe.each([
  { signal: "SIGTERM" as const, busy: false, to: "pier" },
  { signal: "SIGINT" as const, busy: false, to: "pier" },
  { signal: "SIGTERM" as const, busy: true, to: "pier" },
  { signal: "SIGINT" as const, busy: true, to: "pier" },
  // Ctrl+C in a terminal signals the whole foreground group, pi included.
  { signal: "SIGINT" as const, busy: true, to: "group" },
  // The terminal pier runs in is closed.
  { signal: "SIGHUP" as const, busy: true, to: "pier" },
  // `timeout` signals pier, then its whole group: one request that arrives twice.
  { signal: "SIGTERM" as const, busy: true, to: "pier, then the group" },
])("$signal sent to $to (pi busy: $busy)", ({ signal, busy, to }) => {
  it("exits 0 promptly, ends pi and removes the demo folders", async () => {
    pier = await startPier(["--demo", "--demo-scenario", LONG_STREAM]);
    const browser = await connectBrowser(pier);
    const child = browser.hello.child;
    const demo = browser.hello.demo;
    expect(child.state).toBe("running");
    if (child.state !== "running" || !demo) throw new Error("expected a running demo child");
    expect(existsSync(demo.projectDir)).toBe(true);
    const agentDir = agentDirOf(child.pid);
    if (process.platform === "linux") expect(agentDir).toMatch(/pier-demo-agent-/);
    if (agentDir) expect(existsSync(agentDir)).toBe(true);

    if (busy) {
      browser.send({ type: "prompt", id: commandId("prompt"), message: "Keep talking." });
      await browser.waitForRecord((record) => record.type === "message_update" && record.assistantMessageEvent?.type === "text_delta");
    }

    const startedAt = Date.now();
    if (to !== "group") pier.signal(signal);
    if (to !== "pier") process.kill(-pier.process.pid!, signal);
    const status = await exitWithin(pier, EXIT_WITHIN_MS);
    expect(status, `pier's stderr:\n${pier.stderr.join("\n")}`).toEqual({ code: 0, signal: null });
    const tookMs = Date.now() - startedAt;
    expect(tookMs).toBeLessThan(EXIT_WITHIN_MS);

    // The browser was told it is going away, not just cut off.
    const closed = await browser.closed;
    expect(closed.code).toBe(1001);
    // pi is gone (pier waited for it), and so are the scratch folders.
    expect(isAlive(child.pid)).toBe(false);
    expect(existsSync(demo.projectDir)).toBe(false);
    expect(existsSync(dirname(demo.projectDir))).toBe(false);
    if (agentDir) expect(existsSync(agentDir)).toBe(false);
    expect(pier.stderr.join("\n")).toContain(`${signal}: stopping pi and the relay`);
    expect(pier.stderr.join("\n")).not.toContain("exiting now");
  });
});

const LONG_COMMAND = fileURLToPath(new URL("./fixtures/long-command.json", import.meta.url));

/** The pids of the scenario's `sleep 2718` (Linux /proc). */
function longCommandPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8") === "sleep\u00002718\u0000") pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

async function waitFor<T>(check: () => T | undefined, what: string, ms = 5000): Promise<T> {
  for (const until = Date.now() + ms; ; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
  }
}

// A command pi runs (a dev server, a long test run) must not outlive pier,
// however pier is stopped: the terminal's Ctrl+C reaches pier's whole
// foreground group, and pi has no SIGINT handler of its own (it would die
// at once, skipping its shutdown, and leave the command running).
describe.runIf(process.platform === "linux").each([
  { how: "SIGTERM to pier", signal: "SIGTERM" as const, to: "pier" },
  { how: "Ctrl+C (SIGINT to the group)", signal: "SIGINT" as const, to: "group" },
  { how: "the terminal closed (SIGHUP to the group)", signal: "SIGHUP" as const, to: "group" },
])("stopped by $how while pi runs a command", ({ signal, to }) => {
  it("the command does not outlive pier", async () => {
    pier = await startPier(["--demo", "--demo-scenario", LONG_COMMAND]);
    const browser = await connectBrowser(pier);
    browser.send({ type: "prompt", id: commandId("prompt"), message: "Run the long command." });
    await browser.waitForRecord((record) => record.type === "tool_execution_start" && record.toolName === "bash");
    const [command] = await waitFor(() => {
      const pids = longCommandPids();
      return pids.length === 1 ? pids : undefined;
    }, "the command to start");

    if (to === "pier") pier.signal(signal);
    else process.kill(-pier.process.pid!, signal);
    const status = await exitWithin(pier, EXIT_WITHIN_MS);
    expect(status, `pier's stderr:\n${pier.stderr.join("\n")}`).toEqual({ code: 0, signal: null });
    await waitFor(() => (isAlive(command!) ? undefined : true), `sleep 2718 (pid ${command}) to end`, 3000);
    // pi ran its own shutdown (its run aborted, the extensions'
    // session_shutdown handlers), not killed by a signal meant for pier.
    expect(pier.stderr.join("\n")).toContain("pi exited (code 0, signal null)");
  });
});
