import type { Person } from "@pier/protocol";
import { describe, expect, it } from "vitest";
import { Room } from "../../src/lib/room/room.svelte.ts";

const ada: Person = { clientId: "c1", name: "Ada", role: "driver", colour: "#000" };
const sent = (line: object) => ({ type: "command_sent" as const, sender: ada, line: JSON.stringify(line), at: 1 });

describe("Room: what pi confirms", () => {
  it("tells of a fork only when pi answers it done, not when it was sent or when an extension cancelled it", () => {
    const room = new Room();
    room.apply(sent({ type: "fork", entryId: "e1", id: "f1" }), 1);
    room.apply(sent({ type: "new_session", id: "n1" }), 1);
    expect(room.events).toEqual([]);
    room.noteRecord({ type: "response", id: "f1", command: "fork", success: true, data: { text: "", cancelled: true } });
    room.noteRecord({ type: "response", id: "n1", command: "new_session", success: true, data: { cancelled: false } });
    expect(room.events.map((e) => e.text)).toEqual(["Ada started a new session"]);
    // What no extension can cancel is told at once.
    room.apply(sent({ type: "abort", id: "a1" }), 1);
    expect(room.events.map((e) => e.text)).toEqual(["Ada started a new session", "Ada aborted the run"]);
  });

  it("says nothing of a session change pi refused", () => {
    const room = new Room();
    room.apply(sent({ type: "switch_session", sessionPath: "/x.jsonl", id: "s1" }), 1);
    room.noteRecord({ type: "response", id: "s1", command: "switch_session", success: false, error: "no such file" });
    expect(room.events).toEqual([]);
  });
});
