// The real pi (the pi under test: 0.87.1 or 1.6.0) against the scripted
// model: the demo tour, and pi's auto-retry after an injected 529.

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createDemoAgentDir, DEMO_MODEL_NAME, DEMO_PROVIDER } from "../../src/demo/agent-dir.ts";
import { copyDemoProject } from "../../src/demo/demo-project.ts";
import { startModelServer } from "../../src/demo/model-server.ts";
import type { ModelServer } from "../../src/demo/model-server.ts";
import { loadScenario } from "../../src/demo/scenario.ts";
import type { Scenario, Turn } from "../../src/demo/scenario.ts";
import { TOUR_EDIT, tourScenario } from "../../src/demo/tour.ts";
import type { PiChild, RpcRecord } from "./pi-rpc-child.ts";
import { spawnPi } from "./pi-rpc-child.ts";
import { piUnderTest } from "../support/pi-under-test.ts";

const RETRY_SCENARIO = fileURLToPath(new URL("../../scenarios/retry-529.json", import.meta.url));

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  // Reverse order: pi first, then the server it talks to, then the dirs.
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startDemo(scenario: Scenario, settings?: Record<string, unknown>) {
  const server = await startModelServer({ scenario });
  cleanups.push(() => server.close());
  const agent = await createDemoAgentDir({ modelServerUrl: server.url, settings });
  cleanups.push(() => agent.cleanup());
  const project = await copyDemoProject();
  cleanups.push(() => project.cleanup());
  const pi = spawnPi({ cwd: project.dir, agentDir: agent.dir });
  cleanups.push(() => pi.close());
  return { server, project, pi };
}

/** Sends a prompt and resolves with the records of that run, up to agent_settled. */
async function promptAndSettle(pi: PiChild, message: string): Promise<RpcRecord[]> {
  const from = pi.records.length;
  const accepted = await pi.request({ type: "prompt", message });
  expect(accepted).toMatchObject({ success: true });
  await pi.waitFor((record) => record.type === "agent_settled", from);
  return pi.records.slice(from);
}

const lastText = (turn: Turn) => turn.steps.filter((step) => step.kind === "text").at(-1)!.text;
const deltaTypes = (records: RpcRecord[]) => records.filter((r) => r.type === "message_update").map((r) => r.assistantMessageEvent?.type);
const labels = (server: ModelServer) => server.requests.map((request) => request.label);

describe("pi with the scripted demo model", () => {
  it("uses the demo model with no flags, and plays the tour", async () => {
    // Same script as `pnpm demo`, streamed faster (the pace is a demo nicety, not a contract).
    const { server, project, pi } = await startDemo({ ...tourScenario, pace: { chunkChars: 40, delayMs: 1 } });

    const state = await pi.request({ type: "get_state" });
    expect(state.data.model).toMatchObject({ provider: DEMO_PROVIDER, id: "pier-demo-model", name: DEMO_MODEL_NAME, reasoning: true });

    const run = await promptAndSettle(pi, "Hi! What is this?");
    expect(deltaTypes(run)).toEqual(expect.arrayContaining(["thinking_delta", "text_delta", "toolcall_start", "toolcall_delta"]));

    const toolEnds = run.filter((record) => record.type === "tool_execution_end");
    expect(toolEnds.map((end) => [end.toolName, end.isError])).toEqual([
      ["read", false],
      ["bash", false],
      ["edit", false],
      ["bash", false],
    ]);
    expect(toolEnds[0]!.result.content[0].text).toContain("GREETINGS");
    expect(toolEnds[1]!.result.content[0].text).toContain("5 passed, 0 failed (3 languages)");
    expect(toolEnds[3]!.result.content[0].text).toContain("¡Hola, Ada!");
    const toolResults = run.filter((record) => record.type === "message_end" && record.message.role === "toolResult");
    expect(toolResults).toHaveLength(4);

    const edited = await readFile(join(project.dir, TOUR_EDIT.path), "utf8");
    expect(edited).toContain(TOUR_EDIT.newText);

    const finalText = lastText(tourScenario.rules[0]!.turns[4]!);
    const lastAssistantEnd = run.filter((record) => record.type === "message_end" && record.message.role === "assistant").at(-1)!;
    expect(lastAssistantEnd.message.content).toEqual([{ type: "text", text: finalText }]);
    expect(await pi.request({ type: "get_last_assistant_text" })).toMatchObject({ success: true, data: { text: finalText } });
    expect(labels(server)).toEqual(["rule 0 turn 0", "rule 0 turn 1", "rule 0 turn 2", "rule 0 turn 3", "rule 0 turn 4"]);

    // Any later prompt gets the short "this is a scripted demo" answer.
    await promptAndSettle(pi, "Can you refactor everything?");
    const laterText = lastText(tourScenario.fallback!);
    expect(await pi.request({ type: "get_last_assistant_text" })).toMatchObject({ data: { text: laterText } });
    expect(laterText).toContain("pnpm start");
    expect(labels(server).at(-1)).toBe("fallback");

    expect(await pi.close()).toBe(0);
  });

  it("auto-retries after an injected 529 and then succeeds", async () => {
    const scenario = await loadScenario(RETRY_SCENARIO);
    const { server, pi } = await startDemo(scenario, { retry: { baseDelayMs: 50 } });

    const run = await promptAndSettle(pi, "Please retry this");
    const retryStart = run.find((record) => record.type === "auto_retry_start");
    expect(retryStart).toMatchObject({ attempt: 1, maxAttempts: 3, delayMs: 50 });
    expect(retryStart!.errorMessage).toMatch(/529/);
    expect(retryStart!.errorMessage).toMatch(/overloaded/i);
    const failedEnd = run.find((record) => record.type === "message_end" && record.message.role === "assistant");
    expect(failedEnd!.message.stopReason).toBe("error");
    expect(run.findIndex((record) => record.type === "auto_retry_end")).toBeGreaterThan(run.indexOf(retryStart!));
    expect(run.find((record) => record.type === "auto_retry_end")).toMatchObject({ success: true, attempt: 1 });

    expect(await pi.request({ type: "get_last_assistant_text" })).toMatchObject({ data: { text: "Recovered after one retry." } });
    const lastAssistantEnd = run.filter((record) => record.type === "message_end" && record.message.role === "assistant").at(-1)!;
    expect(lastAssistantEnd.message.usage).toMatchObject({ input: 120, output: 12 });
    expect(labels(server)).toEqual(["rule 0 turn 0 (failFirst 0)", "rule 0 turn 0"]);
  });

  it("retries a stream cut mid-way, and aborts a hanging one", async () => {
    const scenario: Scenario = {
      name: "cut-and-hang",
      rules: [
        { when: { text: "cut" }, turns: [{ failFirst: [[{ kind: "text", text: "partial answer" }, { kind: "cut" }]], steps: [{ kind: "text", text: "whole answer" }] }] },
        { when: { text: "hang" }, turns: [{ steps: [{ kind: "text", text: "waiting" }, { kind: "hang" }] }] },
      ],
    };
    const { server, pi } = await startDemo(scenario, { retry: { baseDelayMs: 50 } });

    const cutRun = await promptAndSettle(pi, "cut");
    // pi ≥ 1.5 names the connection error's cause.
    const cutError = piUnderTest.has.connectionErrorCause ? "terminated: other side closed (UND_ERR_SOCKET)" : "terminated";
    expect(cutRun.find((record) => record.type === "auto_retry_start")).toMatchObject({ errorMessage: cutError });
    expect(await pi.request({ type: "get_last_assistant_text" })).toMatchObject({ data: { text: "whole answer" } });

    const from = pi.records.length;
    await pi.request({ type: "prompt", message: "hang" });
    await pi.waitFor((record) => record.assistantMessageEvent?.type === "text_delta", from);
    expect(await pi.request({ type: "abort" })).toMatchObject({ success: true });
    await pi.waitFor((record) => record.type === "agent_settled", from);
    const aborted = pi.records.slice(from).find((record) => record.type === "message_end" && record.message.role === "assistant");
    expect(aborted!.message).toMatchObject({ stopReason: "aborted", content: [{ type: "text", text: "waiting" }] });
    await expect.poll(() => server.requests.map((request) => request.outcome)).toEqual(["cut", "finished", "aborted"]);
  });
});
