// The board's state of one session, from pi's records as they pass.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { RunTracker } from "../../src/live/run-tracker.ts";

const line = (record: unknown) => Buffer.from(`${JSON.stringify(record)}\n`);

/** An assistant's message_end with its fields in pi's order (api, provider, model, usage, stopReason, timestamp, then any others). */
const piMessageEnd = (fields: { model: string; usage: object; stopReason: string; errorMessage?: string }) =>
  JSON.stringify({
    type: "message_end",
    message: {
      role: "assistant",
      content: [{ type: "text", text: "hi" }],
      api: "openai-completions",
      provider: "p",
      model: fields.model,
      usage: fields.usage,
      stopReason: fields.stopReason,
      timestamp: 1,
      ...(fields.errorMessage ? { errorMessage: fields.errorMessage } : {}),
    },
  });

function tracker() {
  let now = 1_000;
  let changes = 0;
  const run = new RunTracker(() => changes++, { now: () => now });
  run.child({ state: "running", epoch: 1, pid: 42, startedAt: now });
  return { run, tick: (ms: number) => (now += ms), changes: () => changes };
}

describe("RunTracker", () => {
  it("follows a run: working with its tool, then done with the model and cost", () => {
    const { run, tick } = tracker();
    expect(run.summary.state).toBe("idle");
    run.command("prompt", { type: "prompt", message: "  fix the tests\nplease" });
    run.stdout(line({ type: "agent_start" }));
    tick(10);
    run.stdout(line({ type: "tool_execution_start", toolCallId: "t1", toolName: "bash", args: {} }));
    expect(run.summary).toMatchObject({ state: "working", tool: "bash", title: "fix the tests", since: 1_000 });
    run.stdout(line({ type: "tool_execution_end", toolCallId: "t1" }));
    run.stdout(line({ type: "message_end", message: { role: "assistant", model: "m-1", usage: { cost: { total: 0.25 } }, stopReason: "stop" } }));
    run.stdout(line({ type: "message_end", message: { role: "assistant", model: "m-1", usage: { cost: { total: 0.5 } }, stopReason: "stop" } }));
    tick(5);
    run.stdout(line({ type: "agent_settled" }));
    expect(run.summary).toMatchObject({ state: "done", tool: null, model: "m-1", cost: 0.75, since: 1_015, error: null });
  });

  it("parses only the records a card reads: not a system prompt's message_end, a response or an agent_end, in chunks of any size", () => {
    const { run } = tracker();
    const parse = vi.spyOn(JSON, "parse");
    try {
      const big = "x".repeat(50_000);
      const bytes = Buffer.concat([
        line({ type: "message_end", message: { role: "system", content: big } }),
        line({ id: "r1", type: "response", command: "get_messages", success: true, data: { messages: [big] } }),
        line({ type: "agent_end", messages: [big] }),
        line({ type: "message_start", message: { role: "assistant", content: [] } }),
        line({ type: "message_end", message: { role: "assistant", model: "m-2", usage: { cost: { total: 0.5 } }, stopReason: "stop" } }),
      ]);
      for (let i = 0; i < bytes.length; i += 13) run.stdout(bytes.subarray(i, i + 13));
      expect(parse).toHaveBeenCalledTimes(1);
      expect(run.summary).toMatchObject({ model: "m-2", cost: 0.5 });
    } finally {
      parse.mockRestore();
    }
  });

  it("reads an assistant's message_end and a tool's start without parsing the answer's text or the tool's arguments, as a whole parse would", () => {
    const answer = "x".repeat(50_000);
    // pi's order of fields; the content holds an "api" key of its own (a tool call's arguments), the error text a quoted one.
    const end = (extra: object) =>
      line({
        type: "message_end",
        message: {
          role: "assistant",
          content: [
            { type: "text", text: answer },
            { type: "toolCall", id: "c1", name: "bash", arguments: { list: [1], api: "not the message's" } },
          ],
          api: "openai-completions",
          provider: "p",
          model: "m-3",
          usage: { input: 1, cost: { input: 0.1, total: 0.25 } },
          stopReason: "error",
          timestamp: 1,
          ...extra,
        },
      });
    const start = line({ type: "tool_execution_start", toolCallId: 'c"1', toolName: 'my "tool"', args: { content: answer } });
    const whole = tracker();
    const cheap = tracker();
    const parse = vi.spyOn(JSON, "parse");
    try {
      cheap.run.stdout(Buffer.concat([line({ type: "agent_start" }), start, end({ errorMessage: 'bad "api":"x" here' })]));
      expect(Math.max(...parse.mock.calls.map(([text]) => String(text).length))).toBeLessThan(1_000);
    } finally {
      parse.mockRestore();
    }
    expect(cheap.run.summary).toMatchObject({ tool: 'my "tool"', model: "m-3", cost: 0.25, state: "working" });
    cheap.run.stdout(line({ type: "agent_settled" }));
    expect(cheap.run.summary).toMatchObject({ state: "failed", error: 'bad "api":"x" here' });
    // Cut into pieces, the same lines take the whole parse: the same card.
    const bytes = Buffer.concat([line({ type: "agent_start" }), start, end({ errorMessage: 'bad "api":"x" here' }), line({ type: "agent_settled" })]);
    for (let i = 0; i < bytes.length; i += 7) whole.run.stdout(bytes.subarray(i, i + 7));
    expect(whole.run.summary).toEqual(cheap.run.summary);
  });

  it("reads an assistant's message_end in pi's shape with no parse at all, and sums its cost", () => {
    const { run } = tracker();
    const parse = vi.spyOn(JSON, "parse");
    try {
      run.stdout(Buffer.from(`${piMessageEnd({ model: "m-5", usage: { input: 1, cost: { input: 0.5, total: 0.75 } }, stopReason: "stop" })}\n`));
      run.stdout(Buffer.from(`${piMessageEnd({ model: "m-6", usage: { cost: { total: 1.25e-1 } }, stopReason: "toolUse" })}\n`));
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
    expect(run.summary).toMatchObject({ model: "m-6", cost: 0.875, error: null });
  });

  it("parses an assistant's message_end whole when it is not written in pi's order", () => {
    const { run } = tracker();
    // No api field: the last `,"api":"` is inside the content, and the rest of the line is no object.
    run.stdout(
      line({ type: "message_end", message: { role: "assistant", content: [{ type: "toolCall", arguments: { a: [1], api: "x" } }], model: "m-4", usage: { cost: { total: 1 } }, stopReason: "stop" } }),
    );
    expect(run.summary).toMatchObject({ model: "m-4", cost: 1 });
  });

  it("frames records across any chunk boundary, and never parses streamed deltas", () => {
    const { run } = tracker();
    const bytes = Buffer.concat([
      line({ type: "agent_start" }),
      line({ type: "message_update", assistantMessageEvent: { type: "text_delta", delta: "x".repeat(100) } }),
      line({ type: "tool_execution_start", toolName: "édit" }),
    ]);
    for (let i = 0; i < bytes.length; i += 7) run.stdout(bytes.subarray(i, i + 7));
    expect(run.summary).toMatchObject({ state: "working", tool: "édit" });
  });

  it("says needs you while a dialog waits, with its question, until a browser answers it", () => {
    const { run } = tracker();
    run.stdout(line({ type: "agent_start" }));
    run.stdout(line({ type: "extension_ui_request", id: "d1", method: "confirm", title: "Delete build/?", message: "rm -rf build" }));
    run.stdout(line({ type: "extension_ui_request", id: "n1", method: "notify", message: "fyi" }));
    expect(run.summary).toMatchObject({ state: "needs_you", question: { id: "d1", method: "confirm", title: "Delete build/?" } });
    run.command("extension_ui_response", { type: "extension_ui_response", id: "d1", confirmed: true });
    expect(run.summary).toMatchObject({ state: "working", question: null });
    // A select brings its choices, so the board can answer it.
    run.stdout(line({ type: "extension_ui_request", id: "s1", method: "select", title: "Pick", options: ["Red", "Green", 3] }));
    expect(run.summary.question).toEqual({ id: "s1", method: "select", title: "Pick", options: ["Red", "Green"] });
  });

  it("lists waiting dialogs with when they passed, and drops one whose timeout passed (pi took its default)", () => {
    const { run, tick } = tracker();
    run.stdout(line({ type: "extension_ui_request", id: "t1", method: "confirm", title: "Quick?", timeout: 2_000 }));
    tick(500);
    run.stdout(line({ type: "extension_ui_request", id: "e1", method: "editor", title: "Write" }));
    expect(run.waitingDialogs).toEqual([
      { id: "t1", since: 1_000 },
      { id: "e1", since: 1_500 },
    ]);
    tick(1_600);
    expect(run.waitingDialogs).toEqual([{ id: "e1", since: 1_500 }]);
    expect(run.summary.question?.id).toBe("e1");
  });

  it("tells a failed run (the model's error) from one the user stopped (pi 1.x aborted, or an abort sent on 0.87.1)", () => {
    const failed = tracker().run;
    failed.stdout(line({ type: "agent_start" }));
    failed.stdout(line({ type: "message_end", message: { role: "assistant", stopReason: "error", errorMessage: "429 rate limited" } }));
    failed.stdout(line({ type: "agent_settled" }));
    expect(failed.summary).toMatchObject({ state: "failed", error: "429 rate limited" });

    const aborted1x = tracker().run;
    aborted1x.stdout(line({ type: "agent_start" }));
    aborted1x.stdout(line({ type: "agent_settled", aborted: true }));
    expect(aborted1x.summary.state).toBe("stopped");

    const aborted087 = tracker().run;
    aborted087.stdout(line({ type: "agent_start" }));
    aborted087.command("abort", { type: "abort" });
    aborted087.stdout(line({ type: "message_end", message: { role: "assistant", stopReason: "aborted" } }));
    aborted087.stdout(line({ type: "agent_settled" }));
    expect(aborted087.summary).toMatchObject({ state: "stopped", error: null });
    // The next run starts clean.
    aborted087.stdout(line({ type: "agent_start" }));
    aborted087.stdout(line({ type: "agent_settled" }));
    expect(aborted087.summary.state).toBe("done");
  });

  it("reports pi's exit: a crash as failed with its code, a stop as exited; dialogs die with the process", () => {
    const { run } = tracker();
    run.stdout(line({ type: "extension_ui_request", id: "d1", method: "select", title: "Pick", options: ["a"] }));
    run.child({ state: "exited", epoch: 1, code: 3, signal: null, exitedAt: 2_000 });
    expect(run.summary).toMatchObject({ state: "failed", error: "pi exited with code 3", question: null });
    run.child({ state: "starting", epoch: 2 });
    run.child({ state: "running", epoch: 2, pid: 43, startedAt: 3_000 });
    run.child({ state: "exited", epoch: 2, code: null, signal: "SIGTERM", exitedAt: 4_000 });
    expect(run.summary).toMatchObject({ state: "exited", error: null });
  });

  it("knows a line too long to parse by its type, and a session's name beats its first prompt", () => {
    const { run } = tracker();
    run.command("prompt", { type: "prompt", message: "first" });
    run.stdout(line({ type: "agent_start", padding: "y".repeat(300 * 1024) }));
    expect(run.summary.state).toBe("working");
    run.stdout(line({ type: "session_info_changed", name: "Refactor the relay" }));
    run.stdout(Buffer.from("not json at all\n"));
    expect(run.summary.title).toBe("Refactor the relay");
  });

  it("passes over streamed updates by their first bytes, whole in a chunk or cut anywhere, and still reads the records between them", () => {
    const update = line({ type: "message_update", assistantMessageEvent: { type: "text_delta", delta: "tool_execution_start" } });
    const toolUpdate = line({ type: "tool_execution_update", toolCallId: "t1", partialResult: { text: '{"type":"agent_settled"}' } });
    const stream = Buffer.concat([
      line({ type: "agent_start" }),
      update,
      update,
      line({ type: "tool_execution_start", toolCallId: "t1", toolName: "read", args: {} }),
      toolUpdate,
      update,
      line({ type: "message_end", message: { role: "assistant", model: "m-2", usage: { cost: { total: 0.75 } }, stopReason: "stop" } }),
      update,
    ]);
    const toolAt = stream.indexOf('{"type":"message_end"');
    // Whole, then cut at every byte: the same summary either way.
    for (const size of [stream.length, 1, 5, 17, 31, 64]) {
      const { run, tick } = tracker();
      tick(10);
      for (let i = 0; i < toolAt; i += size) run.stdout(stream.subarray(i, Math.min(i + size, toolAt)));
      expect(run.summary).toMatchObject({ state: "working", tool: "read", lastActivityAt: 1_010 });
      tick(10);
      for (let i = toolAt; i < stream.length; i += size) run.stdout(stream.subarray(i, Math.min(i + size, stream.length)));
      expect(run.summary).toMatchObject({ model: "m-2", cost: 0.75, lastActivityAt: 1_020 });
    }
    // Updates alone are activity.
    const { run, tick } = tracker();
    tick(500);
    run.stdout(Buffer.concat([update, update]));
    expect(run.summary.lastActivityAt).toBe(1_500);
  });

  it("reads a line lying whole in one chunk exactly as it reads one cut across chunks (real pi records and odd lines)", () => {
    const fixtures = new URL("../../../web/test/fixtures/", import.meta.url);
    const real = readdirSync(fixtures)
      .filter((name) => name.endsWith(".jsonl"))
      .sort()
      .map((name) => readFileSync(new URL(name, fixtures), "utf8"));
    const odd = [
      `{"type":"${"t".repeat(300)}"}`, // a type that does not end within the head
      '{"type":"agen', // cut short
      "not json at all",
      '{"id":"p1","type":"response","command":"prompt","success":true}',
      '{"id":"s1","type":"response","command":"new_session","success":true}',
      JSON.stringify({ type: "message_end", message: { content: [], role: "assistant", model: "m-late-role", usage: { cost: { total: 1 } } } }),
      JSON.stringify({ type: "message_end", message: { role: "assistant", model: "m-big", content: "x".repeat(300 * 1024) } }),
      JSON.stringify({ type: "tool_execution_start", toolCallId: "t9", toolName: "write", args: { content: "y".repeat(1000) } }),
      JSON.stringify({ type: "extension_ui_request", id: "d1", method: "confirm", title: "Go on?" }),
      '{"type":"message_end","message":{"role":"assistant","model":"broken"', // not JSON
      // pi's order, in shapes the plain reading of its tail must leave to a parse or read as a parse would.
      piMessageEnd({ model: 'm "quoted"', usage: { cost: { total: 1 } }, stopReason: "stop" }),
      piMessageEnd({ model: "m-tiny", usage: { input: 3, cost: { input: 1, total: 1.5e-7 } }, stopReason: "toolUse" }),
      piMessageEnd({ model: "m-total-first", usage: { cost: { total: 2, input: 1 } }, stopReason: "stop" }),
      piMessageEnd({ model: "m-nested", usage: { cost: { total: 3 }, extra: { n: 1 } }, stopReason: "stop" }),
      piMessageEnd({ model: "m-failed", usage: { cost: { total: 4 } }, stopReason: "error", errorMessage: "529 overloaded" }),
      piMessageEnd({ model: "m-after-failure", usage: { cost: { total: -0 } }, stopReason: "length" }),
    ].join("\n");
    const lines = [...real, odd]
      .join("\n")
      .split("\n")
      .filter((text) => text !== "")
      .map((text) => Buffer.from(`${text}\n`));

    // What a tracker says after each line, fed `cut` bytes at a time (Infinity: each line whole).
    const states = (cut: number) => {
      let now = 1_000;
      let changes = 0;
      let moves = 0;
      const run = new RunTracker(() => changes++, { now: () => now, onSessionMoved: () => moves++ });
      run.child({ state: "running", epoch: 1, pid: 42, startedAt: now });
      run.command("prompt", { type: "prompt", message: "go" });
      return lines.map((bytes) => {
        now += 1;
        for (let i = 0; i < bytes.length; i += cut) run.stdout(bytes.subarray(i, Math.min(i + cut, bytes.length)));
        return JSON.stringify({ summary: run.summary, changes, moves });
      });
    };
    const whole = states(Infinity);
    expect(whole.at(-1)).toContain('"changes":'); // it read something
    expect(new Set(whole).size).toBeGreaterThan(20); // and its state moved along the way
    for (const cut of [1, 7, 64]) expect(states(cut)).toEqual(whole);
  });
});
