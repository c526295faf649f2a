import { describe, expect, it } from "vitest";
import { applyPairing, createPairing, listPairs, listRuns, pairByKey, pairOf, pendingPairs, runOf, unmatchedResponses, type PairingState } from "../../src/lib/wire-log/pairing.ts";
import type { WireEntry } from "../../src/lib/wire-log/wire-entry.ts";
import { fixtureEntries, fixtureNames, ME, sequence } from "./support.ts";

function feed(entries: readonly WireEntry[], state: PairingState = createPairing()): PairingState {
  for (const e of entries) applyPairing(state, e);
  return state;
}

const OTHER = { clientId: "c2", name: "laptop" };
const settled = (aborted?: boolean) => (aborted === undefined ? { type: "agent_settled" } : { type: "agent_settled", aborted });
const ok = (command: string, id?: string, data?: unknown) => ({ type: "response", command, success: true, ...(id === undefined ? {} : { id }), ...(data === undefined ? {} : { data }) });

describe("pairing commands with responses", () => {
  it.each(fixtureNames())("pairs every command of %s with its response", (name) => {
    const entries = fixtureEntries(name);
    const state = feed(entries);
    const commands = entries.filter((e) => e.direction === "out");
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      const pair = pairOf(state, command.seq)!;
      expect(pair.kind).toBe("command");
      expect(pair.outcome).toBe("ok");
      expect(pair.sender).toEqual(ME);
      expect(pair.commandType).toBe((command.value as { type: string }).type);
      const response = entries.find((e) => e.seq === pair.responseSeq)!;
      expect((response.value as { id: string }).id).toBe(pair.id);
      expect(pair.latencyMs).toBe(response.at - command.at);
      expect(pairOf(state, response.seq)).toBe(pair);
    }
    expect(pendingPairs(state, Date.now())).toEqual([]);
    expect(unmatchedResponses(state)).toEqual([]);
  });

  it("keeps a command pending, with its age, until pi answers", () => {
    const state = createPairing();
    const [command] = sequence([["out", { id: "c1:1", type: "get_state" }, ME]], 1000);
    applyPairing(state, command!);
    expect(pendingPairs(state, 1500)).toEqual([{ pair: expect.objectContaining({ commandType: "get_state", outcome: "pending", ok: null }), ageMs: 500, expired: false }]);
    applyPairing(state, { seq: command!.seq + 1, at: 1700, direction: "in", raw: "", value: ok("get_state", "c1:1", {}) });
    expect(pairOf(state, command!.seq)).toMatchObject({ outcome: "ok", ok: true, latencyMs: 700 });
    expect(pendingPairs(state, 2000)).toEqual([]);
  });

  it("records failures with pi's error", () => {
    const state = feed(
      sequence([
        ["out", { id: "c1:1", type: "set_model", provider: "x", modelId: "y" }, ME],
        ["in", { id: "c1:1", type: "response", command: "set_model", success: false, error: "Model not found: x/y" }],
      ]),
    );
    expect(listPairs(state)[0]).toMatchObject({ outcome: "failed", ok: false, error: "Model not found: x/y" });
  });

  it("keeps a response whose command it never saw, and reads the sender from a Pier id", () => {
    const state = feed(
      sequence([
        ["in", ok("get_state", "c9:4", {})],
        ["in", ok("get_state", "foreign-id", {})],
        ["in", { type: "response", command: "parse", success: false, error: "Failed to parse command" }],
      ]),
    );
    const [pier, foreign, parse] = unmatchedResponses(state);
    expect(pier).toMatchObject({ commandSeq: null, sender: { clientId: "c9" }, senderInferred: true, outcome: "ok" });
    expect(foreign).toMatchObject({ commandSeq: null, sender: null, senderInferred: false });
    expect(parse).toMatchObject({ id: null, commandType: "parse", outcome: "failed" });
  });

  it("matches id-less commands with id-less responses of the same type, in order", () => {
    const entries = sequence([
      ["out", { type: "get_state" }, ME],
      ["out", { type: "abort" }, ME],
      ["out", { type: "get_state" }, OTHER],
      ["in", ok("get_state")],
      ["in", ok("abort")],
      ["in", ok("get_state")],
    ]);
    const state = feed(entries);
    expect(pairOf(state, entries[0]!.seq)!.responseSeq).toBe(entries[3]!.seq);
    expect(pairOf(state, entries[1]!.seq)!.responseSeq).toBe(entries[4]!.seq);
    expect(pairOf(state, entries[2]!.seq)).toMatchObject({ responseSeq: entries[5]!.seq, sender: OTHER });
  });

  it("shows who sent each command, for every browser", () => {
    const entries = sequence([
      ["out", { id: "c1:1", type: "get_state" }, ME],
      ["out", { id: "c2:1", type: "get_state" }, OTHER],
      ["in", ok("get_state", "c2:1", {})],
      ["in", ok("get_state", "c1:1", {})],
    ]);
    const state = feed(entries);
    expect(pairOf(state, entries[2]!.seq)!.sender).toEqual(OTHER);
    expect(pairOf(state, entries[3]!.seq)!.sender).toEqual(ME);
  });

  it("takes the relay's refusal as the command's answer", () => {
    const entries = sequence([
      ["out", { id: "c1:7", type: "switch_session", sessionPath: "/etc/passwd" }, ME],
      ["relay", { type: "error", code: "path_refused", message: "not a session file", command: { type: "switch_session", id: "c1:7" } }],
    ]);
    const state = feed(entries);
    expect(pairOf(state, entries[1]!.seq)).toMatchObject({ outcome: "refused", ok: false, error: "path_refused: not a session file", latencyMs: 10 });
    expect(pendingPairs(state, 0)).toEqual([]);
  });

  it("gives up on what an old pi was asked once a new one starts", () => {
    const entries = sequence([
      ["out", { id: "c1:1", type: "prompt", message: "hi" }, ME],
      ["relay", { type: "child_exited", child: { state: "exited", epoch: 1, code: 1, signal: null, exitedAt: 0 } }],
      ["relay", { type: "child_started", child: { state: "starting", epoch: 2 } }],
      ["in", ok("prompt", "c1:1")],
    ]);
    const state = feed(entries);
    expect(pairOf(state, entries[0]!.seq)).toMatchObject({ outcome: "lost", error: "pi exited before answering" });
    // A late answer with that id (impossible from a new pi, but never trusted) is kept apart.
    expect(pairOf(state, entries[3]!.seq)!.commandSeq).toBeNull();
  });

  it("marks a reused id's first command lost", () => {
    const entries = sequence([
      ["out", { id: "x", type: "get_state" }, ME],
      ["out", { id: "x", type: "get_state" }, ME],
      ["in", ok("get_state", "x", {})],
    ]);
    const state = feed(entries);
    expect(pairOf(state, entries[0]!.seq)!.outcome).toBe("lost");
    expect(pairOf(state, entries[1]!.seq)!.responseSeq).toBe(entries[2]!.seq);
  });

  it("ignores the responses a replay repeats, and flags the new ones as replayed", () => {
    const entries = sequence([
      ["out", { id: "c1:1", type: "get_state" }, ME],
      ["in", ok("get_state", "c1:1", {})],
      ["relay", { type: "hello", clientId: "c1b" }],
      ["in", ok("get_state", "c1:1", {})],
      ["in", ok("get_state", "c0:1", {})],
      ["relay", { type: "replay_end" }],
    ]);
    const state = feed(entries);
    expect(state.duplicateResponses).toBe(1);
    expect(listPairs(state)).toHaveLength(2);
    expect(pairOf(state, entries[4]!.seq)).toMatchObject({ replayed: true, commandSeq: null });
    expect(state.inReplay).toBe(false);
  });
});

describe("extension dialogs", () => {
  it("pairs a dialog with the answer, and notes an answer after the timeout", () => {
    const entries = sequence(
      [
        ["in", { type: "extension_ui_request", id: "d1", method: "select", title: "Allow?", options: ["Yes", "No"], timeout: 15 }],
        ["in", { type: "extension_ui_request", id: "d2", method: "confirm", title: "Sure?", message: "" }],
        ["in", { type: "extension_ui_request", id: "n1", method: "notify", message: "hi" }],
        ["out", { type: "extension_ui_response", id: "d2", confirmed: true }, OTHER],
        ["out", { type: "extension_ui_response", id: "d1", value: "Yes" }, ME],
      ],
      0,
      10,
    );
    const state = feed(entries);
    expect(pairOf(state, entries[2]!.seq)).toBeUndefined(); // notify waits for nothing
    expect(pairOf(state, entries[0]!.seq)).toMatchObject({ kind: "dialog", commandType: "select", sender: ME, latencyMs: 40, late: true });
    expect(pairOf(state, entries[1]!.seq)).toMatchObject({ kind: "dialog", sender: OTHER, latencyMs: 20 });
    expect(pairOf(state, entries[1]!.seq)!.late).toBeUndefined();
  });

  it("reports a dialog past its timeout as expired while it waits", () => {
    const state = feed(sequence([["in", { type: "extension_ui_request", id: "d1", method: "input", title: "Name?", timeout: 100 }]], 0));
    expect(pendingPairs(state, 50)[0]).toMatchObject({ ageMs: 50, expired: false });
    expect(pendingPairs(state, 150)[0]).toMatchObject({ ageMs: 150, expired: true });
  });
});

describe("run spans", () => {
  it("opens a run at the prompt's acknowledgement and ends it at agent_settled (0.87.1)", () => {
    const entries = fixtureEntries("steer-follow-up-clear-queue");
    const state = feed(entries);
    const runs = listRuns(state);
    expect(runs).toHaveLength(2);
    const seqOf = (id: string) => entries.find((e) => e.direction === "in" && (e.value as { id?: string }).id === id)!.seq;
    const [first, second] = runs as [(typeof runs)[0], (typeof runs)[0]];
    expect(first.startSeq).toBe(seqOf("test-1"));
    expect(pairByKey(state, first.startedBy!)!.id).toBe("test-1");
    expect(first.confirmed).toBe(true);
    expect(first.endedBy).toBe("settled");
    expect(first.aborted).toBeNull(); // 0.87.1 does not say
    // The steer and the follow-up sent during the first run joined it.
    expect(first.joined.map((k) => pairByKey(state, k)!.id)).toEqual(["test-2", "test-3"]);
    expect(second.joined.map((k) => pairByKey(state, k)!.id)).toEqual(["test-5", "test-6"]);
    expect(pairOf(state, seqOf("test-1"))).toMatchObject({ runRole: "started", runId: first.runId });
    expect(pairOf(state, seqOf("test-2"))).toMatchObject({ runRole: "joined", runId: first.runId });
    // clear_queue is no part of any run's work.
    expect(pairOf(state, seqOf("test-7"))!.runId).toBeNull();
    // Every record between acknowledgement and settle belongs to the run.
    const settle = entries.find((e) => e.seq > first.startSeq && (e.value as { type: string }).type === "agent_settled")!;
    expect(first.endSeq).toBe(settle.seq);
    for (const e of entries.filter((x) => x.seq >= first.startSeq && x.seq <= settle.seq && x.direction === "in")) {
      if (pairOf(state, e.seq) === undefined) expect(runOf(state, e.seq)).toBe(first);
    }
    expect(runOf(state, seqOf("test-8"))).toBeUndefined();
  });

  it("keeps retries inside one run", () => {
    const state = feed(fixtureEntries("auto-retry"));
    const [run] = listRuns(state);
    expect(listRuns(state)).toHaveLength(1);
    expect(run).toMatchObject({ agentStarts: 4, retries: 3, endedBy: "settled" });
  });

  it("keeps an overflow compaction inside the run, and a manual one outside", () => {
    const state = feed(fixtureEntries("manual-compaction"));
    const runs = listRuns(state);
    expect(runs).toHaveLength(2);
    expect(runs.every((r) => r.compactions === 0)).toBe(true);
    const withRetry = feed(
      sequence([
        ["in", ok("prompt", "p")],
        ["in", { type: "agent_start" }],
        ["in", { type: "agent_end", messages: [], willRetry: false }],
        ["in", { type: "compaction_start", reason: "overflow" }],
        ["in", { type: "compaction_end", reason: "overflow", result: {}, aborted: false, willRetry: true }],
        ["in", { type: "agent_start" }],
        ["in", { type: "agent_end", messages: [], willRetry: false }],
        ["in", settled()],
      ]),
    );
    expect(listRuns(withRetry)).toEqual([expect.objectContaining({ compactions: 1, agentStarts: 2, endedBy: "settled" })]);
  });

  it("follows pi 1.6's dispositions: handled starts nothing, started opens, queued joins", () => {
    const entries = fixtureEntries("pi-1.6.0/handled-and-aborted");
    const state = feed(entries);
    const pair = (id: string) => listPairs(state).find((p) => p.id === id)!;
    expect(pair("test-1")).toMatchObject({ disposition: "handled", runId: null });
    expect(pair("test-2")).toMatchObject({ disposition: "handled", runId: null });
    const runs = listRuns(state);
    expect(runs).toHaveLength(2);
    expect(runs.map((r) => r.aborted)).toEqual([true, true]);
    expect(pair("test-3")).toMatchObject({ disposition: "started", runRole: "started", runId: runs[0]!.runId });
    expect(pair("test-4")).toMatchObject({ disposition: "handled", runId: null });
    expect(pair("test-5")).toMatchObject({ disposition: "queued", runRole: "joined", runId: runs[0]!.runId });
    expect(pair("test-8")).toMatchObject({ disposition: "started", runId: runs[1]!.runId });
  });

  it("opens a run with no command at an agent_start nobody asked for", () => {
    const state = feed(
      sequence([
        ["in", { type: "agent_start" }],
        ["in", settled(false)],
      ]),
    );
    expect(listRuns(state)).toEqual([expect.objectContaining({ startedBy: null, confirmed: true, aborted: false })]);
  });

  it("gives up a 0.87.1 run that never started (an extension command) when another prompt is answered", () => {
    const entries = sequence([
      ["out", { id: "a", type: "prompt", message: "/ext" }, ME],
      ["in", ok("prompt", "a")],
      ["out", { id: "b", type: "prompt", message: "hello" }, ME],
      ["in", ok("prompt", "b")],
      ["in", { type: "agent_start" }],
      ["in", settled()],
    ]);
    const state = feed(entries);
    expect(pairOf(state, entries[0]!.seq)).toMatchObject({ runId: null, runRole: null });
    const [run] = listRuns(state);
    expect(listRuns(state)).toHaveLength(1);
    expect(pairByKey(state, run!.startedBy!)!.id).toBe("b");
    expect(run!.startSeq).toBe(entries[3]!.seq);
  });

  it("a prompt answered during a 0.87.1 run joins it", () => {
    const entries = sequence([
      ["in", ok("prompt", "a")],
      ["in", { type: "agent_start" }],
      ["in", ok("prompt", "b")],
      ["in", settled()],
    ]);
    const state = feed(entries);
    expect(listRuns(state)).toHaveLength(1);
    expect(pairOf(state, entries[2]!.seq)).toMatchObject({ runRole: "joined" });
  });

  it("a steer queued while idle joins the next run", () => {
    const entries = sequence([
      ["in", ok("steer", "s")],
      ["in", ok("follow_up", "f", { disposition: "queued" })],
      ["in", ok("prompt", "p")],
      ["in", { type: "agent_start" }],
      ["in", settled()],
    ]);
    const state = feed(entries);
    const [run] = listRuns(state);
    expect(run!.joined.map((k) => pairByKey(state, k)!.id)).toEqual(["s", "f"]);
  });

  it("ends the run when pi exits, and drops a run that never started", () => {
    const state = feed(
      sequence([
        ["in", ok("prompt", "a")],
        ["in", { type: "agent_start" }],
        ["relay", { type: "child_exited", child: {} }],
        ["in", ok("prompt", "b")],
        ["relay", { type: "child_exited", child: {} }],
      ]),
    );
    expect(listRuns(state)).toEqual([expect.objectContaining({ endedBy: "pi-exited" })]);
    expect(state.current).toBeNull();
  });

  it("ignores an agent_settled with no run", () => {
    const state = feed(sequence([["in", settled()]]));
    expect(state.straySettles).toBe(1);
    expect(listRuns(state)).toEqual([]);
  });
});

describe("bounds", () => {
  it("forgets the oldest pairs beyond maxPairs, and the oldest runs beyond maxRuns", () => {
    const state = createPairing({ maxPairs: 10, maxRuns: 3 });
    const entries: [WireEntry["direction"], unknown, typeof ME?][] = [];
    for (let i = 0; i < 50; i++) {
      entries.push(["out", { id: `c1:${i}`, type: "prompt", message: "x" }, ME]);
      entries.push(["in", ok("prompt", `c1:${i}`)]);
      entries.push(["in", { type: "agent_start" }]);
      entries.push(["in", settled()]);
    }
    const fed = sequence(entries);
    feed(fed, state);
    expect(state.pairs.size).toBe(10);
    expect(state.bySeq.size).toBeLessThanOrEqual(20);
    expect(listRuns(state)).toHaveLength(3);
    expect(pairOf(state, fed[0]!.seq)).toBeUndefined();
    expect(runOf(state, fed[fed.length - 2]!.seq)).toBe(listRuns(state)[2]);
    expect(state.answeredIds.size).toBeLessThanOrEqual(10);
  });

  it("survives junk", () => {
    const state = createPairing();
    for (const value of [undefined, null, 5, "x", [], {}, { type: 3 }, { type: "response" }, { type: "response", id: 5 }, { type: "extension_ui_request" }])
      for (const direction of ["in", "out", "relay"] as const) applyPairing(state, { seq: 1, at: 0, direction, raw: "", value });
    expect(state.pairs.size).toBeGreaterThanOrEqual(0);
  });
});
