// Asks a short-lived pi (same program, arguments, folder and environment as
// the real one) whether it has a usable model, so `pier` can fall back to the
// demo model instead of opening an IDE that cannot answer. pi 0.87.1 with no
// model answers get_available_models with an empty list, and get_state with a
// placeholder model whose provider is "unknown" (or none at all).
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
        const record = line.value as {
          type?: unknown;
          id?: unknown;
          success?: unknown;
          data?: { model?: { provider?: unknown }; models?: unknown[] };
        };
        if (record.type !== "response" || record.success !== true) continue;
        if (record.id === "pier-probe-state") {
          const provider = record.data?.model?.provider;
          if (typeof provider !== "string" || provider === "unknown") finish("no_model");
        } else if (record.id === "pier-probe-models") {
          finish(Array.isArray(record.data?.models) && record.data.models.length > 0 ? "has_model" : "no_model");
        }
      }
    });
    child.stdin.write('{"id":"pier-probe-state","type":"get_state"}\n{"id":"pier-probe-models","type":"get_available_models"}\n');
  });
}
