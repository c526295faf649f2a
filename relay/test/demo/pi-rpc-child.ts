// Test helper: a real `pi --mode rpc` child with its stdout split into records.
// Records are framed by Pier's own JsonlDecoder (LF only, never readline:
// U+2028 is legal inside JSON), which also keeps split UTF-8 characters whole.

import { spawn } from "node:child_process";
import { JsonlDecoder } from "@pier/protocol";
import { piUnderTest } from "../support/pi-under-test.ts";

export type RpcRecord = Record<string, any>;

export interface PiChild {
  /** Every stdout record so far, in order. */
  records: RpcRecord[];
  /** pi's stdout exactly as read, chunk by chunk (what the relay forwards). */
  chunks: Buffer[];
  stderr(): string;
  /** Sends a command with a fresh id and resolves with its response. */
  request(command: RpcRecord): Promise<RpcRecord>;
  /** Writes one record as it is, its id included (an extension_ui_response answers pi's id); nothing is awaited. */
  write(record: RpcRecord): void;
  /** Resolves with the first record (from index `from`) that matches. */
  waitFor(predicate: (record: RpcRecord) => boolean, from?: number, timeoutMs?: number): Promise<RpcRecord>;
  /** Closes stdin (pi's normal shutdown) and resolves with the exit code. */
  close(): Promise<number | null>;
}

/** `args` go after `--mode rpc`; `env` is merged last (an undefined value removes a variable). */
export function spawnPi(options: { cwd: string; agentDir: string; args?: string[]; env?: NodeJS.ProcessEnv }): PiChild {
  const child = spawn(process.execPath, [piUnderTest.cliPath, "--mode", "rpc", ...(options.args ?? [])], {
    cwd: options.cwd,
    env: { ...process.env, PI_CODING_AGENT_DIR: options.agentDir, PI_OFFLINE: "1", ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const records: RpcRecord[] = [];
  const chunks: Buffer[] = [];
  const decoder = new JsonlDecoder();
  const listeners = new Set<() => void>();
  let stderr = "";
  let nextId = 0;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  // A write to a pi that already exited fails with EPIPE; the test's own
  // assertions report that better than an unhandled 'error' event would.
  child.stdin.on("error", () => {});
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  child.stdout.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    for (const line of decoder.push(chunk)) {
      if (line.kind !== "record") throw new Error(`pi wrote a line that is not JSON: ${line.raw.slice(0, 200)}`);
      records.push(line.value as RpcRecord);
    }
    for (const listener of listeners) listener();
  });

  const waitFor: PiChild["waitFor"] = (predicate, from = 0, timeoutMs = 30_000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = records.slice(from).find(predicate);
        if (!found) return false;
        cleanup();
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for a pi record; last records: ${JSON.stringify(records.slice(-3)).slice(0, 1500)}\nstderr: ${stderr}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        listeners.delete(listener);
      };
      const listener = () => void check();
      if (!check()) listeners.add(listener);
    });

  return {
    records,
    chunks,
    stderr: () => stderr,
    request(command) {
      const id = `test-${++nextId}`;
      const from = records.length;
      child.stdin.write(`${JSON.stringify({ ...command, id })}\n`);
      return waitFor((record) => record.type === "response" && record.id === id, from);
    },
    write(record) {
      child.stdin.write(`${JSON.stringify(record)}\n`);
    },
    waitFor,
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
