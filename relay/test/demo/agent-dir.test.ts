import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createDemoAgentDir, DEMO_FAST_MODEL_ID, DEMO_FAST_MODEL_NAME, DEMO_MODEL_NAME, DEMO_PROVIDER } from "../../src/demo/agent-dir.ts";

describe("createDemoAgentDir", () => {
  it("writes models.json and settings.json selecting the scripted model, and cleans up", async () => {
    const agent = await createDemoAgentDir({ modelServerUrl: "http://127.0.0.1:1234/v1", settings: { retry: { baseDelayMs: 10 } } });
    try {
      const models = JSON.parse(await readFile(join(agent.dir, "models.json"), "utf8"));
      const provider = models.providers[DEMO_PROVIDER];
      expect(provider).toMatchObject({ api: "openai-completions", baseUrl: "http://127.0.0.1:1234/v1", apiKey: expect.any(String) });
      expect(provider.models).toEqual([
        expect.objectContaining({ id: "pier-demo-model", name: DEMO_MODEL_NAME, reasoning: true, input: ["text", "image"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }),
        // A second model (no reasoning) so model pickers have something to switch to.
        // It reads text only: the page's notes on images a model cannot read are seen in the demo and its e2e.
        expect.objectContaining({ id: DEMO_FAST_MODEL_ID, name: DEMO_FAST_MODEL_NAME, reasoning: false, input: ["text"] }),
      ]);
      const settings = JSON.parse(await readFile(join(agent.dir, "settings.json"), "utf8"));
      expect(settings).toEqual({ defaultProvider: DEMO_PROVIDER, defaultModel: "pier-demo-model", retry: { baseDelayMs: 10 } });
    } finally {
      await agent.cleanup();
    }
    expect(existsSync(agent.dir)).toBe(false);
  });
});
