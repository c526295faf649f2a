// The page's per-session values (session-scope.svelte.ts): each live session
// gets its own, modules' bindings follow the shown one, sessions left behind
// stay held (up to KEPT_SESSIONS, least recently shown dropped first, never
// one a value must keep), and a module loaded late still gets one per session.
import { beforeEach, describe, expect, it, vi } from "vitest";

type Scope = typeof import("../src/lib/session-scope.svelte.ts");

/** A fresh registry for each test: the module's state is the page's. */
async function freshScope(): Promise<Scope> {
  vi.resetModules();
  return import("../src/lib/session-scope.svelte.ts");
}

describe("session scope", () => {
  let scope: Scope;
  beforeEach(async () => {
    scope = await freshScope();
  });

  it("makes one value per session and moves the binding to the shown one", () => {
    const made: string[] = [];
    let bound: { base: string } | null = null;
    const values = new scope.PerSession(
      (base) => {
        made.push(base);
        return { base };
      },
      (value) => (bound = value),
    );
    bound = values.shown;
    expect(scope.shown.base).toBe("");
    expect(made).toEqual([""]);

    expect(scope.showSession("/live/b")).toBe(true);
    expect(bound).toEqual({ base: "/live/b" });
    expect(scope.shown.base).toBe("/live/b");
    // Back to the first: the same value, not a new one.
    const first = values.of("");
    scope.showSession("");
    expect(bound).toBe(first);
    expect(made).toEqual(["", "/live/b"]);
    expect(scope.showSession("")).toBe(false);
  });

  it("makes a session's values in the order they were declared, so later ones can use earlier ones", () => {
    const order: string[] = [];
    const connections = new scope.PerSession((base) => {
      order.push(`connection ${base}`);
      return { base };
    });
    new scope.PerSession((base) => {
      order.push(`store on ${connections.of(base).base}`);
      return null;
    });
    scope.showSession("/live/x");
    expect(order).toEqual(["connection ", "store on ", "connection /live/x", "store on /live/x"]);
  });

  it("tells listeners of each switch, fresh only the first time a session is shown", () => {
    new scope.PerSession((base) => base);
    const heard: [string, boolean][] = [];
    scope.onSessionShown((base, fresh) => heard.push([base, fresh]));
    scope.showSession("/live/a");
    scope.showSession("");
    scope.showSession("/live/a");
    expect(heard).toEqual([
      ["/live/a", true],
      ["", false],
      ["/live/a", false],
    ]);
  });

  it("drops the least recently shown session beyond KEPT_SESSIONS, disposing its values", () => {
    const disposed: string[] = [];
    new scope.PerSession((base) => base, undefined, { dispose: (base) => disposed.push(base) });
    const bases = Array.from({ length: scope.KEPT_SESSIONS }, (_, i) => `/live/s${i}`);
    for (const base of bases) scope.showSession(base);
    // "" (the first) was shown longest ago.
    expect(disposed).toEqual([""]);
    expect(scope.heldSessions()).toEqual(bases);
    scope.showSession(bases[0]!);
    scope.showSession("/live/new");
    expect(disposed).toEqual(["", bases[1]]);
    // Dropped and shown again: made anew, and fresh.
    const heard: boolean[] = [];
    scope.onSessionShown((_base, fresh) => heard.push(fresh));
    scope.showSession("");
    expect(heard).toEqual([true]);
  });

  it("never drops a session a value keeps (unsaved edits), dropping the next one instead", () => {
    const disposed: string[] = [];
    const unsaved = new Set([""]);
    new scope.PerSession((base) => base, undefined, { dispose: (base) => disposed.push(base), keep: (base) => unsaved.has(base) });
    for (let i = 0; i < scope.KEPT_SESSIONS; i++) scope.showSession(`/live/s${i}`);
    expect(disposed).toEqual(["/live/s0"]);
    expect(scope.heldSessions()).toContain("");
    unsaved.clear();
    scope.showSession("/live/more");
    expect(disposed).toEqual(["/live/s0", ""]);
  });

  it("gives a module loaded late a value for every session the page holds", () => {
    new scope.PerSession((base) => base);
    scope.showSession("/live/a");
    const made: string[] = [];
    new scope.PerSession((base) => made.push(base));
    expect(made.sort()).toEqual(["", "/live/a"]);
  });
});
