// The reducer against a real pi 0.87.1 child and the scripted model: feed
// pi's stdout bytes, exactly as the relay forwards them, through the decoder
// and the reducer; what it rebuilt must equal pi's own get_messages and
// get_last_assistant_text.
import { afterEach, describe, expect, it } from "vitest";
import { JsonlDecoder } from "@pier/protocol";
import { createDemoAgentDir } from "../../relay/src/demo/agent-dir.ts";
import { copyDemoProject } from "../../relay/src/demo/demo-project.ts";
import { startModelServer } from "../../relay/src/demo/model-server.ts";
import type { Scenario } from "../../relay/src/demo/scenario.ts";
import { tourScenario } from "../../relay/src/demo/tour.ts";
import { spawnPi, type PiChild } from "../../relay/test/demo/pi-rpc-child.ts";
import { applyDecodedLine } from "../src/lib/pi-state/reduce-record.ts";
import { createSessionState, type SessionState } from "../src/lib/pi-state/session-state.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startPi(scenario: Scenario): Promise<PiChild> {
  const server = await startModelServer({ scenario });
  cleanups.push(() => server.close());
  const agent = await createDemoAgentDir({ modelServerUrl: server.url });
  cleanups.push(() => agent.cleanup());
  const project = await copyDemoProject();
  cleanups.push(() => project.cleanup());
  const pi = spawnPi({ cwd: project.dir, agentDir: agent.dir });
  cleanups.push(() => pi.close());
  return pi;
}

/** Reduces pi's raw stdout chunks, in a fresh decoder, like a browser would. */
function reduceChunks(chunks: readonly Buffer[]): SessionState {
  const state = createSessionState();
  const decoder = new JsonlDecoder();
  for (const chunk of chunks) for (const line of decoder.push(chunk)) applyDecodedLine(state, line);
  return state;
}

function lastAssistantText(state: SessionState): string | undefined {
  const last = state.messages.findLast((message) => message.role === "assistant");
  if (!last || last.role !== "assistant") return undefined;
  return last.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
}

describe("reducer against real pi", () => {
  it("rebuilds a streamed tour (thinking, text, read, bash, edit) exactly as pi stores it", async () => {
    const pi = await startPi({ ...tourScenario, pace: { chunkChars: 7, delayMs: 1 } });
    const from = pi.records.length;
    expect(await pi.request({ type: "prompt", message: "Show me around" })).toMatchObject({ success: true });

    // Mid-stream the rebuilt assistant message is already there and growing.
    await pi.waitFor((r) => r.type === "message_update" && r.assistantMessageEvent?.type === "text_delta", from);
    const midway = reduceChunks(pi.chunks);
    expect(midway.status).toBe("streaming");
    expect(midway.stream).not.toBeNull();

    await pi.waitFor((r) => r.type === "agent_settled", from);
    const messages = await pi.request({ type: "get_messages" });
    const lastText = await pi.request({ type: "get_last_assistant_text" });
    const state = reduceChunks(pi.chunks);

    const expected = (messages.data.messages as { role: string }[]).filter((m) => m.role !== "system");
    expect(expected.length).toBeGreaterThanOrEqual(10);
    expect(state.messages).toEqual(expected);
    expect(lastAssistantText(state)).toBe(lastText.data.text);
    expect(state.status).toBe("idle");
    expect(state.systemPrompt?.role).toBe("system");
  });

  it("matches get_messages after a second prompt and an answer streamed in one-character chunks", async () => {
    const pi = await startPi({ ...tourScenario, pace: { chunkChars: 1, delayMs: 0 } });
    for (const message of ["first", "second"]) {
      const from = pi.records.length;
      await pi.request({ type: "prompt", message });
      await pi.waitFor((r) => r.type === "agent_settled", from);
    }
    const messages = await pi.request({ type: "get_messages" });
    const lastText = await pi.request({ type: "get_last_assistant_text" });
    const state = reduceChunks(pi.chunks);
    expect(state.messages).toEqual((messages.data.messages as { role: string }[]).filter((m) => m.role !== "system"));
    expect(lastAssistantText(state)).toBe(lastText.data.text);
  });
});
