// One "page" of bench/classroom.bench.ts, without the page: a WebSocket
// client of pier that decodes pi's byte stream with the JsonlDecoder the web
// app uses, notes when each stamped text delta (bench/support/
// timestamped-model.ts) reached it, and fingerprints every record it decoded
// (SHA-256 of the lines, in order) so thousands of viewers can be compared
// without keeping their records. One can keep its records too, to show the
// first difference.
//
// Plain TypeScript with erasable types only: Node runs it with type stripping.
import { createHash, type Hash } from "node:crypto";
import { createRequire } from "node:module";
import type WebSocketType from "ws";
import { JsonlDecoder } from "../../shared-protocol/src/jsonl-decoder.ts";
import { monotonicUs, readStamp } from "./timestamped-model.ts";

const relayRequire = createRequire(new URL("../../relay/package.json", import.meta.url));
const WebSocket = relayRequire("ws") as typeof WebSocketType;

export interface Where {
  /** `127.0.0.1:<port>`, what a page's Host and Origin name. */
  host: string;
}

/** Opens a link the way a browser does: the session cookie it sets ("pier_<port>=…"). */
export async function redeemLink(linkUrl: string): Promise<string> {
  const response = await fetch(linkUrl, { redirect: "manual" });
  await response.body?.cancel();
  const setCookie = response.headers.get("set-cookie");
  if (response.status !== 303 || !setCookie) throw new Error(`the link answered ${response.status}, expected 303 with a cookie`);
  return setCookie.split(";")[0]!.trim();
}

export class StampedViewer {
  readonly ws: WebSocketType;
  /** Monotonic µs at which delta n arrived (NaN: not yet). */
  arrivals: Float64Array;
  /** Monotonic µs at which the model wrote delta n (its stamp). */
  written: Float64Array;
  /** agent_settled records decoded so far (any run). */
  settledRuns = 0;
  /** Records decoded, bytes received (all of them, replay included). */
  records = 0;
  bytes = 0;
  /** Set once the long answer's last delta and then agent_settled were decoded. */
  done = false;
  /** How many stamped deltas the replay held (a late joiner's head start). */
  deltasInReplay = 0;
  /** The records' lines, in order, when asked to keep them. */
  readonly lines: string[] | null;
  closeCode: number | null = null;
  hello: { you?: { role?: string }; child?: { pid?: number } } | null = null;
  readonly #decoder = new JsonlDecoder();
  #digest: Hash = createHash("sha256");
  #fingerprint: string | null = null;
  #sawLastDelta = false;
  #replayOver = false;
  #deltas: number;
  #onDone: (() => void) | null = null;
  #onText: ((frame: Record<string, unknown>) => void) | null = null;

  private constructor(ws: WebSocketType, deltas: number, keepLines: boolean) {
    this.ws = ws;
    this.#deltas = deltas;
    this.arrivals = new Float64Array(deltas).fill(NaN);
    this.written = new Float64Array(deltas).fill(NaN);
    this.lines = keepLines ? [] : null;
    ws.on("message", (data: Buffer, isBinary: boolean) => (isBinary ? this.#onBytes(data) : this.#onFrame(data)));
    ws.on("close", (code: number) => {
      this.closeCode = code;
      this.#onDone?.();
    });
  }

  /** Connects with a session cookie and resolves after the replay (`replay_end`). */
  static connect(where: Where, cookie: string, options: { deltas: number; keepLines?: boolean }): Promise<StampedViewer> {
    const ws = new WebSocket(`ws://${where.host}/ws`, { headers: { Cookie: cookie }, origin: `http://${where.host}` });
    const viewer = new StampedViewer(ws, options.deltas, options.keepLines ?? false);
    return new Promise((resolve, reject) => {
      ws.once("error", reject);
      ws.once("unexpected-response", (_request: unknown, response: { statusCode?: number }) => reject(new Error(`upgrade refused: HTTP ${response.statusCode}`)));
      viewer.#onText = (frame) => {
        if (frame.type === "hello") viewer.hello = frame as StampedViewer["hello"];
        if (frame.type !== "replay_end") return;
        viewer.#replayOver = true;
        viewer.#onText = null;
        ws.off("error", reject);
        ws.on("error", () => {});
        resolve(viewer);
      };
    });
  }

  /** Waits for a text frame matching `test` (for the driver's link_created). */
  nextFrame(test: (frame: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      this.#onText = (frame) => {
        if (!test(frame)) return;
        this.#onText = null;
        resolve(frame);
      };
    });
  }

  /** Resolves when this viewer decoded the long answer to its end and agent_settled (or its socket closed). */
  whenDone(): Promise<void> {
    if (this.done || this.closeCode !== null) return Promise.resolve();
    return new Promise((resolve) => (this.#onDone = resolve));
  }

  /** Resolves once `runs` agent_settled records were decoded (polled: only for set-up steps). */
  async whenSettled(runs: number, timeoutMs = 60_000): Promise<void> {
    const until = performance.now() + timeoutMs;
    while (this.settledRuns < runs) {
      if (this.closeCode !== null || performance.now() > until) throw new Error(`no agent_settled #${runs} (socket ${this.closeCode ?? "open"})`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Starts the next long answer's clocks afresh (after a warm-up answer). */
  rearm(deltas: number): void {
    this.#deltas = deltas;
    this.arrivals = new Float64Array(deltas).fill(NaN);
    this.written = new Float64Array(deltas).fill(NaN);
    this.done = false;
    this.#sawLastDelta = false;
    this.#onDone = null;
  }

  /** SHA-256 of every record line up to and including the long answer's agent_settled. */
  fingerprint(): string | null {
    return this.#fingerprint;
  }

  send(value: unknown): void {
    this.ws.send(JSON.stringify(value));
  }

  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once("close", () => resolve());
      this.ws.terminate();
    });
  }

  #onFrame(data: Buffer): void {
    if (this.#onText === null) return;
    this.#onText(JSON.parse(data.toString("utf8")) as Record<string, unknown>);
  }

  #onBytes(data: Buffer): void {
    const at = monotonicUs();
    this.bytes += data.length;
    for (const line of this.#decoder.push(data)) {
      if (this.done) continue;
      this.records++;
      this.#digest.update(line.raw).update("\n");
      this.lines?.push(line.raw);
      if (line.kind !== "record") continue;
      const record = line.value as { type?: string; assistantMessageEvent?: { type?: string; delta?: string } };
      if (record.type === "message_update" && record.assistantMessageEvent?.type === "text_delta") {
        const stamp = readStamp(record.assistantMessageEvent.delta ?? "");
        if (stamp === null || stamp.n >= this.#deltas || !Number.isNaN(this.arrivals[stamp.n]!)) continue;
        this.arrivals[stamp.n] = at;
        this.written[stamp.n] = stamp.us;
        if (!this.#replayOver) this.deltasInReplay++;
        if (stamp.n === this.#deltas - 1) this.#sawLastDelta = true;
      } else if (record.type === "agent_settled") {
        this.settledRuns++;
        if (!this.#sawLastDelta) continue;
        this.done = true;
        this.#fingerprint = this.#digest.digest("hex");
        this.#onDone?.();
      }
    }
  }
}
