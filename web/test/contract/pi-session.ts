// Contract-test harness: one real pi child (the pi under test, 0.87.1 unless
// PIER_TEST_PI says otherwise) behind Pier's scripted model, its raw stdout
// reduced exactly like a browser would (JsonlDecoder → applyDecodedLine), and
// compared with pi's own get_messages / get_state.
//
// Fixtures: with PIER_UPDATE_FIXTURES=1 each situation's raw stdout (ending
// with the get_messages answer) is written to web/test/fixtures/<name>.jsonl,
// so captured-fixtures.test.ts replays it in fast unit runs. Without the flag
// nothing is written: fixtures change only when someone means it, and only
// from the pinned pi 0.87.1.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { JsonlDecoder } from "@pier/protocol";
import { expect } from "vitest";
import { createDemoAgentDir } from "../../../relay/src/demo/agent-dir.ts";
import { copyDemoProject } from "../../../relay/src/demo/demo-project.ts";
import { startModelServer, type ModelServer } from "../../../relay/src/demo/model-server.ts";
import type { Scenario } from "../../../relay/src/demo/scenario.ts";
import { spawnPi, type PiChild, type RpcRecord } from "../../../relay/test/demo/pi-rpc-child.ts";
import { piUnderTest } from "../../../relay/test/support/pi-under-test.ts";
import { applyDecodedLine, noteCommandSent } from "../../src/lib/pi-state/reduce-record.ts";
import { createSessionState, type SessionState } from "../../src/lib/pi-state/session-state.ts";

export const FAST = { chunkChars: 40, delayMs: 1 } as const;
const FIXTURES = join(import.meta.dirname, "..", "fixtures");
const MAX_FIXTURE_BYTES = 300_000;

export interface PiSession {
  pi: PiChild;
  server: ModelServer;
  projectDir: string;
  /** Commands sent "by the browser", with where they fall among stdout chunks. */
  sent: SentCommand[];
  /** Sends a command as the browser would (the reducer is told, like noteCommandSent); resolves with its answer. */
  send(command: RpcRecord): Promise<RpcRecord>;
  /** Sends a prompt; resolves with its response (accepted, not finished). */
  prompt(message: string): Promise<RpcRecord>;
  /** What the browser's reducer holds now. */
  reduce(): SessionState;
  /** Does what the connection does when the reducer asks for the transcript (needsMessages, needsSessionLoad): send get_messages. */
  resyncIfAsked(): Promise<boolean>;
  /** Waits for the next agent_settled after record index `from`. */
  settled(from: number): Promise<RpcRecord>;
}

export interface SentCommand {
  /** The command was sent before stdout chunk number `atChunk` arrived. */
  atChunk: number;
  id: string;
  command: RpcRecord;
}

export async function startSession(scenario: Scenario, settings: Record<string, unknown> | undefined, cleanups: (() => Promise<unknown>)[]): Promise<PiSession> {
  const server = await startModelServer({ scenario });
  cleanups.push(() => server.close());
  const agent = await createDemoAgentDir({ modelServerUrl: server.url, settings });
  cleanups.push(() => agent.cleanup());
  const project = await copyDemoProject();
  cleanups.push(() => project.cleanup());
  const pi = spawnPi({ cwd: project.dir, agentDir: agent.dir });
  cleanups.push(() => pi.close());
  const sent: SentCommand[] = [];
  const send = async (command: RpcRecord) => {
    const atChunk = pi.chunks.length;
    const response = await pi.request(command);
    sent.push({ atChunk, id: response.id as string, command });
    return response;
  };
  const reduce = () => reduceChunks(pi.chunks, sent);
  return {
    pi,
    server,
    projectDir: project.dir,
    sent,
    send,
    prompt: (message) => send({ type: "prompt", message }),
    reduce,
    async resyncIfAsked() {
      const state = reduce();
      if (!state.needsMessages && !state.needsSessionLoad) return false;
      await send({ type: "get_messages" });
      return true;
    },
    settled: (from) => pi.waitFor((r) => r.type === "agent_settled", from),
  };
}

/**
 * Reduces pi's raw stdout chunks in a fresh decoder, like a browser would,
 * telling the reducer about each command the browser sent when it was sent.
 */
export function reduceChunks(chunks: readonly Buffer[], sent: readonly SentCommand[] = []): SessionState {
  const state = createSessionState();
  const decoder = new JsonlDecoder();
  let next = 0;
  chunks.forEach((chunk, i) => {
    for (; next < sent.length && sent[next]!.atChunk <= i; next++) {
      const { id, command } = sent[next]!;
      noteCommandSent(state, id, String(command.type), Date.now(), command);
    }
    for (const line of decoder.push(chunk)) applyDecodedLine(state, line);
  });
  for (const line of decoder.end()) applyDecodedLine(state, line);
  return state;
}

/**
 * The check every situation ends with, once pi has settled: get_state then
 * get_messages (so the captured stdout ends with the get_messages answer),
 * then the reducer's rebuild must equal them. Returns the reduced state and
 * pi's answers for situation-specific checks.
 */
export async function expectReducerMatchesPi(session: PiSession, fixtureName: string) {
  const { pi } = session;
  const piState = await pi.request({ type: "get_state" });
  const messages = await pi.request({ type: "get_messages" });
  const state = reduceChunks(pi.chunks, session.sent);

  const expected = (messages.data.messages as { role: string }[]).filter((m) => m.role !== "system");
  expect(state.messages).toEqual(expected);
  expect(state.status === "streaming").toBe(piState.data.isStreaming);
  expect(state.status).toBe("idle");
  expect(state.stream).toBeNull();
  expect(state.invalidLines).toEqual([]);
  expect(state.needsMessages).toBe(false);
  expect(state.pending).toEqual({});

  // Fixtures are the pinned pi's output only: a run against another pi
  // (the contract-pi-1.6 project) must never overwrite them.
  if (process.env.PIER_UPDATE_FIXTURES === "1" && piUnderTest.pinned) writeFixture(pi, FIXTURES, fixtureName);
  return { state, piState: piState.data, messages: messages.data.messages as RpcRecord[], records: pi.records };
}

/**
 * For a situation whose point is what newer pi adds: with
 * PIER_UPDATE_FIXTURES=1, a run against a pi other than the pinned one
 * writes its capture to web/test/fixtures/pi-<version>/<name>.jsonl (never
 * among the pinned pi's fixtures). Call after expectReducerMatchesPi.
 */
export function captureNewerPiFixture(session: PiSession, fixtureName: string): void {
  if (process.env.PIER_UPDATE_FIXTURES !== "1" || piUnderTest.pinned) return;
  const dir = join(FIXTURES, `pi-${piUnderTest.version}`);
  mkdirSync(dir, { recursive: true });
  writeFixture(session.pi, dir, fixtureName);
}

/** pi's stdout up to and including the last get_messages answer, as a fixture file. */
function writeFixture(pi: PiChild, dir: string, fixtureName: string): void {
  const text = Buffer.concat(pi.chunks).toString("utf8");
  const end = text.lastIndexOf(`"command":"get_messages"`);
  const cut = text.indexOf("\n", end) + 1;
  const fixture = text.slice(0, cut);
  expect(Buffer.byteLength(fixture)).toBeLessThan(MAX_FIXTURE_BYTES);
  writeFileSync(join(dir, `${fixtureName}.jsonl`), fixture);
}
