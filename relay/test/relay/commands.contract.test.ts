// Browser → pi commands through the relay: valid ones reach pi unchanged and
// are answered on the byte stream; anything that could confuse or crash pi is
// refused with a text `error` frame carrying a code, and pi keeps running.
import { MAX_COMMAND_BYTES, type RelayErrorCode, type RelayFrame } from "@pier/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandId, connectBrowser, startPier, type Browser, type RunningPier } from "../support/pier-process.ts";

type ErrorFrame = Extract<RelayFrame, { type: "error" }>;

const errorFrames = (browser: Browser) => browser.frames.filter((frame): frame is ErrorFrame => frame.type === "error");

/** Sends one raw frame and resolves with the next error frame it gets. */
async function expectRefusal(browser: Browser, data: string | Buffer, binary = false): Promise<ErrorFrame> {
  const before = errorFrames(browser).length;
  browser.sendRaw(data, { binary });
  return browser.waitUntil(() => errorFrames(browser)[before], "an error frame");
}

async function getState(browser: Browser) {
  const id = commandId("state");
  browser.send({ type: "get_state", id });
  return browser.waitForRecord((record) => record.type === "response" && record.id === id);
}

describe("commands from a browser", () => {
  let pier: RunningPier;
  let browser: Browser;
  beforeAll(async () => {
    pier = await startPier(["--demo"]);
    browser = await connectBrowser(pier);
  });
  afterAll(async () => {
    await browser?.close();
    await pier?.stop();
  });

  it("forwards a valid command and its response comes back on the byte stream", async () => {
    expect(browser.hello.child.state).toBe("running");
    const response = await getState(browser);
    expect(response).toMatchObject({ type: "response", command: "get_state", success: true });
    expect(response.data.model).toMatchObject({ provider: "pier-demo" });
    expect(errorFrames(browser)).toEqual([]);
  });

  const refusals: { name: string; data: () => string | Buffer; binary?: boolean; code: RelayErrorCode; command?: object }[] = [
    { name: "text that is not JSON", data: () => "get_state please", code: "invalid_json" },
    { name: "truncated JSON", data: () => '{"type":"get_state"', code: "invalid_json" },
    { name: "null", data: () => "null", code: "invalid_command" },
    { name: "an array", data: () => "[]", code: "invalid_command" },
    { name: "a number", data: () => "42", code: "invalid_command" },
    { name: "an unknown command type", data: () => '{"type":"bogus","id":"x1"}', code: "invalid_command", command: { type: "bogus", id: "x1" } },
    { name: "an object without type", data: () => '{"id":"x2"}', code: "invalid_command", command: { id: "x2" } },
    { name: "a prompt without message", data: () => '{"type":"prompt","id":"x3"}', code: "invalid_command", command: { type: "prompt", id: "x3" } },
    { name: "a prompt whose message is not a string", data: () => '{"type":"prompt","message":5}', code: "invalid_command", command: { type: "prompt" } },
    { name: "a raw LF inside the frame", data: () => '{"type":"get_state",\n"id":"x4"}', code: "raw_newline" },
    { name: "a raw CR inside the frame", data: () => '{"type":"get_state",\r"id":"x5"}', code: "raw_newline" },
    { name: "two records in one frame", data: () => '{"type":"get_state"}\n{"type":"get_state"}', code: "raw_newline" },
    { name: "a binary frame", data: () => Buffer.from('{"type":"get_state"}'), binary: true, code: "binary_frame" },
    { name: "an unknown pier.* request", data: () => '{"type":"pier.reboot_universe"}', code: "unknown_request", command: { type: "pier.reboot_universe" } },
    // pi 0.87.1 would store these as they are (rpc-mode passes them straight to the session).
    { name: "a steering mode pi does not have", data: () => '{"type":"set_steering_mode","mode":"bogus","id":"m1"}', code: "invalid_command", command: { type: "set_steering_mode", id: "m1" } },
    { name: "a thinking level pi does not have", data: () => '{"type":"set_thinking_level","level":"extreme","id":"m2"}', code: "invalid_command", command: { type: "set_thinking_level", id: "m2" } },
    { name: "compaction instructions that are not text", data: () => '{"type":"compact","customInstructions":42,"id":"m3"}', code: "invalid_command", command: { type: "compact", id: "m3" } },
    {
      name: "a frame one byte over the limit",
      // A well-formed prompt, so only its size can be the reason.
      data: () => {
        const frame = Buffer.alloc(MAX_COMMAND_BYTES + 1, 0x61);
        const head = Buffer.from('{"type":"prompt","message":"');
        head.copy(frame, 0);
        Buffer.from('"}').copy(frame, frame.length - 2);
        return frame.toString("latin1");
      },
      code: "frame_too_large",
    },
  ];

  it.each(refusals)("refuses $name with code $code", async ({ data, binary, code, command }) => {
    const records = browser.records.length;
    const error = await expectRefusal(browser, data(), binary);
    expect(error.code).toBe(code);
    expect(error.message).toEqual(expect.any(String));
    expect(error.message.length).toBeGreaterThan(10);
    if (command) expect(error.command).toEqual(command);
    // The socket is still open and pi still answers on it; nothing reached pi
    // (pi answers junk with a "parse" response, which must never appear).
    expect(browser.ws.readyState).toBe(browser.ws.OPEN);
    const state = await getState(browser);
    expect(state.success).toBe(true);
    expect(browser.records.slice(records).filter((record) => record.type === "response" && record.id !== state.id)).toEqual([]);
  });

  it("kept the same pi child through all of it", async () => {
    const state = await getState(browser);
    expect(state.success).toBe(true);
    expect(browser.frames.filter((frame) => frame.type === "child_exited" || frame.type === "child_started")).toEqual([]);
    expect(browser.records.filter((record) => record.type === "response" && record.command === "parse")).toEqual([]);
    expect(browser.invalidLines).toEqual([]);
    // A browser connecting now sees the very same child.
    const late = await connectBrowser(pier);
    expect(late.hello.child).toEqual(browser.hello.child);
    await late.close();
  });
});

describe("restarting pi (pier.restart_pi)", () => {
  let pier: RunningPier;
  beforeAll(async () => {
    pier = await startPier(["--demo"]);
  });
  afterAll(async () => {
    await pier?.stop();
  });

  it("tells every browser the child exited and a new one started, which then answers", async () => {
    const a = await connectBrowser(pier);
    const b = await connectBrowser(pier);
    const before = a.hello.child;
    expect(before.state).toBe("running");
    if (before.state !== "running") return;
    await getState(a);

    a.send({ type: "pier.restart_pi" });
    for (const browser of [a, b]) {
      const exited = await browser.waitForFrame("child_exited");
      const started = await browser.waitForFrame("child_started");
      expect(browser.frames.indexOf(exited)).toBeLessThan(browser.frames.indexOf(started));
      expect(exited.child).toMatchObject({ state: "exited", epoch: before.epoch });
      expect(started.child).toMatchObject({ state: "running", epoch: before.epoch + 1 });
      expect(started.child.state === "running" && started.child.pid).not.toBe(before.pid);
    }
    // The old child is gone for good, and the new one answers both browsers.
    expect(() => process.kill(before.pid, 0)).toThrow();
    const fromB = await getState(b);
    expect(fromB.success).toBe(true);

    // A browser connecting now sees the new epoch, and its replay holds only
    // the new child's output: nothing so far (B's get_state answer went to B alone).
    const c = await connectBrowser(pier);
    expect(c.hello.child).toMatchObject({ state: "running", epoch: before.epoch + 1 });
    expect(c.hello.replay.truncated).toBe(false);
    expect(c.records.map((record) => record.id)).toEqual([]);
    await Promise.all([a.close(), b.close(), c.close()]);
  });
});

describe("a pi that cannot be started", () => {
  let pier: RunningPier;
  beforeAll(async () => {
    pier = await startPier(["--pi", "/nonexistent/pi", "--no-demo-fallback"]);
  });
  afterAll(async () => {
    await pier?.stop();
  });

  it("reports the spawn error and refuses commands with pi_not_running", async () => {
    const browser = await connectBrowser(pier);
    const child = browser.hello.child.state === "exited" ? browser.hello.child : (await browser.waitForFrame("child_exited")).child;
    expect(child.state).toBe("exited");
    expect(child.state === "exited" && child.error).toMatch(/ENOENT/);

    const id = commandId("state");
    browser.send({ type: "get_state", id });
    const error = await browser.waitForFrame("error");
    expect(error).toMatchObject({ code: "pi_not_running", command: { type: "get_state", id } });
    expect(browser.chunks).toEqual([]);
    expect(pier.process.exitCode).toBeNull();
    await browser.close();
  });
});
