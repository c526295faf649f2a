// Pier's scripted model: an OpenAI-compatible streaming endpoint on loopback
// that plays a Scenario. pi reaches it through a custom provider in models.json
// (see agent-dir.ts); tests and the offline demo both use it.
//
//   POST /v1/chat/completions  (stream: true only) -> SSE chunks, see reply-player.ts
//   GET  /v1/models                                  -> the one scripted model
// Anything else gets a JSON 4xx; a bad request never takes the server down.

import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Scenario } from "./scenario.ts";
import { validateScenario } from "./scenario.ts";
import { playReply } from "./reply-player.ts";
import type { PlayOutcome } from "./reply-player.ts";
import { selectTurn } from "./turn-selector.ts";

export const DEFAULT_MODEL_ID = "pier-demo-model";

export interface ModelServerOptions {
  scenario: Scenario;
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  modelId?: string;
}

export interface RecordedRequest {
  /** The parsed request body, exactly as pi sent it. */
  body: Record<string, unknown>;
  /** Which part of the scenario answered, e.g. "rule 0 turn 2 (failFirst 1)". */
  label: string;
  /** Filled in when the reply is over. */
  outcome?: PlayOutcome;
}

export interface ModelServer {
  /** Base URL ending in /v1, for a provider's `baseUrl`. */
  url: string;
  /** Every chat-completions request received, oldest first. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 32 * 1024 * 1024;

export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const scenario = validateScenario(options.scenario, `scenario ${JSON.stringify(options.scenario?.name)}`);
  const modelId = options.modelId ?? DEFAULT_MODEL_ID;
  const pace = scenario.pace ?? { chunkChars: 12, delayMs: 0 };
  const requests: RecordedRequest[] = [];
  // How many times each conversation position was asked for, so `failFirst`
  // replies are used up one per request and the retry gets the real turn.
  const attempts = new Map<string, number>();
  let requestCounter = 0;

  const handleCompletion = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readJsonBody(req, res);
    if (body === undefined) return;
    if (!Array.isArray(body.messages)) return sendError(res, 400, "`messages` must be an array");
    if (body.stream !== true) return sendError(res, 400, "the scripted model only streams: send `stream: true`");

    const selected = selectTurn(scenario, body.messages);
    const attempt = attempts.get(selected.key) ?? 0;
    attempts.set(selected.key, attempt + 1);
    const failures = selected.turn.failFirst ?? [];
    const failure = failures[attempt];
    const steps = failure ?? selected.turn.steps;
    const record: RecordedRequest = { body, label: failure ? `${selected.label} (failFirst ${attempt})` : selected.label };
    requests.push(record);

    const aborter = new AbortController();
    res.on("close", () => aborter.abort());
    const streamOptions = body.stream_options as { include_usage?: unknown } | undefined;
    record.outcome = await playReply(res, steps, {
      model: modelId,
      pace,
      signal: aborter.signal,
      includeUsage: streamOptions?.include_usage === true,
      promptTokens: Math.ceil(JSON.stringify(body.messages).length / 4),
      callIdPrefix: `${++requestCounter}`,
    });
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const route = `${req.method} ${path}`;
    let handled: Promise<void>;
    if (route === "POST /v1/chat/completions") {
      handled = handleCompletion(req, res);
    } else if (route === "GET /v1/models") {
      sendJson(res, 200, { object: "list", data: [{ id: modelId, object: "model", created: 0, owned_by: "pier" }] });
      handled = Promise.resolve();
    } else if (path === "/v1/chat/completions" || path === "/v1/models") {
      handled = Promise.resolve(sendError(res, 405, `${req.method} is not allowed on ${path}`));
    } else {
      handled = Promise.resolve(sendError(res, 404, `no such endpoint: ${req.method} ${path} (try POST /v1/chat/completions)`));
    }
    handled.catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, `scripted model failed: ${(error as Error).message}`);
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Hanging replies would keep close() waiting forever otherwise.
        server.closeAllConnections();
      }),
  };
}

/** Reads the body as JSON; answers 400/413 itself and returns undefined on bad input. */
async function readJsonBody(req: IncomingMessage, res: ServerResponse): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Keep draining an oversized body (without keeping it) rather than breaking
  // out of the loop: that would destroy the socket before the 413 is written.
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  if (size > MAX_BODY_BYTES) {
    sendError(res, 413, `request body larger than ${MAX_BODY_BYTES} bytes`);
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch (error) {
    sendError(res, 400, `request body is not valid JSON (${(error as Error).message})`);
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    sendError(res, 400, "request body must be a JSON object");
    return undefined;
  }
  return value as Record<string, unknown>;
}

function sendError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { error: { message, type: "invalid_request_error", code: status } });
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}
