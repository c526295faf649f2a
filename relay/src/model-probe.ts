// Asks a short-lived pi (same program, arguments, folder and environment as
// the real one) whether it has a usable model, so `pier` can fall back to the
// demo model instead of opening an IDE that cannot answer. pi reports no
// model by leaving `model` out of get_state.
import { spawn } from "node:child_process";
import { JsonlDecoder } from "@pier/protocol";
import type { PiLaunch } from "./pi-process.ts";

export type ModelProbeResult = "has_model" | "no_model" | "unknown";

const PROBE_TIMEOUT_MS = 20_000;

export function probeModel(launch: PiLaunch): Promise<ModelProbeResult> {
  return new Promise((resolve) => {
    const child = spawn(launch.command, launch.args, { cwd: launch.cwd, env: launch.env, stdio: ["pipe", "pipe", "ignore"] });
    const decoder = new JsonlDecoder();
    let settled = false;
    const finish = (result: ModelProbeResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdin.end();
      setTimeout(() => child.kill("SIGKILL"), 3000).unref();
      resolve(result);
    };
    const timer = setTimeout(() => finish("unknown"), PROBE_TIMEOUT_MS);
    child.on("error", () => finish("unknown"));
    child.on("close", () => finish("unknown"));
    child.stdin.on("error", () => {});
    child.stdout.on("data", (chunk: Buffer) => {
      for (const line of decoder.push(chunk)) {
        if (line.kind !== "record") continue;
        const record = line.value as { type?: unknown; id?: unknown; success?: unknown; data?: { model?: unknown } };
        if (record.type === "response" && record.id === "pier-model-probe") {
          finish(record.success === true && record.data?.model ? "has_model" : "no_model");
        }
      }
    });
    child.stdin.write('{"id":"pier-model-probe","type":"get_state"}\n');
  });
}
