// Test support: raw HTTP requests to a running pier, the path sent exactly as
// given (no normalisation of "..", "%2e" or "%00"), with the session cookie
// and the page's Origin unless told otherwise.
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { RunningPier } from "../support/pier-process.ts";

export type JsonAnswer = { status: number; headers: IncomingHttpHeaders; text: string; json: any };

export type JsonRequestOptions = {
  /** Default: pier's cookie; null sends none. */
  cookie?: string | null;
  /** Default: pier's origin; null sends none. */
  origin?: string | null;
  /** Default: application/json when there is a body. */
  contentType?: string | null;
  /** Sent as is (a string) or JSON-encoded. */
  body?: unknown;
  headers?: { [name: string]: string };
};

export function httpJson(pier: RunningPier, method: string, path: string, options: JsonRequestOptions = {}): Promise<JsonAnswer> {
  // pier's own Host (the printed link's) unless the test names another.
  const headers: { [name: string]: string } = { Host: pier.host, ...options.headers };
  const cookie = options.cookie === undefined ? pier.cookie : options.cookie;
  if (cookie !== null) headers.Cookie = cookie;
  const origin = options.origin === undefined ? pier.origin : options.origin;
  if (origin !== null) headers.Origin = origin;
  let payload: Buffer | null = null;
  if (options.body !== undefined) {
    payload = Buffer.from(typeof options.body === "string" ? options.body : JSON.stringify(options.body));
    const type = options.contentType === undefined ? "application/json" : options.contentType;
    if (type !== null) headers["Content-Type"] = type;
    headers["Content-Length"] = String(payload.length);
  }
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port: pier.port, path, method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown = undefined;
        try {
          json = JSON.parse(text);
        } catch {
          // Not JSON: the test looks at text.
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json });
      });
      response.on("error", reject);
    });
    // A server that answers before reading the whole body (413) may close the socket under a large upload.
    request.on("error", reject);
    request.end(payload ?? undefined);
  });
}
