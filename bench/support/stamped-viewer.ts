// One "page" of bench/classroom.bench.ts, without the page: a WebSocket
// client of pier that decodes pi's byte stream with the JsonlDecoder the web
// app uses, notes when each stamped text delta (bench/support/
// timestamped-model.ts) reached it, and fingerprints every record it decoded
// (SHA-256 of the lines, in order) so thousands of viewers can be compared
// without keeping their records. One can keep its records too, to show the
// first difference.
//
// A viewer can also find its stamps without decoding like a page ("scan"):
// it splits the bytes on LF and looks for a text delta's stamp and for
// agent_settled in the raw line, which is all it needs, at a fraction of
// JSON.parse's cost. The fingerprint is the same either way (the SHA-256 of
// the same line bytes). The classroom bench runs 200 such viewers on the
// relay's own 2 cores; decoding like 200 pages there would measure the
// viewers' parsing (which a real class does on 200 machines), not the relay.
//
// Plain TypeScript with erasable types only: Node runs it with type stripping.
import { createHash, type Hash } from "node:crypto";
import WebSocket from "ws";
import { JsonlDecoder } from "../../shared-protocol/src/jsonl-decoder.ts";
import { monotonicUs, readStamp } from "./timestamped-model.ts";

export interface Where {
  /** `pier-<random>.localhost:<port>` (pier's own name, resolved by resolve-localhost.ts), what a page's Host and Origin name. */
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

/** How a viewer reads pi's stream: with the web app's JsonlDecoder, or by scanning the line bytes for what it needs. */
export type Decode = "page" | "scan";

const LF = 0x0a;
/** On the wire, a text delta's record names its event type, then contentIndex, then the delta (JSON.stringify keeps that order). */
const TEXT_DELTA = Buffer.from('"assistantMessageEvent":{"type":"text_delta"');
const DELTA = Buffer.from('"delta":"');
const AGENT_SETTLED = Buffer.from('{"type":"agent_settled"');

export class StampedViewer {
  readonly ws: WebSocket;
  /** Monotonic µs at which delta n arrived (NaN: not yet). */
  arrivals: Float64Array;
  /** Monotonic µs at which the model wrote delta n (its stamp). */
  written: Float64Array;
  /** agent_settled records decoded so far (any run). */
  settledRuns = 0;
  /** Records decoded, bytes and binary frames received (all of them, replay included). */
  records = 0;
  bytes = 0;
  frames = 0;
  /** Set once the long answer's last delta and then agent_settled were decoded. */
  done = false;
  /** How many stamped deltas the replay held (a late joiner's head start). */
  deltasInReplay = 0;
  /** The records' lines, in order, when asked to keep them. */
  readonly lines: string[] | null;
  closeCode: number | null = null;
  hello: { you?: { role?: string }; child?: { pid?: number } } | null = null;
  readonly #decoder = new JsonlDecoder();
  readonly #decode: Decode;
  /** Scanning: the start of a line not finished yet. */
  #partial: Buffer | null = null;
  #digest: Hash = createHash("sha256");
  #fingerprint: string | null = null;
  #sawLastDelta = false;
  #replayOver = false;
  #deltas: number;
  #onDone: (() => void) | null = null;
  #onText: ((frame: Record<string, unknown>) => void) | null = null;

  private constructor(ws: WebSocket, deltas: number, keepLines: boolean, decode: Decode) {
    this.ws = ws;
    this.#decode = keepLines ? "page" : decode;
    this.#deltas = deltas;
    this.arrivals = new Float64Array(deltas).fill(NaN);
    this.written = new Float64Array(deltas).fill(NaN);
    this.lines = keepLines ? [] : null;
    const onBytes = this.#decode === "page" ? (data: Buffer) => this.#onBytes(data) : (data: Buffer) => this.#scanBytes(data);
    ws.on("message", (data: Buffer, isBinary: boolean) => (isBinary ? onBytes(data) : this.#onFrame(data)));
    ws.on("close", (code: number) => {
      this.closeCode = code;
      this.#onDone?.();
    });
  }

  /** Connects with a session cookie and resolves after the replay (`replay_end`). */
  static connect(where: Where, cookie: string, options: { deltas: number; keepLines?: boolean; decode?: Decode }): Promise<StampedViewer> {
    const ws = new WebSocket(`ws://${where.host}/ws`, { headers: { Cookie: cookie }, origin: `http://${where.host}` });
    const viewer = new StampedViewer(ws, options.deltas, options.keepLines ?? false, options.decode ?? "page");
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
    this.frames++;
    for (const line of this.#decoder.push(data)) {
      if (this.done) continue;
      this.records++;
      this.#digest.update(line.raw).update("\n");
      this.lines?.push(line.raw);
      if (line.kind !== "record") continue;
      const record = line.value as { type?: string; assistantMessageEvent?: { type?: string; delta?: string } };
      if (record.type === "message_update" && record.assistantMessageEvent?.type === "text_delta") {
        this.#onStamp(readStamp(record.assistantMessageEvent.delta ?? ""), at);
      } else if (record.type === "agent_settled") {
        this.#onSettled();
      }
    }
  }

  /** The same as #onBytes, from the line bytes: split on LF, stamps and agent_settled found by search. */
  #scanBytes(data: Buffer): void {
    const at = monotonicUs();
    this.bytes += data.length;
    this.frames++;
    let start = 0;
    let lf: number;
    while ((lf = data.indexOf(LF, start)) !== -1) {
      const tail = data.subarray(start, lf);
      this.#scanLine(this.#partial === null ? tail : Buffer.concat([this.#partial, tail]), at);
      this.#partial = null;
      start = lf + 1;
    }
    if (start < data.length) {
      const rest = data.subarray(start);
      this.#partial = this.#partial === null ? Buffer.from(rest) : Buffer.concat([this.#partial, rest]);
    }
  }

  #scanLine(line: Buffer, at: number): void {
    if (this.done) return;
    this.records++;
    this.#digest.update(line).update("\n");
    const event = line.indexOf(TEXT_DELTA);
    if (event !== -1) {
      const delta = line.indexOf(DELTA, event + TEXT_DELTA.length);
      if (delta === -1) return;
      const from = delta + DELTA.length;
      this.#onStamp(readStamp(line.toString("latin1", from, Math.min(line.length, from + 40))), at);
    } else if (line.subarray(0, AGENT_SETTLED.length).equals(AGENT_SETTLED)) {
      this.#onSettled();
    }
  }

  #onStamp(stamp: { n: number; us: number } | null, at: number): void {
    if (stamp === null || stamp.n >= this.#deltas || !Number.isNaN(this.arrivals[stamp.n]!)) return;
    this.arrivals[stamp.n] = at;
    this.written[stamp.n] = stamp.us;
    if (!this.#replayOver) this.deltasInReplay++;
    if (stamp.n === this.#deltas - 1) this.#sawLastDelta = true;
  }

  #onSettled(): void {
    this.settledRuns++;
    if (!this.#sawLastDelta) return;
    this.done = true;
    this.#fingerprint = this.#digest.digest("hex");
    this.#onDone?.();
  }
}
