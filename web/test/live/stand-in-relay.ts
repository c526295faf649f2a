// A real HTTP server on loopback that answers the page's calls as the relay
// does (JSON bodies, JSON errors with a sentence), for the board's API tests:
// it keeps what each request sent, and answers with `next`.
import { createServer, type IncomingMessage, type Server } from "node:http";
import { afterAll, beforeAll } from "vitest";

export type Seen = { method: string; path: string; type: string; body: unknown };

export type StandInRelay = {
  /** Every request so far, in order. */
  readonly seen: Seen[];
  /** What the server answers next: status and body text. */
  next: { status: number; body: string };
  /** A fetch bound to the server (the page's calls use relative paths). */
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
};

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Starts the server before the file's tests and closes it after them. */
export function standInRelay(): StandInRelay {
  let server: Server;
  let origin = "";
  const relay: StandInRelay = {
    seen: [],
    next: { status: 200, body: "{}" },
    fetch: (input, init) => fetch(new URL(String(input), origin), init),
  };
  beforeAll(async () => {
    server = createServer(async (request, response) => {
      const text = await readBody(request);
      relay.seen.push({ method: request.method ?? "", path: request.url ?? "", type: request.headers["content-type"] ?? "", body: text ? JSON.parse(text) : null });
      response.writeHead(relay.next.status, { "Content-Type": "application/json" });
      response.end(relay.next.body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    origin = `http://127.0.0.1:${address.port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return relay;
}
