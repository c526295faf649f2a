// The board's HTTP calls against a real HTTP server that answers as the
// relay does (JSON errors with a sentence): what is sent, and what a
// refusal says.
import { LIVE_API_PATHS } from "@pier/protocol";
import { describe, expect, it } from "vitest";
import { standInRelay } from "./stand-in-relay.ts";
import { liveApi } from "../../src/lib/live/live-api.ts";
import { card } from "./cards.ts";

const relay = standInRelay();
const seen = relay.seen;

const api = () => liveApi((input, init) => relay.fetch(input, init));

describe("the board's API calls", () => {
  it("posts each action as JSON to its path and answers the card the relay sent back", async () => {
    const answered = card({ id: "2", state: "working" });
    relay.next = { status: 200, body: JSON.stringify({ card: answered }) };
    seen.length = 0;
    const calls = api();
    const results = [
      await calls.start("/work/other"),
      await calls.stop("2"),
      await calls.restart("2"),
      await calls.archive("2"),
      await calls.prompt("2", "hello"),
      await calls.abort("2"),
      await calls.answer("2", "req-1", { confirmed: true }),
      await calls.answer("2", "req-2", { value: "Green" }),
      await calls.answer("2", "req-3", { cancelled: true }),
    ];
    expect(results.every((r) => r.ok && r.card?.id === "2")).toBe(true);
    expect(seen.map((s) => [s.method, s.path, s.body])).toEqual([
      ["POST", LIVE_API_PATHS.sessions, { cwd: "/work/other" }],
      ["POST", LIVE_API_PATHS.stop, { id: "2" }],
      ["POST", LIVE_API_PATHS.restart, { id: "2" }],
      ["POST", LIVE_API_PATHS.archive, { id: "2" }],
      ["POST", LIVE_API_PATHS.prompt, { id: "2", message: "hello" }],
      ["POST", LIVE_API_PATHS.abort, { id: "2" }],
      ["POST", LIVE_API_PATHS.answer, { id: "2", requestId: "req-1", confirmed: true }],
      ["POST", LIVE_API_PATHS.answer, { id: "2", requestId: "req-2", value: "Green" }],
      ["POST", LIVE_API_PATHS.answer, { id: "2", requestId: "req-3", cancelled: true }],
    ]);
    expect(seen.every((s) => s.type === "application/json")).toBe(true);
  });

  it("says the relay's own sentence when it refuses", async () => {
    relay.next = { status: 503, body: JSON.stringify({ error: { code: "max_agents", message: "8 agents are running, the most this pier runs at once" } }) };
    expect(await api().start("/work/x")).toEqual({ ok: false, error: "8 agents are running, the most this pier runs at once", code: "max_agents" });
    relay.next = { status: 400, body: JSON.stringify({ error: { code: "not_a_folder", message: "/work/x/README.md is a file, not a folder" } }) };
    expect(await api().start("/work/x/README.md")).toEqual({ ok: false, error: "/work/x/README.md is a file, not a folder", code: "not_a_folder" });
  });

  it("says the status when the refusal is not the relay's JSON, and that pier cannot be reached when nothing answers", async () => {
    relay.next = { status: 502, body: "<html>Bad gateway</html>" };
    const refused = await api().stop("1");
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toMatch(/^pier answered 502/);
    const unreachable = await liveApi((input, init) => fetch(new URL(String(input), "http://127.0.0.1:1"), init)).abort("1");
    expect(unreachable.ok).toBe(false);
    expect(!unreachable.ok && unreachable.error).toMatch(/^Cannot reach pier: /);
  });

  it("reads the board once", async () => {
    relay.next = { status: 200, body: JSON.stringify({ cards: [card({ id: "1", primary: true })], maxRunning: 8, role: "driver" }) };
    const got = await api().board();
    expect("cards" in got && got.cards.map((c) => c.id)).toEqual(["1"]);
    relay.next = { status: 403, body: JSON.stringify({ error: { code: "forbidden", message: "no" } }) };
    expect(await api().board()).toEqual({ error: "no" });
  });
});
