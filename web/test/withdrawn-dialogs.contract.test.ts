// How pi tells a client that an extension stopped waiting for a dialog (its
// AbortSignal, or the run's signal on abort), on the pinned pi and 1.6.0: it
// does not. No record says so; the answer sent afterwards gets no reply and
// changes nothing. What a client can see is what follows: the prompt that
// ran the /command is answered only once its handler returned, and a run
// held by a tool_call hook settles only once the hook returned. The page
// marks a dialog withdrawn on that evidence
// (web/src/lib/extension-ui/dialog-evidence.ts), fed the same records here.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createDemoAgentDir } from "../../relay/src/demo/agent-dir.ts";
import { copyDemoProject } from "../../relay/src/demo/demo-project.ts";
import { startModelServer } from "../../relay/src/demo/model-server.ts";
import type { Scenario } from "../../relay/src/demo/scenario.ts";
import { spawnPi, type PiChild, type RpcRecord } from "../../relay/test/demo/pi-rpc-child.ts";
import { applyExtensionUiRequest, createExtensionUiState, noteDialogEvidence } from "../src/lib/extension-ui/extension-ui-state.ts";
import { FAST } from "./contract/pi-session.ts";

const EXTENSION = fileURLToPath(new URL("../../e2e/extensions/withdraws-dialogs.ts", import.meta.url));

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const scenario: Scenario = {
  name: "withdrawn-dialogs",
  pace: FAST,
  rules: [
    {
      when: { text: "run the guarded command" },
      turns: [{ steps: [{ kind: "toolCall", name: "bash", arguments: { command: "echo needs-approval" } }] }, { steps: [{ kind: "text", text: "never" }] }],
    },
  ],
  fallback: { steps: [{ kind: "text", text: "Answered." }] },
};

async function start(): Promise<PiChild> {
  const server = await startModelServer({ scenario });
  cleanups.push(() => server.close());
  const agent = await createDemoAgentDir({ modelServerUrl: server.url });
  cleanups.push(() => agent.cleanup());
  const project = await copyDemoProject();
  cleanups.push(() => project.cleanup());
  const pi = spawnPi({ cwd: project.dir, agentDir: agent.dir, args: ["-e", EXTENSION] });
  cleanups.push(() => pi.close());
  return pi;
}

/**
 * The page's extension UI state fed pi's records from `from` on, as the
 * reducer feeds it; `ownPrompt`: the id of the page's prompt in flight when
 * the dialog came (pi-rpc-child numbers its requests test-1, test-2, …).
 */
function pageState(pi: PiChild, from = 0, ownPrompt?: string) {
  const ui = createExtensionUiState();
  for (const record of pi.records.slice(from)) {
    if (record.type === "extension_ui_request") applyExtensionUiRequest(ui, record, Date.now(), ownPrompt === undefined ? [] : [ownPrompt]);
    else noteDialogEvidence(ui, record);
  }
  return ui;
}

const isDialog = (r: RpcRecord) => r.type === "extension_ui_request" && r.method === "confirm";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a dialog the extension withdraws (real pi)", () => {
  it("its own AbortSignal: pi says nothing, the /command's prompt is answered after, and a late answer is dropped", async () => {
    const pi = await start();
    const from = pi.records.length;
    const prompt = pi.request({ type: "prompt", message: "/ask-briefly 600" });
    const dialog = await pi.waitFor(isDialog, from);
    expect(pageState(pi, from).dialogs.map((d) => [d.id, d.withdrawn])).toEqual([[dialog.id, null]]);

    const answered = await prompt;
    expect(answered).toMatchObject({ command: "prompt", success: true });
    const afterDialog = pi.records.slice(pi.records.indexOf(dialog) + 1);
    // Nothing names the dialog again: no cancel record, only the extension's own notify and the prompt's answer.
    expect(afterDialog.filter((r) => JSON.stringify(r).includes(dialog.id))).toEqual([]);
    expect(afterDialog.map((r) => r.type)).toEqual(["extension_ui_request", "response"]);
    expect(afterDialog[0]).toMatchObject({ method: "notify", message: "briefly → withdrawn by the extension" });
    // The page's reading of the same records: withdrawn, whether the /command was its own or another browser's.
    expect(pageState(pi, from, answered.id).dialogs.map((d) => [d.id, d.withdrawn])).toEqual([[dialog.id, "command-finished"]]);
    expect(pageState(pi, from).dialogs.map((d) => [d.id, d.withdrawn])).toEqual([[dialog.id, "command-finished"]]);

    // An answer now goes nowhere: no reply, no effect.
    const before = pi.records.length;
    pi.write({ type: "extension_ui_response", id: dialog.id, confirmed: true });
    await sleep(500);
    expect(pi.records.slice(before)).toEqual([]);
  });

  it("answered in time, the same /command is not withdrawn: the answer is what the prompt waited for", async () => {
    const pi = await start();
    const from = pi.records.length;
    const prompt = pi.request({ type: "prompt", message: "/ask-briefly 20000" });
    const dialog = await pi.waitFor(isDialog, from);
    pi.write({ type: "extension_ui_response", id: dialog.id, confirmed: true });
    expect(await prompt).toMatchObject({ success: true });
    expect(pi.records.find((r) => r.method === "notify")).toMatchObject({ message: "briefly → true" });
  });

  it("the run's signal: aborting the run withdraws a tool_call hook's dialog, and the run settles after it", async () => {
    const pi = await start();
    const from = pi.records.length;
    await pi.request({ type: "prompt", message: "run the guarded command" });
    const dialog = await pi.waitFor(isDialog, from);
    // The run waits for the answer: a prompt answered meanwhile (a steer sent as a prompt) changes nothing.
    await pi.request({ type: "prompt", message: "a steer meanwhile", streamingBehavior: "steer" });
    expect(pageState(pi, from).dialogs.map((d) => d.withdrawn)).toEqual([null]);

    expect(await pi.request({ type: "abort" })).toMatchObject({ success: true });
    await pi.waitFor((r) => r.type === "agent_settled", from);
    expect(pi.records.slice(pi.records.indexOf(dialog) + 1).filter((r) => JSON.stringify(r).includes(dialog.id))).toEqual([]);
    expect(pi.records.find((r) => r.method === "notify")).toMatchObject({ message: "approval → withdrawn (run aborted)" });
    expect(pageState(pi, from).dialogs.map((d) => [d.id, d.withdrawn])).toEqual([[dialog.id, "run-ended"]]);
  });
});
