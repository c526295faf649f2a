// PiProcess.stop() against small stand-in children (node -e), each stuck in
// a different way, with the stop steps shortened: the escalation reaches
// exactly as far as the child needs. Steps a child must not need are set far
// beyond the test timeout, so reaching them fails the test.
import { afterEach, describe, expect, it } from "vitest";
import type { ChildStatus } from "@pier/protocol";
import { PiProcess, type StopStep } from "../../src/pi-process.ts";

const NEVER = 120_000;
const running: PiProcess[] = [];
afterEach(async () => {
  for (const pi of running.splice(0)) await pi.stop();
});

function stand(script: string, steps: StopStep[]): PiProcess {
  const pi = new PiProcess({ command: process.execPath, args: ["-e", script], cwd: process.cwd(), env: process.env }, steps);
  running.push(pi);
  return pi;
}

function statusOf(pi: PiProcess, state: ChildStatus["state"]): Promise<ChildStatus> {
  return new Promise((resolve) => {
    if (pi.status.state === state) return resolve(pi.status);
    const listener = (status: ChildStatus) => {
      if (status.state !== state) return;
      pi.off("status", listener);
      resolve(status);
    };
    pi.on("status", listener);
  });
}

async function started(pi: PiProcess, readyLine = "ready"): Promise<void> {
  const ready = new Promise<void>((resolve) => pi.on("stderrLine", (line) => line === readyLine && resolve()));
  pi.start();
  await ready;
}

describe("PiProcess.stop", () => {
  it("closes stdin first: a child that leaves on end of input gets no signal", async () => {
    const pi = stand(`process.stdin.resume(); process.stdin.on("end", () => process.exit(0)); console.error("ready")`, [{ afterMs: NEVER, signal: "SIGTERM" }]);
    await started(pi);
    await pi.stop();
    expect(pi.status).toMatchObject({ state: "exited", code: 0, signal: null });
  });

  it("then sends SIGTERM, which a busy child handles in its own time", async () => {
    const pi = stand(`process.on("SIGTERM", () => setTimeout(() => process.exit(143), 300)); setInterval(() => {}, 1000); console.error("ready")`, [
      { afterMs: 100, signal: "SIGTERM" },
      { afterMs: NEVER, signal: "SIGKILL" },
    ]);
    await started(pi);
    await pi.stop();
    expect(pi.status).toMatchObject({ state: "exited", code: 143 });
  });

  it("sends a second SIGTERM to a child still shutting down (pi then exits at once)", async () => {
    const pi = stand(`let n = 0; process.on("SIGTERM", () => { if (++n === 2) process.exit(1); }); setInterval(() => {}, 1000); console.error("ready")`, [
      { afterMs: 100, signal: "SIGTERM" },
      { afterMs: 300, signal: "SIGTERM" },
      { afterMs: NEVER, signal: "SIGKILL" },
    ]);
    await started(pi);
    await pi.stop();
    expect(pi.status).toMatchObject({ state: "exited", code: 1 });
  });

  it("kills a child whose event loop is stuck", async () => {
    const pi = stand(`process.on("SIGTERM", () => {}); console.error("ready"); setTimeout(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0), 50)`, [
      { afterMs: 200, signal: "SIGTERM" },
      { afterMs: 300, signal: "SIGTERM" },
      { afterMs: 400, signal: "SIGKILL" },
    ]);
    await started(pi);
    await pi.stop();
    expect(pi.status).toMatchObject({ state: "exited", signal: "SIGKILL" });
  });

  it("reads out a child blocked writing to stdout that the relay had paused, so it can see the end of its input", async () => {
    // 8 MB written synchronously: far more than a pipe holds.
    const pi = stand(`process.stdin.resume(); process.stdin.on("end", () => process.exit(0)); console.error("ready"); require("fs").writeSync(1, Buffer.alloc(8e6, 97));`, [
      { afterMs: NEVER, signal: "SIGTERM" },
    ]);
    let bytes = 0;
    pi.on("stdout", (chunk) => (bytes += chunk.length));
    pi.pauseStdout();
    await started(pi);
    await pi.stop();
    expect(pi.status).toMatchObject({ state: "exited", code: 0 });
    expect(bytes).toBe(8e6);
  });
});

describe("PiProcess stdout pause", () => {
  it("holds for a child started while paused (a restart), until resumed", async () => {
    const pi = stand(`process.stdout.write("hello\\n"); process.stdin.resume(); process.stdin.on("end", () => process.exit(0)); console.error("ready")`, [{ afterMs: NEVER, signal: "SIGTERM" }]);
    const chunks: string[] = [];
    pi.on("stdout", (chunk) => chunks.push(chunk.toString()));
    pi.pauseStdout();
    await started(pi);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(chunks).toEqual([]);
    pi.resumeStdout();
    await new Promise<void>((resolve) => pi.once("stdout", () => resolve()));
    expect(chunks.join("")).toBe("hello\n");
    await pi.stop();
    await statusOf(pi, "exited");
  });
});
