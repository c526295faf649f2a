// Serves the built SPA (web/dist). Only files inside that folder, with strict
// security headers; hashed assets are cached, index.html never is.
import { createReadStream } from "node:fs";
import { pipeline } from "node:stream";
import { stat } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { extname, join, normalize, sep } from "node:path";

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  // Monaco and Svelte transitions set inline styles.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  // The web manifest that makes Pier installable (web/public/manifest.webmanifest).
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export const SECURITY_HEADERS: Record<string, string> = {
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
};

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  // The guided walks shipped with the app (web/public/walks).
  ".jsonl": "application/x-ndjson; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".wasm": "application/wasm",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * The encoding to send a file in: Brotli or gzip when the browser accepts it
 * (and does not refuse it with q=0), else none.
 */
export function pickEncoding(acceptEncoding: string | undefined): "br" | "gzip" | null {
  if (!acceptEncoding) return null;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (name && !(q !== undefined && Number(q.slice(2)) === 0)) accepted.add(name.trim());
  }
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip")) return "gzip";
  return null;
}

export async function serveStatic(root: string, urlPath: string, response: ServerResponse, headOnly: boolean, acceptEncoding?: string): Promise<void> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return sendText(response, 400, "Bad path.");
  }
  if (decoded.includes("\0")) return sendText(response, 400, "Bad path.");
  const relative = normalize(decoded).replace(/^([/\\])+/, "");
  const file = join(root, relative);
  if (file !== root && !file.startsWith(root + sep)) return sendText(response, 404, "Not found.");
  const found = await fileIfExists(file);
  // The SPA owns its routes: an extension-less path gets index.html.
  const target = found ?? (extname(relative) === "" ? await fileIfExists(join(root, "index.html")) : null);
  if (!target) {
    if (!(await fileIfExists(join(root, "index.html")))) {
      return sendText(response, 503, "The web app is not built yet: run `pnpm build` (pnpm start does it for you).");
    }
    return sendText(response, 404, "Not found.");
  }
  const type = CONTENT_TYPES[extname(target.path)] ?? "application/octet-stream";
  const immutable = target.path.includes(`${sep}assets${sep}`);
  // The build leaves .br/.gz copies next to text files (web/scripts/compress-dist.mjs).
  const encoding = pickEncoding(acceptEncoding);
  const compressed = encoding ? await fileIfExists(`${target.path}.${encoding === "br" ? "br" : "gz"}`) : null;
  const body = compressed ?? target;
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    "Content-Type": type,
    "Content-Length": body.size,
    "Cache-Control": immutable ? "private, max-age=31536000, immutable" : "no-store",
    Vary: "Accept-Encoding",
    ...(compressed && encoding ? { "Content-Encoding": encoding } : {}),
  });
  if (headOnly) return void response.end();
  // pipeline, not pipe: a browser that goes away mid-file gets the file closed (pipe left it open), and a read error cuts the response.
  pipeline(createReadStream(body.path), response, () => {});
}

async function fileIfExists(path: string): Promise<{ path: string; size: number } | null> {
  try {
    const info = await stat(path);
    return info.isFile() ? { path, size: info.size } : null;
  } catch {
    return null;
  }
}

export function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    "Content-Type": "text/plain; charset=utf-8",
    "Cache-Control": "no-store",
  });
  response.end(text + "\n");
}
