// BashPanelStore: pi records in, terminal panels out. The record shapes are
// the ones pi 0.87.1 writes (bash-panels.contract.test.ts checks them against
// a real child).
import { describe, expect, test } from "vitest";
import { BashPanelStore, panelStateLabel, panelTone, type KnownCommand } from "../src/lib/bash/bash-panel-store.ts";
import { CommandMemory, type StorageLike } from "../src/lib/bash/command-memory.ts";

const update = (id: string, delta: string) => ({ type: "bash_execution_update", id, delta });
const result = (id: string, data: Record<string, unknown>) => ({ id, type: "response", command: "bash", success: true, data });
const done = (id: string, output: string, exitCode = 0) => result(id, { output, exitCode, cancelled: false, truncated: false });
const cancelled = (id: string, output = "") => result(id, { output, cancelled: true, truncated: false });
const userMessage = { type: "message_start", message: { role: "user", content: [{ type: "text", text: "hi" }], timestamp: 1 } };

function feed(store: BashPanelStore, records: unknown[], live = true): void {
  for (const record of records) store.apply(record, live);
}

/** A store wired to a CommandMemory the way terminal-panels.svelte.ts wires it. */
function wired(memory: CommandMemory, now: () => number): BashPanelStore {
  return new BashPanelStore({
    lookup: (id) => memory.lookup(id),
    isClosed: (id) => memory.isClosed(id),
    onFinished: (panel) => panel.endedAt !== null && memory.finished(panel.id, panel.endedAt),
    now,
  });
}

function memoryStorage(): StorageLike & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe("one command", () => {
  test("streams deltas in order, then the response settles it", () => {
    const store = new BashPanelStore();
    store.started("c:1", "ls");
    expect(store.get("c:1")).toMatchObject({ command: "ls", status: "running", output: "", context: "pending" });
    expect(panelStateLabel(store.get("c:1")!)).toBe("running");

    expect(store.apply(update("c:1", "a.txt\n"))).toBe(true);
    store.apply(update("c:1", "b.txt\n"));
    expect(store.get("c:1")!.output).toBe("a.txt\nb.txt\n");

    store.apply(done("c:1", "a.txt\nb.txt\n"));
    const panel = store.get("c:1")!;
    expect(panel.status).toBe("done");
    expect(panel.result).toEqual({ output: "a.txt\nb.txt\n", exitCode: 0, cancelled: false, truncated: false });
    expect(panelStateLabel(panel)).toBe("exit 0");
    expect(panelTone(panel)).toBe("ok");
  });

  test("keeps ANSI escapes as they arrive (the terminal renders them)", () => {
    const store = new BashPanelStore();
    store.apply(update("c:1", "\x1b[32mgreen\x1b[0m\n"));
    expect(store.get("c:1")!.output).toBe("\x1b[32mgreen\x1b[0m\n");
  });

  test("a failing command shows its exit code", () => {
    const store = new BashPanelStore();
    store.started("c:1", "exit 3");
    store.apply(done("c:1", "", 3));
    expect(panelStateLabel(store.get("c:1")!)).toBe("exit 3");
    expect(panelTone(store.get("c:1")!)).toBe("error");
  });

  test("truncation and fullOutputPath come from the result; streamed output is not replaced by its tail", () => {
    const store = new BashPanelStore();
    store.apply(update("c:1", "1\n2\n3\n"));
    store.apply(result("c:1", { output: "3\n", exitCode: 0, cancelled: false, truncated: true, fullOutputPath: "/tmp/pi-bash-x.log" }));
    const panel = store.get("c:1")!;
    expect(panel.output).toBe("1\n2\n3\n");
    expect(panel.result).toMatchObject({ truncated: true, fullOutputPath: "/tmp/pi-bash-x.log" });
  });

  test("with nothing streamed, the result's output is shown", () => {
    const store = new BashPanelStore();
    store.apply(done("c:1", "from the result\n"));
    expect(store.get("c:1")!.output).toBe("from the result\n");
  });

  test("success:false ends the panel as failed, out of context", () => {
    const store = new BashPanelStore();
    store.started("c:1", "ls");
    store.apply({ id: "c:1", type: "response", command: "bash", success: false, error: "boom" });
    expect(store.get("c:1")).toMatchObject({ status: "failed", error: "boom", context: "none" });
    expect(panelStateLabel(store.get("c:1")!)).toBe("failed");
  });

  test("a command the relay refused fails without any record", () => {
    const store = new BashPanelStore();
    store.started("c:1", "ls");
    store.failed("c:1", "refused");
    expect(store.get("c:1")).toMatchObject({ status: "failed", error: "refused" });
  });

  test("ignores id-less updates, other responses and other records", () => {
    const store = new BashPanelStore();
    expect(store.apply({ type: "bash_execution_update", delta: "x" })).toBe(false);
    expect(store.apply({ id: "c:1", type: "response", command: "get_state", success: true, data: {} })).toBe(false);
    expect(store.apply({ type: "message_update" })).toBe(false);
    expect(store.apply(null)).toBe(false);
    expect(store.apply("text")).toBe(false);
    expect(store.panels).toEqual([]);
  });

  test("a panel opened by a record without a known command has command null", () => {
    const store = new BashPanelStore();
    store.apply(update("other:4", "hi\n"));
    expect(store.get("other:4")!.command).toBeNull();
  });
});

describe("two commands at once (pi runs RPC bash concurrently)", () => {
  test("interleaved deltas go to their own panel; abort_bash cancels the one still running", () => {
    const store = new BashPanelStore();
    store.started("c:1", "sleep 30");
    store.started("c:2", "sleep 1; echo done");
    feed(store, [update("c:2", "done\n"), update("c:1", "ignored?\n"), done("c:2", "done\n"), { id: "c:3", type: "response", command: "abort_bash", success: true }, cancelled("c:1", "ignored?\n")]);
    expect(store.panels.map((p) => [p.command, p.output, panelStateLabel(p)])).toEqual([
      ["sleep 30", "ignored?\n", "cancelled"],
      ["sleep 1; echo done", "done\n", "exit 0"],
    ]);
    expect(panelTone(store.get("c:1")!)).toBe("warn");
    expect(store.running).toEqual([]);
  });

  test("panels are listed in the order they were sent; unknown ones where they appeared", () => {
    let clock = 0;
    const store = new BashPanelStore({ now: () => clock, lookup: (id) => (id === "c:1" ? { command: "a", sentAt: 10 } : undefined) });
    clock = 50;
    feed(store, [update("c:2", "b"), update("other:1", "x")], false);
    store.started("c:3", "c", false, 40);
    feed(store, [update("c:1", "a")], false);
    expect(store.panels.map((p) => p.id)).toEqual(["c:2", "other:1", "c:1", "c:3"]);
    expect(store.get("c:2")!.startedAt).toBeNull(); // first seen in a replay: its time is unknown
  });
});

describe("context (what the model sees)", () => {
  test("a finished command is sent with the next user prompt", () => {
    const store = new BashPanelStore();
    store.started("c:1", "ls");
    store.apply(userMessage); // still running: not part of this prompt
    expect(store.get("c:1")!.context).toBe("pending");
    store.apply(done("c:1", "x\n"));
    expect(store.get("c:1")!.context).toBe("pending");
    expect(store.apply(userMessage)).toBe(true);
    expect(store.get("c:1")!.context).toBe("sent");
  });

  test("excluded commands are never sent", () => {
    const store = new BashPanelStore();
    store.started("c:1", "cat .env", true);
    feed(store, [done("c:1", "SECRET=1\n"), userMessage]);
    expect(store.get("c:1")!.context).toBe("excluded");
  });

  test("a command that finished mid-run waits for agent_settled, not the run's own follow-ups", () => {
    const store = new BashPanelStore();
    store.started("c:1", "ls");
    feed(store, [{ type: "agent_start" }, done("c:1", "x\n")]);
    expect(store.get("c:1")!.heldUntilAgentEnd).toBe(true);
    feed(store, [userMessage, { type: "agent_end", messages: [] }, userMessage]); // a queued follow-up in the same run
    expect(store.get("c:1")!.context).toBe("pending");
    store.apply({ type: "agent_settled" });
    expect(store.get("c:1")!.heldUntilAgentEnd).toBe(false);
    store.apply(userMessage);
    expect(store.get("c:1")!.context).toBe("sent");
  });

  test("a session switch leaves unsent output behind; a cancelled switch does not", () => {
    const store = new BashPanelStore();
    feed(store, [done("c:1", "x"), { id: "c:2", type: "response", command: "new_session", success: true, data: { cancelled: true } }]);
    expect(store.get("c:1")!.context).toBe("pending");
    store.apply({ id: "c:3", type: "response", command: "new_session", success: true, data: { cancelled: false } });
    expect(store.get("c:1")!.context).toBe("none");
    store.apply(userMessage);
    expect(store.get("c:1")!.context).toBe("none");
  });
});

describe("reload: the relay replays pi's stdout into a fresh store", () => {
  test("rebuilds the same panels, commands from sessionStorage, closed ones stay closed", () => {
    const storage = memoryStorage();
    let clock = 1_000;
    const now = () => clock++;
    const before = new CommandMemory(storage);
    const live = wired(before, now);
    const sent: [string, KnownCommand][] = [
      ["a:1", { command: "printf 'green\\n'; ls" }],
      ["a:2", { command: "sleep 30" }],
      ["a:3", { command: "exit 3", excludeFromContext: true }],
      ["a:4", { command: "echo closed" }],
    ];
    for (const [id, known] of sent) {
      const sentAt = now();
      before.remember(id, { ...known, sentAt });
      live.started(id, known.command, known.excludeFromContext, sentAt);
    }
    const stdout = [
      update("a:1", "green\n"),
      update("a:1", "README.md\n"),
      done("a:1", "green\nREADME.md\n"),
      done("a:3", "", 3),
      update("a:4", "closed\n"),
      done("a:4", "closed\n"),
      { id: "a:5", type: "response", command: "abort_bash", success: true },
      cancelled("a:2"),
      userMessage,
    ];
    feed(live, stdout);
    before.markClosed("a:4");
    live.close("a:4");

    // The page reloads: new memory from the same sessionStorage, new store, same records.
    clock += 60_000;
    const after = new CommandMemory(storage);
    const replayed = wired(after, now);
    feed(replayed, stdout, false);

    const view = (store: BashPanelStore) =>
      store.panels.map((p) => ({
        id: p.id,
        command: p.command,
        output: p.output,
        state: panelStateLabel(p),
        context: p.context,
        result: p.result,
        startedAt: p.startedAt,
        endedAt: p.endedAt,
      }));
    expect(view(replayed)).toEqual(view(live));
    expect(view(replayed).map((p) => [p.command, p.state, p.context])).toEqual([
      ["printf 'green\\n'; ls", "exit 0", "sent"],
      ["sleep 30", "cancelled", "sent"],
      ["exit 3", "exit 3", "excluded"],
    ]);
  });

  test("reset forgets every panel (a new replay or a pi restart follows)", () => {
    const store = new BashPanelStore();
    feed(store, [{ type: "agent_start" }, update("c:1", "x")]);
    store.reset();
    expect(store.panels).toEqual([]);
    expect(store.agentRunning).toBe(false);
  });
});

describe("bounds", () => {
  test("output beyond the limit drops its head and counts what was dropped", () => {
    const store = new BashPanelStore({ maxOutputChars: 100 });
    for (let i = 0; i < 30; i++) store.apply(update("c:1", "0123456789"));
    const panel = store.get("c:1")!;
    expect(panel.output.length).toBeLessThanOrEqual(100);
    expect(panel.droppedChars + panel.output.length).toBe(300);
    expect(panel.output.endsWith("0123456789")).toBe(true);
  });

  test("beyond maxPanels the oldest finished panels go; running ones stay", () => {
    const store = new BashPanelStore({ maxPanels: 2 });
    store.started("c:1", "sleep 30");
    feed(store, [done("c:2", "")]);
    store.started("c:3", "ls");
    expect(store.panels.map((p) => p.id)).toEqual(["c:1", "c:3"]);
  });
});

describe("CommandMemory", () => {
  test("survives a reload and tolerates garbage or missing storage", () => {
    const storage = memoryStorage();
    new CommandMemory(storage).remember("a:1", { command: "ls" });
    expect(new CommandMemory(storage).lookup("a:1")).toEqual({ command: "ls" });
    storage.data.set("pier.bashPanels.v1", "{not json");
    expect(new CommandMemory(storage).lookup("a:1")).toBeUndefined();
    const none = new CommandMemory(null);
    none.remember("a:1", { command: "ls" });
    expect(none.lookup("a:1")).toEqual({ command: "ls" });
  });

  test("is bounded", () => {
    const storage = memoryStorage();
    const memory = new CommandMemory(storage);
    for (let i = 0; i < 250; i++) memory.remember(`a:${i}`, { command: `echo ${i}` });
    const reloaded = new CommandMemory(storage);
    expect(reloaded.lookup("a:0")).toBeUndefined();
    expect(reloaded.lookup("a:249")).toEqual({ command: "echo 249" });
  });
});
