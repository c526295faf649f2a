import { describe, expect, it } from "vitest";
import type { Grant } from "../../src/access-links.ts";
import { cleanName, People } from "../../src/people.ts";

const driver: Grant = { id: "g1", role: "driver", linkId: "link-1", digest: "d1", scope: null };
const viewer = (id: string): Grant => ({ id, role: "viewer", linkId: "link-2", digest: `d-${id}`, scope: null });

describe("People", () => {
  it("names newcomers by role, gives each a colour, and lists them", () => {
    const people = new People();
    const a = people.join("c1", driver);
    const b = people.join("c2", viewer("g2"));
    const c = people.join("c3", viewer("g3"));
    expect([a.name, b.name, c.name]).toEqual(["Driver", "Viewer 1", "Viewer 2"]);
    expect(new Set([a.colour, b.colour, c.colour]).size).toBe(3);
    expect(people.list().map((p) => p.role)).toEqual(["driver", "viewer", "viewer"]);
    expect(people.fromLink("link-2").map((p) => p.clientId)).toEqual(["c2", "c3"]);
    expect(people.byGrant("g1")?.clientId).toBe("c1");
    people.leave("c2");
    expect(people.get("c2")).toBeUndefined();
  });

  it("gives a browser that comes back (same grant) its colour and default name again, and a new browser the next ones", () => {
    const people = new People();
    const first = people.join("c1", viewer("g2"));
    people.join("c2", viewer("g3"));
    people.leave("c1");
    const again = people.join("c4", viewer("g2"));
    expect([again.name, again.colour]).toEqual([first.name, first.colour]);
    const newcomer = people.join("c5", viewer("g4"));
    expect(newcomer.name).toBe("Viewer 3");
    expect(people.list().map((p) => p.colour)).toHaveLength(3);
    expect(new Set(people.list().map((p) => p.colour)).size).toBe(3);
  });

  it("forgets the oldest seats past a thousand browsers", () => {
    const people = new People();
    const first = people.join("c0", viewer("g0"));
    people.leave("c0");
    for (let i = 1; i <= 1000; i++) people.leave(people.join(`c${i}`, viewer(`g${i}`)).clientId);
    expect(people.join("back", viewer("g0")).name).not.toBe(first.name);
    expect(people.join("recent", viewer("g1000")).name).toBe("Viewer 1001");
  });

  it("numbers drivers after the first, so two drivers who gave no name can be told apart, and keeps a driver's number across a reconnect", () => {
    const people = new People();
    const otherDriver = (id: string): Grant => ({ id, role: "driver", linkId: "link-1", digest: `d-${id}`, scope: null });
    const first = people.join("c1", driver);
    people.join("c2", viewer("g2"));
    const second = people.join("c3", otherDriver("g3"));
    const third = people.join("c4", otherDriver("g4"));
    expect([first.name, second.name, third.name]).toEqual(["Driver", "Driver 2", "Driver 3"]);
    people.leave("c3");
    expect(people.join("c5", otherDriver("g3")).name).toBe("Driver 2");
    expect(people.list().map((p) => p.name)).toEqual(["Driver", "Viewer 1", "Driver 3", "Driver 2"]);
  });

  it("takes a new name, cleaned, and keeps the old one when nothing usable is given", () => {
    const people = new People();
    people.join("c1", driver);
    expect(people.rename("c1", "  Ada   Lovelace ")?.name).toBe("Ada Lovelace");
    expect(people.rename("c1", "\u200b\u202e  ")).toBeNull();
    expect(people.get("c1")?.name).toBe("Ada Lovelace");
    expect(people.rename("nobody", "x")).toBeNull();
  });
});

describe("cleanName", () => {
  it("removes control and formatting characters (bidi overrides, zero-width), collapses space, caps the length", () => {
    expect(cleanName("Ada\u202e evil\u0000\n\tname")).toBe("Ada evil name");
    expect(cleanName("x".repeat(100))).toHaveLength(40);
    expect(cleanName("😀".repeat(50))).toBe("😀".repeat(40));
    expect(cleanName("")).toBeNull();
  });

  it("keeps markup as typed: pages render names as text, where it is inert", () => {
    expect(cleanName('<img src=x onerror="alert(1)">')).toBe('<img src=x onerror="alert(1)">');
  });
});
