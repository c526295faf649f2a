import { describe, expect, it } from "vitest";
import { liveBase, liveIdOf, livePageHref, livePath } from "../../src/lib/live-base.ts";

describe("live base", () => {
  it("names the live session of a /live/<id>/ page, and none for any other path", () => {
    expect(liveIdOf("/live/2/")).toBe("2");
    expect(liveIdOf("/live/ab3")).toBe("ab3");
    expect(liveIdOf("/live/2/api/files/tree")).toBe("2");
    expect(liveIdOf("/")).toBeNull();
    expect(liveIdOf("/lively/2/")).toBeNull();
    expect(liveIdOf("/live/")).toBeNull();
    expect(liveIdOf("/live/UPPER/")).toBeNull();
    expect(liveIdOf("/live/../")).toBeNull();
  });

  it("prefixes every path of a live session's page, and leaves the default page's as they are", () => {
    expect(liveBase("/live/7/")).toBe("/live/7");
    expect(liveBase("/")).toBe("");
    expect(livePath("/api/sessions", "/live/7/")).toBe("/live/7/api/sessions");
    expect(livePath("/api/sessions", "/")).toBe("/api/sessions");
    expect(livePath("/ws", "/live/12/")).toBe("/live/12/ws");
  });

  it("refuses a relative path, in words", () => {
    expect(() => livePath("api/x", "/")).toThrow('A relay path starts with "/" (got “api/x”).');
  });

  it("links the primary to / and the others to their own page", () => {
    expect(livePageHref({ id: "1", primary: true })).toBe("/");
    expect(livePageHref({ id: "3", primary: false })).toBe("/live/3/");
  });
});
