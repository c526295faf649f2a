// JSON over HTTP for the /api/ routes: answers with the security headers and
// no caching, bounded request bodies.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { WorkspaceErrorCode } from "@pier/protocol";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import { SECURITY_HEADERS, pickEncoding } from "../static-files.ts";
import { WorkspaceError } from "./workspace-error.ts";

/** Bodies smaller than this go out as they are: compressing them saves nothing worth the time. */
const COMPRESS_MIN_BYTES = 1024;

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = Buffer.from(JSON.stringify(body));
  const send = (payload: Buffer, encoding: string | null) => {
    if (response.headersSent || response.destroyed) return;
    response.writeHead(status, {
      ...SECURITY_HEADERS,
      ...headers,
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": payload.length,
      "Cache-Control": "no-store",
      Vary: "Accept-Encoding",
      ...(encoding ? { "Content-Encoding": encoding } : {}),
    });
    response.end(payload);
  };
  const accept = response.req?.headers["accept-encoding"];
  const encoding = text.length >= COMPRESS_MIN_BYTES ? pickEncoding(Array.isArray(accept) ? accept.join(",") : accept) : null;
  if (encoding === null) return send(text, null);
  // Off the event loop (a file of 2 MiB takes tens of milliseconds); quality
  // 4 for Brotli: the speed of gzip at a better ratio, for data made now.
  const done = (error: Error | null, compressed: Buffer) => send(error ? text : compressed, error ? null : encoding);
  if (encoding === "br") brotliCompress(text, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_SIZE_HINT]: text.length } }, done);
  else gzip(text, { level: 6 }, done);
}

export function sendApiError(response: ServerResponse, status: number, code: WorkspaceErrorCode, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): void {
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
