// The front class with its parts together, on a socket the test plays the
// relay through (the parts each have their own tests; this one checks that
// they are wired: frames reach the reducer, calls their answers, a close
// fails what waits and reconnects).

import { afterEach, describe, expect, it, vi } from "vitest";
import { RelayConnection } from "../../src/lib/relay/relay-connection.svelte.ts";
import type { SocketLike } from "../../src/lib/relay/socket-link.ts";
import { logEntry, type RecordLog } from "../../src/lib/pi-state/record-log.ts";

function directions(log: RecordLog): string[] {
  const out: string[] = [];
  for (let seq = log.firstSeq; seq < log.nextSeq; seq++) out.push(logEntry(log, seq)!.direction);
  return out;
}

class RelaySide implements SocketLike {
  binaryType: BinaryType = "blob";
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  sent: Record<string, unknown>[] = [];
  constructor(readonly url: string) {}
  send(data: string): void {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close(): void {
    this.readyState = 3;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event("open"));
  }
  frame(value: unknown): void {
    this.onmessage?.({ data: JSON.stringify(value) } as MessageEvent);
  }
  stdout(...records: unknown[]): void {
    const encoded = new TextEncoder().encode(records.map((r) => `${JSON.stringify(r)}\n`).join(""));
    // Copied into an ArrayBuffer of the page's realm (jsdom's), as a browser's socket gives.
    const bytes = new Uint8Array(encoded.length);
    bytes.set(encoded);
    this.onmessage?.({ data: bytes.buffer } as MessageEvent);
  }
  closeWith(code: number): void {
    this.readyState = 3;
    this.onclose?.({ code } as CloseEvent);
  }
  sentOf(type: string): Record<string, unknown>[] {
    return this.sent.filter((s) => s["type"] === type);
  }
}

const me = { clientId: "c1", name: "Ada", role: "driver" as const, colour: "#123456" };
const hello = {
  type: "hello",
  protocolVersion: 1,
  clientId: "c1",
  relayVersion: "test",
  cwd: "/w",
  piCommand: ["pi"],
  demo: null,
  child: { state: "running", epoch: 1, pid: 42, startedAt: 1 },
  replay: { bytes: 0, truncated: false },
  recentStderr: [],
  peers: 1,
  limits: { maxCommandBytes: 1_000_000 },
  sessions: null,
  you: me,
  people: [me],
  heartbeatMs: 15_000,
};

let connection: RelayConnection | null = null;
afterEach(() => {
  connection?.close();
  connection = null;
});

function connect(prefix?: string) {
  const sockets: RelaySide[] = [];
  connection = new RelayConnection({
    ...(prefix === undefined ? {} : { prefix }),
    createSocket: (url) => {
      const socket = new RelaySide(url);
      sockets.push(socket);
      return socket;
    },
  });
  connection.connect();
  return { conn: connection, sockets, relay: () => sockets.at(-1)! };
}

/** Open, hello, replay_end: the page is connected and has asked for the session. */
async function connected(prefix?: string) {
  const setup = connect(prefix);
  setup.relay().open();
  setup.relay().frame(hello);
  setup.relay().frame({ type: "replay_end" });
  await vi.waitFor(() => expect(setup.relay().sentOf("get_entries")).toHaveLength(1));
  return setup;
}

describe("relay connection (front)", () => {
  it("opens its socket at /ws, or under the prefix it was given", () => {
    expect(connect().relay().url).toBe(`ws://${location.host}/ws`);
    connection!.close();
    expect(connect("/live/s1").relay().url).toBe(`ws://${location.host}/live/s1/ws`);
  });

  it("is connected after the hello, and after the replay asks pi where it is and for the session's entries", async () => {
    const { conn, relay } = await connected();
    expect(conn.phase).toBe("connected");
    expect(conn.clientId).toBe("c1");
    expect(conn.replaying).toBe(false);
    expect(relay().sent.map((s) => [s["id"], s["type"]])).toEqual([
      ["c1:1", "get_state"],
      ["c1:2", "get_entries"],
    ]);
    // Both are logged as sent, after the relay frames that led to them.
    await vi.waitFor(() => expect(directions(conn.log)).toEqual(["relay", "relay", "out", "out"]));
  });

  it("rebuilds the transcript from the entries pi answers, and moves the cursor on after a run", async () => {
    const { conn, relay } = await connected();
    const entries = [{ type: "message", id: "u1", parentId: null, timestamp: "2026-12-01T10:00:00.000Z", message: { role: "user", content: "hi", timestamp: 1 } }];
    relay().stdout({ type: "response", id: "c1:2", command: "get_entries", success: true, data: { entries, leafId: "u1" } });
    await vi.waitFor(() => expect(conn.session.messages.map((m) => m.role)).toEqual(["user"]));
    expect(conn.entries.entries.map((e) => e.id)).toEqual(["u1"]);
    expect(conn.entriesVersion).toBe(conn.entries.version);
    relay().stdout({ type: "agent_settled" });
    await vi.waitFor(() => expect(relay().sentOf("get_entries").at(-1)).toMatchObject({ since: "u1" }));
  });

  it("answers a call with pi's response, and a refused one with the relay's words", async () => {
    const { conn, relay } = await connected();
    const answer = conn.call({ type: "get_commands" });
    const id = relay().sent.at(-1)!["id"];
    relay().stdout({ type: "response", id, command: "get_commands", success: true, data: { commands: [] } });
    await expect(answer).resolves.toMatchObject({ success: true, data: { commands: [] } });

    const refused = conn.call({ type: "set_session_name", name: "x" });
    const refusedId = relay().sent.at(-1)!["id"] as string;
    relay().frame({ type: "error", code: "forbidden", message: "Only drivers.", command: { id: refusedId, type: "set_session_name" } });
    await expect(refused).resolves.toEqual({ type: "response", command: "set_session_name", success: false, error: "Only drivers." });
    // Shown where the person acted, not in the alerts.
    expect(conn.alerts).toEqual([]);
  });

  it("on a close, fails what waits, says it is reconnecting, and opens a new socket after the backoff", async () => {
    const { conn, relay, sockets } = await connected();
    const answer = conn.call({ type: "get_commands" });
    relay().closeWith(1006);
    await expect(answer).resolves.toMatchObject({ success: false, error: "The connection to the relay closed before pi answered." });
    expect(conn.phase).toBe("reconnecting");
    expect(conn.reconnectAttempt).toBe(1);
    expect(conn.send({ type: "get_state" })).toBeNull();
    expect(conn.alerts.map((a) => a.title)).toEqual(["Not connected"]);
    await vi.waitFor(() => expect(sockets).toHaveLength(2), { timeout: 2_000 });
    sockets[1]!.open();
    sockets[1]!.frame(hello);
    await vi.waitFor(() => expect(conn.phase).toBe("connected"));
    expect(conn.reconnectAttempt).toBe(0);
  });

  it("stops on the relay's unauthorized close: no reconnecting with a cookie it refuses", async () => {
    const { conn, relay, sockets } = await connected();
    relay().closeWith(4401);
    await vi.waitFor(() => expect(conn.phase).toBe("unauthorized"));
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(sockets).toHaveLength(1);
  });

  it("alerts each failure nobody awaits, also once the session's bounded list of failures is full", async () => {
    const { conn, relay } = await connected();
    for (let n = 1; n <= 60; n++) {
      const id = conn.send({ type: "set_session_name", name: `name ${n}` });
      relay().stdout({ type: "response", id, command: "set_session_name", success: false, error: `refused ${n}` });
    }
    await vi.waitFor(() => expect(conn.alerts.at(-1)).toMatchObject({ title: "“set_session_name” failed", message: "refused 60" }));
  });

  it("notifies and dismisses through its alert stack", () => {
    const { conn } = connect();
    conn.notify("info", "Saved", "a.ts");
    expect(conn.alerts).toMatchObject([{ level: "info", title: "Saved", message: "a.ts" }]);
    conn.dismissAlert(conn.alerts[0]!.id);
    expect(conn.alerts).toEqual([]);
  });
});
