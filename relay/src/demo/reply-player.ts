// Plays one scripted reply onto an HTTP response in the OpenAI chat-completions
// streaming format, as pi-ai's `openai-completions` client parses it:
//   data: {"choices":[{"index":0,"delta":{...},"finish_reason":null}], ...}\n\n
// with `delta.content` for text, `delta.reasoning_content` for thinking,
// `delta.tool_calls[{index,id,function:{name,arguments}}]` for tool calls (the
// arguments JSON arrives in pieces), then a chunk with `finish_reason` (pi
// throws "Stream ended without finish_reason" otherwise), a usage chunk with
// empty `choices` (sent when `stream_options.include_usage` is asked), and
// `data: [DONE]`.

import type { ServerResponse } from "node:http";
import { setTimeout as sleepFor } from "node:timers/promises";
import type { FinishReason, Step } from "./scenario.ts";

export interface PlayOptions {
  /** Echoed as `model` in every chunk. */
  model: string;
  pace: { chunkChars: number; delayMs: number };
  /** Aborted when the client goes away; the player stops at once. */
  signal: AbortSignal;
  includeUsage: boolean;
  /** Estimated from the request size unless a `usage` step overrides it. */
  promptTokens: number;
  /** Makes tool call ids unique across requests. */
  callIdPrefix: string;
}

export type PlayOutcome = "finished" | "http-error" | "cut" | "aborted";

export async function playReply(res: ServerResponse, steps: readonly Step[], options: PlayOptions): Promise<PlayOutcome> {
  const first = steps[0];
  if (first?.kind === "httpError") {
    const body = { error: { message: first.message, type: first.errorType ?? "scripted_error", code: first.status } };
    res.writeHead(first.status, { "content-type": "application/json", ...first.headers });
    res.end(JSON.stringify(body));
    return "http-error";
  }

  const completionId = `chatcmpl-${options.callIdPrefix}`;
  const created = Math.floor(Date.now() / 1000);
  // Settles once the latest chunk has reached the socket, so a `cut` happens
  // after everything before it was really sent.
  let lastWrite: Promise<void> = Promise.resolve();
  const send = (choice: Record<string, unknown> | null, extra: Record<string, unknown> = {}): void => {
    const chunk = {
      id: completionId,
      object: "chat.completion.chunk",
      created,
      model: options.model,
      choices: choice ? [{ index: 0, finish_reason: null, ...choice }] : [],
      ...extra,
    };
    lastWrite = new Promise((resolve) => res.write(`data: ${JSON.stringify(chunk)}\n\n`, () => resolve()));
  };
  const pause = async (ms: number): Promise<boolean> => {
    if (ms <= 0) return !options.signal.aborted;
    try {
      await sleepFor(ms, undefined, { signal: options.signal });
      return true;
    } catch {
      return false;
    }
  };

  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
  send({ delta: { role: "assistant", content: "" } });

  let toolCalls = 0;
  let completionChars = 0;
  let reasoningChars = 0;
  let usageOverride: Extract<Step, { kind: "usage" }> | undefined;
  let finishOverride: FinishReason | undefined;

  for (const step of steps) {
    if (options.signal.aborted) return "aborted";
    switch (step.kind) {
      case "text":
      case "reasoning": {
        const field = step.kind === "text" ? "content" : "reasoning_content";
        const size = step.chunkChars ?? options.pace.chunkChars;
        const delay = step.delayMs ?? options.pace.delayMs;
        for (const piece of splitCodePoints(step.text, size)) {
          if (!(await pause(delay))) return "aborted";
          send({ delta: { [field]: piece } });
        }
        completionChars += step.text.length;
        if (step.kind === "reasoning") reasoningChars += step.text.length;
        break;
      }
      case "toolCall": {
        const index = toolCalls++;
        const id = step.id ?? `call_${options.callIdPrefix}_${index}`;
        send({ delta: { tool_calls: [{ index, id, type: "function", function: { name: step.name, arguments: "" } }] } });
        const json = JSON.stringify(step.arguments);
        for (const piece of splitCodePoints(json, 48)) {
          if (!(await pause(Math.min(options.pace.delayMs, 15)))) return "aborted";
          send({ delta: { tool_calls: [{ index, function: { arguments: piece } }] } });
        }
        completionChars += json.length + step.name.length;
        break;
      }
      case "pause":
        if (!(await pause(step.ms))) return "aborted";
        break;
      case "usage":
        usageOverride = step;
        break;
      case "finish":
        finishOverride = step.reason;
        break;
      case "cut":
        // Whatever was written is flushed first, then the connection just dies:
        // pi sees a transport error ("terminated"), not a clean end.
        await lastWrite;
        res.socket?.destroy();
        return "cut";
      case "hang":
        await new Promise<void>((resolve) => {
          if (options.signal.aborted) resolve();
          else options.signal.addEventListener("abort", () => resolve(), { once: true });
        });
        return "aborted";
      case "httpError":
        // Rejected by validateScenario unless it is the first step, handled above.
        throw new Error("httpError must be the only step of a reply");
    }
  }

  send({ delta: {}, finish_reason: finishOverride ?? (toolCalls > 0 ? "tool_calls" : "stop") });
  if (options.includeUsage) {
    const promptTokens = usageOverride?.promptTokens ?? options.promptTokens;
    const completionTokens = usageOverride?.completionTokens ?? Math.ceil(completionChars / 4);
    const reasoningTokens = usageOverride?.reasoningTokens ?? Math.ceil(reasoningChars / 4);
    send(null, {
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
        completion_tokens_details: { reasoning_tokens: reasoningTokens },
      },
    });
  }
  res.end("data: [DONE]\n\n");
  return "finished";
}

/** Splits on code points so a chunk never ends inside a surrogate pair. */
export function splitCodePoints(text: string, size: number): string[] {
  const points = Array.from(text);
  const pieces: string[] = [];
  for (let i = 0; i < points.length; i += size) pieces.push(points.slice(i, i + size).join(""));
  return pieces;
}
