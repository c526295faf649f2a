// `pier tap -- <pi>`: pi's own RpcClient (the one in pi's package, as its
// examples/rpc-client.ts uses it) drives a real pi through the tap and gets
// what it gets without it; a viewer browser on the tap sees pi's bytes
// verbatim and the client's commands, and can send pi nothing; exit codes,
// signals, EOF and stdout behave as with the child alone.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RpcClient } from "@earendil-works/pi-coding-agent";
import { JsonlDecoder, type RelayFrame } from "@pier/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDemoAgentDir } from "../../src/demo/agent-dir.ts";
import { startModelServer, type ModelServer } from "../../src/demo/model-server.ts";
import type { Scenario } from "../../src/demo/scenario.ts";
import { piUnderTest } from "../support/pi-under-test.ts";
import { commandId, connectBrowser, exchangeToken, PIER_BIN, type Browser, type RunningPier } from "../support/pier-process.ts";

const SCENARIO: Scenario = {
  name: "tap",
  pace: { chunkChars: 6, delayMs: 1 },
  rules: [
    {
      when: { regex: "hello" },
      turns: [
        {
          steps: [
            { kind: "reasoning", text: "A greeting." },
            { kind: "text", text: "Hello from the scripted model, through whatever sits in between." },
          ],
        },
      ],
    },
  ],
  fallback: { steps: [{ kind: "text", text: "Fallback." }] },
};
const LINK_LINE = /^pier tap: read-only inspector of this conversation: (http:\S+)$/m;

/** pi's own RpcClient, from the package of the pi under test (1.6.0's reads fields 0.87.1 does not send). */
const { RpcClient: PiRpcClient } = (piUnderTest.pinned ? await import("pi-coding-agent-0.87") : await import("@earendil-works/pi-coding-agent")) as { RpcClient: typeof RpcClient };

let server: ModelServer;
let scratch: string;
/** A folder whose `node` runs the tap (`pier tap -- node …`), and one whose `node` is plain Node: RpcClient spawns "node" from PATH. */
let tapPath: string;
let directPath: string;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  server = await startModelServer({ scenario: SCENARIO });
  scratch = await mkdtemp(join(tmpdir(), "pier-tap-"));
  tapPath = join(scratch, "tap-bin");
  directPath = join(scratch, "direct-bin");
  for (const [dir, body] of [
    [tapPath, `exec "${process.execPath}" "${PIER_BIN}" tap -- "${process.execPath}" "$@"`],
    [directPath, `exec "${process.execPath}" "$@"`],
  ] as const) {
    await mkdir(dir);
    await writeFile(join(dir, "node"), `#!/bin/sh\n${body}\n`);
    await chmod(join(dir, "node"), 0o755);
  }
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  await server?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** A fresh pi config dir per pi (pi writes into it at start). */
async function agentDir(): Promise<string> {
  const agent = await createDemoAgentDir({ modelServerUrl: server.url });
  cleanups.push(() => agent.cleanup());
  return agent.dir;
}

type Line = Record<string, any>;

/** One RpcClient session: state, a prompt to agent_settled, messages; every line it read, as it read them. */
async function rpcClientRun(binDir: string, onStart?: (client: RpcClient) => Promise<void>): Promise<{ lines: Line[]; stderr: string; messages: unknown[] }> {
  const client = new PiRpcClient({
    cliPath: piUnderTest.cliPath,
    args: ["--no-session"],
    cwd: scratch,
    env: { PATH: `${binDir}:${process.env["PATH"]}`, PI_CODING_AGENT_DIR: await agentDir(), PI_OFFLINE: "1" },
  });
  const lines: Line[] = [];
  // Every line the client reads, before it handles it (its reader calls this.handleLine).
  const spy = client as unknown as { handleLine(line: string): void };
  const handle = spy.handleLine.bind(client);
  spy.handleLine = (line) => {
    lines.push(JSON.parse(line) as Line);
    handle(line);
  };
  await client.start();
  try {
    await onStart?.(client);
    await client.getState();
    await client.promptAndWait("hello there");
    const messages = await client.getMessages();
    return { lines, stderr: client.getStderr(), messages };
  } finally {
    await client.stop();
  }
}

/** The shape of a conversation, without what differs between two runs (times, ids pi makes up, paths). */
function shape(lines: Line[]) {
  return lines.map((line) =>
    line.type === "response"
      ? { type: line.type, command: line.command, success: line.success, id: line.id }
      : { type: line.type, ...(line.type === "message_update" ? { delta: line.assistantMessageEvent?.type } : {}) },
  );
}

/** A test's view of a tap: a "pier" the support's browsers can connect to. */
async function asPier(url: string): Promise<RunningPier> {
  const parsed = new URL(url);
  const port = Number(parsed.port);
  const cookie = await exchangeToken(url, port);
  return { url, origin: `http://${parsed.host}`, host: parsed.host, hostname: parsed.hostname, port, token: parsed.searchParams.get("token")!, cookie } as RunningPier;
}

const waitFor = async <T>(check: () => T | undefined | null | false, what: string, timeoutMs = 20_000): Promise<T> => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe("pier tap with pi's own RpcClient", () => {
  it("gets the same responses and events through the tap as from pi directly, while a viewer watches", async () => {
    const direct = await rpcClientRun(directPath);
    let viewer: Browser | null = null;
    const tapped = await rpcClientRun(tapPath, async (client) => {
      const url = await waitFor(() => LINK_LINE.exec(client.getStderr())?.[1], "the tap's link on stderr");
      viewer = await connectBrowser(await asPier(url));
      cleanups.push(() => viewer!.close());
    });
    expect(direct.lines.length).toBeGreaterThan(10);
    expect(shape(tapped.lines)).toEqual(shape(direct.lines));
    expect(tapped.messages).toHaveLength(direct.messages.length);
    // The tap's one line went to stderr; pi's own stderr is the same either way.
    expect(tapped.stderr.replace(LINK_LINE, "").trim()).toBe(direct.stderr.trim());

    const browser = viewer as unknown as Browser;
    expect(browser.hello.you.role).toBe("viewer");
    expect(browser.hello.tap).toEqual({ client: "RPC client (tap)" });
    // The viewer saw what the client read: every record, in order.
    await browser.waitUntil(() => browser.records.length >= tapped.lines.length, "every record the client read");
    expect(browser.records).toEqual(tapped.lines);
    // And the client's commands, as records sent by the client, in the order it wrote them.
    const sent = browser.frames.filter((frame): frame is Extract<RelayFrame, { type: "command_sent" }> => frame.type === "command_sent");
    expect(sent.map((frame) => JSON.parse(frame.line).type)).toEqual(["get_state", "prompt", "get_messages"]);
    expect(sent.every((frame) => frame.sender.name === "RPC client (tap)")).toBe(true);
    const responses = tapped.lines.filter((line) => line.type === "response").map((line) => line.id);
    expect(sent.map((frame) => JSON.parse(frame.line).id)).toEqual(responses);
  });
});

/** `pier tap [options] -- <command>` as a plain child: its stdout bytes, its stderr text, its exit. */
function startTap(command: string[], options: { env?: NodeJS.ProcessEnv; tapArgs?: string[] } = {}) {
  const child = spawn(process.execPath, [PIER_BIN, "tap", ...(options.tapArgs ?? []), "--", ...command], {
    cwd: scratch,
    env: { ...process.env, ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const out: Buffer[] = [];
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  child.stdin.on("error", () => {});
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("close", (code, signal) => resolve({ code, signal })));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  return { child, stdout: () => Buffer.concat(out), stderr: () => stderr, exited };
}

describe("pier tap on the wire", () => {
  it("passes pi's stdout through byte for byte, shows it and the client's lines to a viewer, refuses the viewer's commands, and ends pi on EOF", async () => {
    const agent = await agentDir();
    const tap = startTap([process.execPath, piUnderTest.cliPath, "--mode", "rpc", "--no-session"], { env: { PI_CODING_AGENT_DIR: agent, PI_OFFLINE: "1" } });
    const url = await waitFor(() => LINK_LINE.exec(tap.stderr())?.[1], "the tap's link on stderr");
    const viewer = await connectBrowser(await asPier(url));
    cleanups.push(() => viewer.close());
    expect(viewer.hello.you.role).toBe("viewer");

    // The client writes a command in two pieces: pi gets it whole, the viewer sees one line.
    const state = '{"type":"get_state","id":"c1"}\n';
    tap.child.stdin.write(state.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    tap.child.stdin.write(state.slice(10) + '{"type":"prompt","id":"c2","message":"hello tap"}\n');
    await waitFor(() => tap.stdout().includes('"type":"agent_settled"'), "the run to settle on the client's stdout");

    // A viewer's read and a viewer's prompt: refused, and pi never saw them.
    const readId = commandId("viewer-read");
    viewer.send({ type: "get_state", id: readId });
    const refusedRead = await viewer.waitForFrame("error", (frame) => frame.command?.id === readId);
    expect(refusedRead.code).toBe("forbidden");
    expect(refusedRead.message).toMatch(/read-only view of another client's session/);
    viewer.send({ type: "prompt", id: "viewer-prompt", message: "hi" });
    expect((await viewer.waitForFrame("error", (frame) => frame.command?.id === "viewer-prompt")).code).toBe("forbidden");
    viewer.send({ type: "pier.introduce", name: "Eve" });
    expect((await viewer.waitForFrame("error", (frame) => frame.command?.type === "pier.introduce")).code).toBe("forbidden");

    // A page opening now gets pi's output so far from the replay, and who sent the prompt it echoes.
    const seen = tap.stdout();
    const late = await connectBrowser(await asPier(url));
    cleanups.push(() => late.close());
    expect(late.hello.sent?.map((sent) => [sent.sender.name, JSON.parse(sent.line).message])).toEqual([["RPC client (tap)", "hello tap"]]);
    const replayed = late.replayBytes();
    expect(replayed.subarray(0, seen.length).equals(seen)).toBe(true);

    tap.child.stdin.end();
    expect(await tap.exited).toEqual({ code: 0, signal: null });
    const stdout = tap.stdout();
    // Nothing but pi's records on stdout: every line a pi record; none answers a viewer.
    const lines = new JsonlDecoder().push(stdout);
    expect(lines.every((line) => line.kind === "record")).toBe(true);
    expect(stdout.toString("utf8")).not.toContain(readId);
    expect(stdout.toString("utf8")).not.toContain("viewer-prompt");
    expect(stdout.toString("utf8")).not.toContain("pier tap");
    expect(stdout.subarray(0, replayed.length).equals(replayed)).toBe(true);
    // The viewer got the same bytes.
    await viewer.waitUntil(() => viewer.bytes().length >= stdout.length || undefined, "all of pi's bytes");
    expect(viewer.bytes().equals(stdout)).toBe(true);
    const sent = viewer.frames.filter((frame): frame is Extract<RelayFrame, { type: "command_sent" }> => frame.type === "command_sent").map((frame) => frame.line);
    expect(sent).toEqual(['{"type":"get_state","id":"c1"}', '{"type":"prompt","id":"c2","message":"hello tap"}']);
    expect(viewer.frames.some((frame) => frame.type === "child_exited")).toBe(true);
  });

  it("hands a client that reads slowly every byte as the child wrote it, and a viewer the same, though the tap frees each chunk once written", async () => {
    // Distinct lines, so a chunk freed or reused while the client's stream still held it shows as bytes missing or wrong.
    const LINES = 60_000;
    const script = `const lines=[];for(let i=0;i<${LINES};i++)lines.push(JSON.stringify({n:i,pad:"p".repeat(100+(i%23))})+"\\n");process.stdout.write(lines.join(""));process.stdin.resume();process.stdin.on("end",()=>process.exit(0))`;
    const expected = Buffer.from(Array.from({ length: LINES }, (_, i) => `${JSON.stringify({ n: i, pad: "p".repeat(100 + (i % 23)) })}\n`).join(""));
    const tap = startTap([process.execPath, "-e", script]);
    // The client does not read at first: the tap's writes to it queue up, and the child is paused behind them.
    tap.child.stdout.pause();
    const url = await waitFor(() => LINK_LINE.exec(tap.stderr())?.[1], "the tap's link on stderr");
    const viewer = await connectBrowser(await asPier(url), { parseRecords: false });
    cleanups.push(() => viewer.close());
    await viewer.waitUntil(() => viewer.chunks.length > 0 || undefined, "the first of the child's bytes at the viewer");
    expect(viewer.bytes().length).toBeLessThan(expected.length);
    // Then it reads in sips, 20 ms apart.
    const sips = setInterval(() => {
      tap.child.stdout.resume();
      setImmediate(() => tap.child.stdout.pause());
    }, 20);
    try {
      await waitFor(() => tap.stdout().length >= expected.length, "every byte at the client", 30_000);
    } finally {
      clearInterval(sips);
      tap.child.stdout.resume();
    }
    tap.child.stdin.end();
    expect(await tap.exited).toEqual({ code: 0, signal: null });
    expect(tap.stdout().equals(expected)).toBe(true);
    await viewer.waitUntil(() => viewer.bytes().length >= expected.length || undefined, "every byte at the viewer");
    expect(viewer.bytes().equals(expected)).toBe(true);
  });

  it("exits with the child's code, or is ended by the child's signal", async () => {
    const three = startTap([process.execPath, "-e", "process.exit(3)"]);
    three.child.stdin.end();
    expect(await three.exited).toEqual({ code: 3, signal: null });
    const killed = startTap(["sh", "-c", "kill -TERM $$"]);
    expect(await killed.exited).toEqual({ code: null, signal: "SIGTERM" });
    const missing = startTap(["/no/such/program"]);
    expect((await missing.exited).code).toBe(127);
    expect(missing.stderr()).toMatch(/pier tap: cannot start \/no\/such\/program/);
    expect(missing.stdout().length).toBe(0);
  });

  it("closes the child's stdout when the client closes the tap's: the child meets the EPIPE it would have met", async () => {
    const script = "setInterval(()=>process.stdout.write('x\\n'),10)";
    const results = [];
    for (const command of [
      [process.execPath, "-e", script],
      [process.execPath, PIER_BIN, "tap", "--", process.execPath, "-e", script],
    ]) {
      const child = spawn(command[0]!, command.slice(1), { env: { ...process.env, PIER_TAP_QUIET: "1" }, stdio: ["pipe", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      // The client reads one line, then closes its end (`| head -1`).
      child.stdout.once("data", () => child.stdout.destroy());
      const code = await new Promise<number | null>((resolve) => child.once("close", (exitCode) => resolve(exitCode)));
      results.push({ code, epipe: /Error: write EPIPE/.test(stderr) });
    }
    expect(results[0]).toEqual({ code: 1, epipe: true });
    expect(results[1]).toEqual(results[0]);
  });

  it("passes SIGTERM sent to the tap on to the child, once", async () => {
    const script = "let n=0;process.on('SIGTERM',()=>{n++;setTimeout(()=>process.exit(40+n),200)});process.stdout.write('ready\\n');setInterval(()=>{},1000)";
    const tap = startTap([process.execPath, "-e", script]);
    await waitFor(() => tap.stdout().toString() === "ready\n", "the child to start");
    tap.child.kill("SIGTERM");
    expect(await tap.exited).toEqual({ code: 41, signal: null });
    expect(tap.stdout().toString()).toBe("ready\n");
  });

  it("keeps quiet on stderr with PIER_TAP_QUIET, and writes the link to --link-file, readable by its owner alone", async () => {
    const linkFile = join(scratch, "link.txt");
    await writeFile(linkFile, "old\n", { mode: 0o644 });
    const script = "process.stderr.write('pi says hi\\n');process.stdin.resume();process.stdin.on('end',()=>process.exit(0))";
    const tap = startTap([process.execPath, "-e", script], { env: { PIER_TAP_QUIET: "1" }, tapArgs: ["--link-file", linkFile] });
    const link = await waitFor(() => {
      const text = readFileSync(linkFile, "utf8");
      return text.startsWith("http") ? text.trim() : null;
    }, "the link in --link-file");
    expect((await stat(linkFile)).mode & 0o777).toBe(0o600);
    const viewer = await connectBrowser(await asPier(link));
    cleanups.push(() => viewer.close());
    // pi's stderr line: in the hello's recent lines if it came before the viewer, else live.
    await viewer.waitUntil(() => viewer.hello.recentStderr.includes("pi says hi") || viewer.frames.some((frame) => frame.type === "stderr" && frame.line === "pi says hi"), "pi's stderr line");
    tap.child.stdin.end();
    expect(await tap.exited).toEqual({ code: 0, signal: null });
    expect(tap.stderr()).toBe("pi says hi\n");
    expect(tap.stdout().length).toBe(0);
  });
});
