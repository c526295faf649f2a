// JSON over HTTP for the /api/ routes: answers with the security headers and
// no caching, bounded request bodies.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { WorkspaceErrorCode } from "@pier/protocol";
import { SECURITY_HEADERS } from "../static-files.ts";
import { WorkspaceError } from "./workspace-error.ts";

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    ...headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
  });
  response.end(text);
}

export function sendApiError(
  response: ServerResponse,
  status: number,
  code: WorkspaceErrorCode,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): void {
  sendJson(response, status, { ...extra, error: { code, message } }, headers);
}

/**
 * The request body as parsed JSON (an object), at most `limit` bytes. A body
 * over the limit is answered with 413 by the caller; the rest of it is
 * drained (see workspace-api.ts).
 */
export async function readJsonObject(request: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") {
    request.resume();
    throw new WorkspaceError(415, "unsupported_media_type", 'Send the request body as JSON with "Content-Type: application/json".');
  }
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    request.resume();
    throw tooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        request.off("data", onData);
        request.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    request.on("data", onData);
    request.once("end", () => resolve());
    request.once("error", reject);
  });
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks, total).toString("utf8"));
  } catch {
    throw new WorkspaceError(400, "bad_request", "The request body is not valid JSON.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new WorkspaceError(400, "bad_request", "The request body must be a JSON object.");
  }
  return value as Record<string, unknown>;
}

function tooLarge(limit: number): WorkspaceError {
  const size = limit >= 1024 * 1024 ? `${limit / (1024 * 1024)} MiB` : `${limit / 1024} KiB`;
  return new WorkspaceError(413, "payload_too_large", `The request body is larger than ${size}.`);
}
