// The relay's terminal routes for this page's live session (relay/src/terminal/):
// list, open, close and share shells, and where a shell's socket is. A
// viewer lists only the shells a driver shares and may only watch them; the
// relay refuses it the rest with a sentence, which is what a call throws.
import { TERMINAL_API_PATHS, type TerminalCreateResponse, type TerminalInfo, type TerminalListResponse, type TerminalShareResponse } from "@pier/protocol";
async function call<T>(base: string, method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Error("pier could not be reached.");
  }
  const json = (await response.json().catch(() => null)) as (T & { error?: { message?: string } }) | null;
  if (!response.ok || json === null) throw new Error(json?.error?.message ?? `pier answered ${response.status}.`);
  return json;
}

export type ShellApi = {
  list(): Promise<TerminalListResponse>;
  create(cols: number, rows: number): Promise<TerminalInfo>;
  close(id: string): Promise<void>;
  share(id: string, shared: boolean): Promise<TerminalInfo>;
  socketUrl(id: string): string;
};

/** The shell routes of the live session under `base` ("" or "/live/<id>", live-base.ts). */
export function shellApiFor(base: string): ShellApi {
  return {
    list: () => call<TerminalListResponse>(base, "GET", TERMINAL_API_PATHS.terminals),
    create: async (cols, rows) => (await call<TerminalCreateResponse>(base, "POST", TERMINAL_API_PATHS.terminals, { cols, rows })).terminal,
    close: async (id) => void (await call(base, "POST", TERMINAL_API_PATHS.close, { id })),
    share: async (id, shared) => (await call<TerminalShareResponse>(base, "POST", TERMINAL_API_PATHS.share, { id, shared })).terminal,
    socketUrl: (id) => `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${base}${TERMINAL_API_PATHS.socket}?id=${encodeURIComponent(id)}`,
  };
}
