// The agents nobody watches, for bench/stream.bench.ts's agents dimension:
// more live sessions in the same pier (POST /api/live, each pi child in its
// own temp folder), each with one WebSocket client in the bench that reads
// its bytes and drops them, as a tab that is not open would not exist but
// the relay still has a socket to feed. The bench prompts them all at once
// so they stream the same long answer while the watched page streams its own.
//
// Plain TypeScript with erasable types only: Node runs it with type stripping.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { LIVE_API_PATHS, type LiveCard } from "../../shared-protocol/src/live-api.ts";
import { commandId, type RunningPier } from "../../relay/test/support/pier-process.ts";
import { httpJson } from "../../relay/test/workspace/workspace-http.ts";

const SETTLED = Buffer.from('"type":"agent_settled"');

export interface OtherAgents {
  readonly count: number;
  /** Sends every agent the same prompt, at once. */
  prompt(message: string): void;
  /** How many of them have had pi's agent_settled since they were prompted. */
  settled(): number;
  /** Resolves once all of them settled, or after `timeoutMs` (the bench reports how many did). */
  waitSettled(timeoutMs: number): Promise<void>;
  /** Bytes received on their sockets since they were prompted, all agents together. */
  bytes(): number;
  close(): Promise<void>;
}

/** Starts `count` more live sessions in `pier` and connects a discarding client to each. */
export async function startOtherAgents(pier: RunningPier, count: number): Promise<OtherAgents> {
  const folders: string[] = [];
  const sockets: WebSocket[] = [];
  let prompted = false;
  let bytes = 0;
  const settledBy = new Set<number>();
  const close = async () => {
    await Promise.all(
      sockets.map((ws) => {
        if (ws.readyState === WebSocket.CLOSED) return;
        const closed = new Promise((resolve) => ws.once("close", resolve));
        ws.close();
        return closed;
      }),
    );
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  };
  try {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const folder = realpathSync(mkdtempSync(join(tmpdir(), "pier-stream-bench-agent-")));
      folders.push(folder);
      const started = await httpJson(pier, "POST", LIVE_API_PATHS.sessions, { body: { cwd: folder } });
      if (started.status !== 201) throw new Error(`starting agent ${i + 1} of ${count} (POST ${LIVE_API_PATHS.sessions}): ${started.status} ${started.text}`);
      ids.push(started.json.card.id as string);
    }
    await until(async () => {
      const cards = (await httpJson(pier, "GET", LIVE_API_PATHS.sessions)).json.cards as LiveCard[];
      return ids.every((id) => cards.find((card) => card.id === id)?.child === "running");
    }, `${count} more pi children to run`);
    for (const [index, id] of ids.entries()) {
      const ws = new WebSocket(`ws://${pier.host}/live/${id}/ws`, { headers: { Cookie: pier.cookie }, origin: pier.origin });
      sockets.push(ws);
      // The relay's records may straddle two frames: keep the last bytes to find a marker cut in two.
      let tail = Buffer.alloc(0);
      const replayed = new Promise<void>((resolve, reject) => {
        // Kept after the replay too (a later error rejects nothing, but must have a listener).
        ws.on("error", reject);
        ws.once("close", () => reject(new Error(`agent ${id}'s socket closed before its replay ended`)));
        ws.on("message", (data, isBinary) => {
          if (!isBinary) {
            if (String(data).includes('"type":"replay_end"')) resolve();
            return;
          }
          if (!prompted) return;
          const chunk = data as Buffer;
          bytes += chunk.length;
          const scanned = tail.length === 0 ? chunk : Buffer.concat([tail, chunk]);
          if (scanned.indexOf(SETTLED) !== -1) settledBy.add(index);
          tail = Buffer.from(scanned.subarray(Math.max(0, scanned.length - SETTLED.length)));
        });
      });
      await withTimeout(replayed, 30_000, `agent ${id}'s replay`);
    }
  } catch (error) {
    await close();
    throw error;
  }
  return {
    count,
    prompt(message) {
      prompted = true;
      for (const ws of sockets) ws.send(JSON.stringify({ type: "prompt", message, id: commandId("bench") }));
    },
    settled: () => settledBy.size,
    async waitSettled(timeoutMs) {
      const end = Date.now() + timeoutMs;
      while (settledBy.size < count && Date.now() < end) await sleep(100);
    },
    bytes: () => bytes,
    close,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
