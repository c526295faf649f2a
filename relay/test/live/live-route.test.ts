import { describe, expect, it } from "vitest";
import { liveRoute } from "../../src/live/live-route.ts";

describe("liveRoute", () => {
  it("reads a live session's id and the rest of the path; anything unprefixed is for the default session", () => {
    expect(liveRoute("/live/2/api/files/tree")).toEqual({ id: "2", rest: "/api/files/tree" });
    expect(liveRoute("/live/12/ws")).toEqual({ id: "12", rest: "/ws" });
    expect(liveRoute("/live/3")).toEqual({ id: "3", rest: "/" });
    expect(liveRoute("/live/3/")).toEqual({ id: "3", rest: "/" });
    expect(liveRoute("/ws")).toBeNull();
    expect(liveRoute("/lively/x")).toBeNull();
  });

  it("refuses ids that are not ours (no dots, slashes, upper case or empty)", () => {
    for (const path of ["/live//ws", "/live/../ws", "/live/%2e%2e/ws", "/live/A/ws", "/live/" + "9".repeat(17) + "/ws"]) {
      expect(liveRoute(path)).toEqual({ invalid: true });
    }
  });
});
