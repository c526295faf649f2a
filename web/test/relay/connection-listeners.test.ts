import { afterEach, describe, expect, it, vi } from "vitest";
import { ConnectionListeners } from "../../src/lib/relay/connection-listeners.ts";
import type { WireTap } from "../../src/lib/relay/wire-tap.ts";
import type { LogEntry } from "../../src/lib/pi-state/record-log.ts";
import { createSessionState } from "../../src/lib/pi-state/session-state.ts";

describe("connection listeners", () => {
  afterEach(() => vi.restoreAllMocks());

  it("tells every record listener until it unsubscribes, and the others when one throws", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const listeners = new ConnectionListeners();
    const seen: string[] = [];
    listeners.onRecord(() => {
      throw new Error("broken view");
    });
    const stop = listeners.onRecord((event) => seen.push(event.kind));
    listeners.record({ kind: "record", record: { type: "agent_start" }, replaying: false });
    stop();
    listeners.record({ kind: "reset" });
    expect(seen).toEqual(["record"]);
    expect(errors).toHaveBeenCalledTimes(2);
  });

  it("tells workspace listeners which paths changed, and whether git moved", () => {
    const listeners = new ConnectionListeners();
    const seen: unknown[] = [];
    const stop = listeners.onWorkspaceChanged((paths, git) => seen.push([paths, git]));
    listeners.workspaceChanged(["a.ts"], false);
    listeners.workspaceChanged(null, true);
    stop();
    listeners.workspaceChanged(["b.ts"], false);
    expect(seen).toEqual([
      [["a.ts"], false],
      [null, true],
    ]);
  });

  it("says whether anyone taps, and gives taps chunks, entries with the state after them, and resets", () => {
    const listeners = new ConnectionListeners();
    expect(listeners.tapping).toBe(false);
    const seen: string[] = [];
    const session = createSessionState();
    const tap: WireTap = {
      chunk: (bytes, at) => seen.push(`chunk ${bytes.length} @${at}`),
      entry: (entry, value, after) => seen.push(`entry ${entry.raw} ${JSON.stringify(value)} ${after === session}`),
      reset: () => seen.push("reset"),
    };
    const remove = listeners.addWireTap(tap);
    expect(listeners.tapping).toBe(true);
    listeners.tapChunk(new Uint8Array(4), 9);
    listeners.tapEntry({ raw: "{}" } as LogEntry, {}, session);
    listeners.tapReset();
    remove();
    expect(listeners.tapping).toBe(false);
    listeners.tapChunk(new Uint8Array(1), 10);
    expect(seen).toEqual(["chunk 4 @9", "entry {} {} true", "reset"]);
  });

  it("records what crossed the wire by kind, only while a recorder is on", () => {
    const listeners = new ConnectionListeners();
    expect(listeners.recording).toBe(false);
    const seen: string[] = [];
    const stop = listeners.addRecorder({
      bytes: (b, at) => seen.push(`bytes ${b.length} @${at}`),
      text: (t, at) => seen.push(`text ${t} @${at}`),
      sent: (t, at) => seen.push(`sent ${t} @${at}`),
    });
    expect(listeners.recording).toBe(true);
    listeners.recordWire({ kind: "bytes", bytes: new Uint8Array(2), at: 1 });
    listeners.recordWire({ kind: "text", text: "hello", at: 2 });
    listeners.recordWire({ kind: "out", raw: "cmd", at: 3 });
    stop();
    expect(listeners.recording).toBe(false);
    expect(seen).toEqual(["bytes 2 @1", "text hello @2", "sent cmd @3"]);
  });
});
