// Test support for the terminal's contract tests: a browser's terminal
// socket as the page opens it, opening a shell, and making an access link.
import { expect } from "vitest";
import { WebSocket } from "ws";
import type { RelayFrame, TerminalServerFrame } from "@pier/protocol";
import type { Browser, RunningPier } from "../support/pier-process.ts";
import { httpJson } from "../workspace/workspace-http.ts";

type Frame<T extends RelayFrame["type"]> = Extract<RelayFrame, { type: T }>;

/** A browser's terminal socket, as the page opens it. */
export type TerminalSocket = {
  ws: WebSocket;
  /** Output received so far, decoded (for small amounts). */
  text(): string;
  /** Bytes received before `ready` (the scrollback). */
  scrollback(): string;
  /** The size of each binary frame the scrollback came in. */
  scrollbackFrames(): number[];
  frames: TerminalServerFrame[];
  closed: Promise<{ code: number; reason: string }>;
  type(keys: string): void;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
};

export function attach(pier: RunningPier, id: string, options: { cookie?: string; prefix?: string } = {}): Promise<TerminalSocket> {
  const ws = new WebSocket(`ws://${pier.host}${options.prefix ?? ""}/terminal?id=${encodeURIComponent(id)}`, {
    headers: { Cookie: options.cookie ?? pier.cookie },
    origin: pier.origin,
  });
  const chunks: Buffer[] = [];
  let readyAt: number | null = null;
  const frames: TerminalServerFrame[] = [];
  const waiters = new Set<() => void>();
  ws.on("message", (data, isBinary) => {
    const buffer = data as Buffer;
    if (isBinary) chunks.push(buffer);
    else {
      const frame = JSON.parse(buffer.toString("utf8")) as TerminalServerFrame;
      frames.push(frame);
      if (frame.type === "ready") readyAt = chunks.length;
    }
    for (const waiter of [...waiters]) waiter();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once("close", (code, reason) => resolve({ code, reason: reason.toString() })));
  const text = () => Buffer.concat(chunks).toString("utf8");
  const socket: TerminalSocket = {
    ws,
    text,
    scrollback: () => Buffer.concat(chunks.slice(0, readyAt ?? 0)).toString("utf8"),
    scrollbackFrames: () => chunks.slice(0, readyAt ?? 0).map((chunk) => chunk.length),
    frames,
    closed,
    type: (keys) => ws.send(Buffer.from(keys), { binary: true }),
    waitFor: (pattern, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(text())) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${pattern} in the terminal; it shows: ${JSON.stringify(text().slice(-400))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
  };
  return new Promise((resolve, reject) => {
    ws.once("unexpected-response", (_request, response) => reject(new Error(`terminal upgrade refused with HTTP ${response.statusCode}`)));
    ws.once("error", reject);
    const onReady = () => {
      if (readyAt === null) return;
      waiters.delete(onReady);
      resolve(socket);
    };
    waiters.add(onReady);
  });
}

export async function openShell(pier: RunningPier, cols = 80, rows = 24, prefix = ""): Promise<string> {
  const made = await httpJson(pier, "POST", `${prefix}/api/terminals`, { body: { cols, rows } });
  expect(made.status, `${made.text} ${pier.stderr.slice(-5).join(" | ")}`).toBe(201);
  return made.json.terminal.id as string;
}

export async function makeLink(driver: Browser, role: "driver" | "viewer"): Promise<{ url: string; linkId: string }> {
  const before = driver.frames.filter((f) => f.type === "link_created").length;
  driver.send({ type: "pier.create_link", role });
  const frame = await driver.waitUntil(() => driver.frames.filter((f): f is Frame<"link_created"> => f.type === "link_created")[before], "link_created");
  return { url: `http://${new URL(driver.ws.url).host}/?token=${frame.token}`, linkId: frame.link.id };
}
