// What pi 0.87.1 really does with RPC `bash`, and that BashPanelStore turns
// its stdout into the right panels: real pi child, scripted model.
import { afterEach, expect, test } from "vitest";
import { BashPanelStore, panelStateLabel } from "../src/lib/bash/bash-panel-store.ts";
import { startSession } from "./contract/pi-session.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const scenario = { name: "bash", rules: [], fallback: { steps: [{ kind: "text" as const, text: "ok" }] } };

test("pi runs RPC bash concurrently, abort_bash cancels all, output joins context with the next prompt", async () => {
  const { pi, prompt, settled } = await startSession(scenario, undefined, cleanups);
  const commands = new Map<string, { command: string; excludeFromContext?: boolean }>();
  // The harness gives each command its own id; remember the command under it once answered.
  const send = async (command: string, excludeFromContext?: boolean) => {
    const response = await pi.request({ type: "bash", command, ...(excludeFromContext ? { excludeFromContext } : {}) });
    commands.set(response.id, excludeFromContext ? { command, excludeFromContext } : { command });
    return response;
  };

  // ANSI escapes are stripped by pi before they reach any client.
  const colour = await send("printf '\\033[32mgreen\\033[0m\\n'; exit 3");
  expect(colour.data).toEqual({ output: "green\n", exitCode: 3, cancelled: false, truncated: false });

  // Two at once: the quick one finishes while the slow one still runs.
  const slow = send("sleep 30");
  const quick = await send("sleep 0.2; echo done");
  expect(quick.data).toMatchObject({ output: "done\n", exitCode: 0, cancelled: false });
  const secondSlow = send("sleep 30");
  await new Promise((resolve) => setTimeout(resolve, 200));
  // abort_bash has no target: both running commands are cancelled.
  expect((await pi.request({ type: "abort_bash" })).success).toBe(true);
  for (const response of [await slow, await secondSlow]) {
    expect(response.data).toEqual({ output: "", cancelled: true, truncated: false });
  }

  await send("echo secret", true);
  const big = await send("seq 1 100000");
  expect(big.data).toMatchObject({ exitCode: 0, truncated: true });
  expect(big.data.fullOutputPath).toMatch(/pi-bash-.*\.log$/);

  // No message_* or entry_appended event announces the recorded bashExecution messages.
  const bashEvents = pi.records.filter((r) => r.type === "message_start" || r.type === "entry_appended");
  expect(bashEvents).toEqual([]);

  const from = pi.records.length;
  await prompt("hello");
  await settled(from);
  const messages = (await pi.request({ type: "get_messages" })).data.messages as { role: string; command?: string; excludeFromContext?: boolean }[];
  expect(messages.filter((m) => m.role === "bashExecution").map((m) => [m.command, m.excludeFromContext === true])).toEqual([
    ["printf '\\033[32mgreen\\033[0m\\n'; exit 3", false],
    ["sleep 0.2; echo done", false],
    ["sleep 30", false],
    ["sleep 30", false],
    ["echo secret", true],
    ["seq 1 100000", false],
  ]);

  // The store, fed pi's stdout (as the relay replays it after a reload).
  const store = new BashPanelStore({ lookup: (id) => commands.get(id) });
  for (const record of pi.records) store.apply(record, false);
  expect(store.panels.map((p) => [p.command, panelStateLabel(p), p.context])).toEqual([
    ["printf '\\033[32mgreen\\033[0m\\n'; exit 3", "exit 3", "sent"],
    ["sleep 0.2; echo done", "exit 0", "sent"],
    ["sleep 30", "cancelled", "sent"],
    ["sleep 30", "cancelled", "sent"],
    ["echo secret", "exit 0", "excluded"],
    ["seq 1 100000", "exit 0", "sent"],
  ]);
  // The panel keeps every streamed line although pi's result kept only the tail.
  const seq = store.panels.at(-1)!;
  expect(seq.output.startsWith("1\n2\n3\n")).toBe(true);
  expect(seq.output.endsWith("99999\n100000\n")).toBe(true);
  expect(seq.result!.output.length).toBeLessThan(seq.output.length);
});

test("a command that ends while pi is working joins the context only after the run settles", async () => {
  const slowScenario = {
    name: "slow",
    rules: [],
    fallback: {
      steps: [
        { kind: "pause" as const, ms: 1500 },
        { kind: "text" as const, text: "done" },
      ],
    },
  };
  const { pi, prompt, settled } = await startSession(slowScenario, undefined, cleanups);
  const from = pi.records.length;
  await prompt("first");
  await pi.waitFor((r) => r.type === "agent_start", from);
  const { id } = await pi.request({ type: "bash", command: "echo during" });
  await settled(from);
  let messages = (await pi.request({ type: "get_messages" })).data.messages as { role: string }[];
  // pi held the bashExecution message back until the run was over, then appended it.
  expect(messages.map((m) => m.role).filter((r) => r !== "system")).toEqual(["user", "assistant", "bashExecution"]);

  const store = new BashPanelStore({ lookup: () => ({ command: "echo during" }) });
  for (const record of pi.records) store.apply(record, false);
  expect(store.get(id)).toMatchObject({ context: "pending", heldUntilAgentEnd: false });

  const next = pi.records.length;
  await prompt("second");
  await settled(next);
  messages = (await pi.request({ type: "get_messages" })).data.messages as { role: string }[];
  expect(messages.map((m) => m.role).filter((r) => r !== "system")).toEqual(["user", "assistant", "bashExecution", "user", "assistant"]);
  for (const record of pi.records.slice(next)) store.apply(record, false);
  expect(store.get(id)!.context).toBe("sent");
});
