// A throwaway pi config dir (PI_CODING_AGENT_DIR) that points pi at the
// scripted model server. pi writes auth.json and models-store.json into its
// agent dir at start-up, so every pi process gets its own fresh copy.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_MODEL_ID } from "./model-server.ts";

export const DEMO_PROVIDER = "pier-demo";
export const DEMO_MODEL_NAME = "Pier demo model";
/** A second scripted model without reasoning that reads text only, so model pickers have a choice to offer and the page's note on images a model cannot read can be seen. */
export const DEMO_FAST_MODEL_ID = "pier-demo-model-fast";
export const DEMO_FAST_MODEL_NAME = "Pier demo model (fast)";

export interface DemoAgentDirOptions {
  /** The model server's base URL, ending in /v1. */
  modelServerUrl: string;
  modelId?: string;
  /** Extra pi settings merged over the defaults, e.g. `{ retry: { baseDelayMs: 50 } }` in tests. */
  settings?: Record<string, unknown>;
}

export interface DemoAgentDir {
  dir: string;
  cleanup(): Promise<void>;
}

export async function createDemoAgentDir(options: DemoAgentDirOptions): Promise<DemoAgentDir> {
  const modelId = options.modelId ?? DEFAULT_MODEL_ID;
  const dir = await mkdtemp(join(tmpdir(), "pier-demo-agent-"));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    await writeFile(join(dir, "models.json"), `${JSON.stringify(demoModelsConfig(options.modelServerUrl, modelId), null, 2)}\n`);
    const settings = { defaultProvider: DEMO_PROVIDER, defaultModel: modelId, ...options.settings };
    await writeFile(join(dir, "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { dir, cleanup };
}

/**
 * models.json for pi: one custom openai-completions provider on loopback with
 * two models (the scripted server answers for both): the default one, which
 * reasons and reads images, and a "fast" one that does neither (pi sends it
 * "(image omitted: model does not support images)" in an image's place).
 */
export function demoModelsConfig(modelServerUrl: string, modelId: string = DEFAULT_MODEL_ID): Record<string, unknown> {
  return {
    providers: {
      [DEMO_PROVIDER]: {
        name: "Pier demo (offline, scripted)",
        baseUrl: modelServerUrl,
        api: "openai-completions",
        // pi only offers a model whose provider has credentials; the server ignores it.
        apiKey: "pier-demo-no-key-needed",
        models: [
          {
            id: modelId,
            name: DEMO_MODEL_NAME,
            reasoning: true,
            input: ["text", "image"],
            contextWindow: 128_000,
            maxTokens: 16_384,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
          },
          {
            id: DEMO_FAST_MODEL_ID,
            name: DEMO_FAST_MODEL_NAME,
            reasoning: false,
            input: ["text"],
            contextWindow: 32_000,
            maxTokens: 8_192,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
          },
        ],
      },
    },
  };
}
