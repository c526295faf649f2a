// A scripted model for bench/classroom.bench.ts that stamps every text delta
// with the moment it was written to pi: `[<n>:<µs>] `, where <n> is the
// delta's index and <µs> the monotonic clock (process.hrtime, which is
// CLOCK_MONOTONIC: one clock for every process on the machine) read just
// before the SSE chunk goes to the socket. A client in another process reads
// the same clock when the delta reaches it, so "model wrote it → this viewer
// decoded it" is measured per delta, across processes, with no clock skew.
//
// The demo model server (relay/src/demo/) plays fixed scenario text, so it
// cannot carry a time; this one speaks the same OpenAI-compatible streaming
// format (see relay/src/demo/reply-player.ts) and nothing else. A prompt
// containing "classroom" gets the long answer: `deltas` deltas at an even
// pace over `durationMs`, like a fast real model; a prompt containing
// "warm up" gets `warmUpDeltas` as fast as possible; anything else, a word.
//
// Plain TypeScript with erasable types only: Node runs it with type stripping.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface TimestampedModelOptions {
  deltas: number;
  durationMs: number;
  warmUpDeltas?: number;
}

export interface TimestampedModel {
  /** Base URL ending in /v1, for a provider's `baseUrl`. */
  url: string;
  /** Monotonic µs when the last long answer's first and last delta were written (0 before). */
  lastStream(): { firstUs: number; lastUs: number; deltas: number };
  close(): Promise<void>;
}

/** The monotonic clock in µs, the same for every process on this machine. */
export const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

/**
 * The `[n:µs]` stamp a delta's text starts with, or null. (Hand-parsed: 200
 * viewers read 5,000 of these each, and the clients' CPU is part of what the
 * bench must keep small.)
 */
export function readStamp(text: string): { n: number; us: number } | null {
  if (text.charCodeAt(0) !== 0x5b /* [ */) return null;
  const colon = text.indexOf(":", 1);
  const close = text.indexOf("]", colon);
  if (colon === -1 || close === -1) return null;
  const n = Number(text.slice(1, colon));
  const us = Number(text.slice(colon + 1, close));
  return Number.isInteger(n) && Number.isFinite(us) ? { n, us } : null;
}

export async function startTimestampedModel(options: TimestampedModelOptions): Promise<TimestampedModel> {
  let stream = { firstUs: 0, lastUs: 0, deltas: 0 };

  const play = async (res: ServerResponse, body: Record<string, unknown>, prompt: string): Promise<void> => {
    let open = true;
    res.on("close", () => (open = false));
    const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    const created = Math.floor(Date.now() / 1000);
    const send = (choice: Record<string, unknown> | null, extra: Record<string, unknown> = {}) =>
      res.write(
        `data: ${JSON.stringify({
          id: "chatcmpl-classroom",
          object: "chat.completion.chunk",
          created,
          model: String(body.model ?? "pier-demo-model"),
          choices: choice ? [{ index: 0, finish_reason: null, ...choice }] : [],
          ...extra,
        })}\n\n`,
      );
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
    send({ delta: { role: "assistant", content: "" } });

    let count = 1;
    let chars = 0;
    if (/classroom/i.test(prompt)) {
      count = options.deltas;
      const start = performance.now();
      stream = { firstUs: 0, lastUs: 0, deltas: count };
      let n = 0;
      while (n < count && open) {
        // Every delta that is due by now, then wait for the next one: an even
        // pace whatever the timer's granularity.
        const due = Math.min(count, Math.floor(((performance.now() - start) / options.durationMs) * count) + 1);
        for (; n < due; n++) {
          const us = monotonicUs();
          if (n === 0) stream.firstUs = us;
          stream.lastUs = us;
          const text = `[${n}:${us}] `;
          chars += text.length;
          send({ delta: { content: text } });
        }
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    } else if (/warm up/i.test(prompt)) {
      count = options.warmUpDeltas ?? 200;
      for (let n = 0; n < count; n++) {
        const text = `warm ${n} `;
        chars += text.length;
        send({ delta: { content: text } });
        if (n % 20 === 19) await new Promise((resolve) => setTimeout(resolve, 1));
      }
    } else {
      chars = 6;
      send({ delta: { content: "Ready." } });
    }
    send({ delta: {}, finish_reason: "stop" });
    if (includeUsage) {
      const completion = Math.ceil(chars / 4);
      send(null, { usage: { prompt_tokens: 50, completion_tokens: completion, total_tokens: 50 + completion, completion_tokens_details: { reasoning_tokens: 0 } } });
    }
    res.end("data: [DONE]\n\n");
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/v1/models") {
      res.writeHead(200, { "content-type": "application/json" });
      return void res.end(JSON.stringify({ object: "list", data: [{ id: "pier-demo-model", object: "model", created: 0, owned_by: "pier" }] }));
    }
    if (req.method !== "POST" || path !== "/v1/chat/completions") {
      res.writeHead(404, { "content-type": "application/json" });
      return void res.end(JSON.stringify({ error: { message: "no such endpoint", type: "invalid_request_error", code: 404 } }));
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      const messages = (body.messages ?? []) as { role: string; content: unknown }[];
      const lastUser = [...messages].reverse().find((message) => message.role === "user");
      const prompt = typeof lastUser?.content === "string" ? lastUser.content : JSON.stringify(lastUser?.content ?? "");
      play(res, body, prompt).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    lastStream: () => ({ ...stream }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
