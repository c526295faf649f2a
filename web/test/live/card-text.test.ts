import { describe, expect, it } from "vitest";
import { alertsFor } from "../../src/lib/live/card-alerts.ts";
import { cardPlace, cardStateText, cardTitle, formatCost, roughDuration, watchersText } from "../../src/lib/live/card-text.ts";
import { card } from "./cards.ts";

describe("what a card says", () => {
  it("names the folder and branch, and the session or 'New agent'", () => {
    expect(cardPlace(card({ id: "1", cwd: "/home/me/my-app/", branch: "feature-x" }))).toBe("my-app (feature-x)");
    expect(cardPlace(card({ id: "1", cwd: "/home/me/notes", branch: null }))).toBe("notes");
    expect(cardTitle(card({ id: "1" }))).toBe("New agent");
    expect(cardTitle(card({ id: "1", title: "Fix the login" }))).toBe("Fix the login");
  });

  it("says each state with how long, the tool, the question or the error", () => {
    const now = 1_000 + 125_000;
    expect(cardStateText(card({ id: "1", state: "working", tool: "bash" }), now)).toBe("Working for 2 min · bash");
    expect(cardStateText(card({ id: "1", state: "working" }), 1_000 + 9_400)).toBe("Working for 9 s");
    expect(cardStateText(card({ id: "1", state: "needs_you", question: { id: "q", method: "confirm", title: "Delete it?" } }), now)).toBe("Needs you: Delete it?");
    expect(cardStateText(card({ id: "1", state: "needs_you", question: { id: "q", method: "confirm", title: "Delete it?" } }), now, true)).toBe("Waiting for your answer for 2 min");
    expect(cardStateText(card({ id: "1", state: "done" }), now)).toBe("Done 2 min ago");
    expect(cardStateText(card({ id: "1", state: "failed", error: "rate limited" }), now)).toBe("Failed 2 min ago: rate limited");
    expect(cardStateText(card({ id: "1", state: "stopped" }), now)).toBe("Stopped by you 2 min ago");
    expect(cardStateText(card({ id: "1", state: "exited", child: "exited" }), now)).toBe("pi is stopped");
    expect(cardStateText(card({ id: "1", state: "starting" }), now)).toBe("Starting pi…");
  });

  it("rounds durations, costs and watchers for a glance", () => {
    expect(roughDuration(-5)).toBe("0 s");
    expect(roughDuration(3_725_000)).toBe("1 h 2 min");
    expect(formatCost(0)).toBe("$0");
    expect(formatCost(0.01234)).toBe("$0.0123");
    expect(formatCost(2.5)).toBe("$2.50");
    expect(watchersText(0)).toBe("nobody watching");
    expect(watchersText(2)).toBe("2 watching");
  });
});

describe("what calls the person back", () => {
  const q = { id: "r1", method: "confirm", title: "Delete the scratch file?" };

  it("says nothing of the first board (the state of things, not news)", () => {
    expect(alertsFor(null, [card({ id: "1", state: "needs_you", question: q })])).toEqual([]);
  });

  it("alerts a new question, a second question, a run done and a run failed, once each", () => {
    const working = card({ id: "2", state: "working", since: 10, branch: "feature-x", cwd: "/r/app" });
    const asking = { ...working, state: "needs_you" as const, question: q };
    const [first] = alertsFor([working], [asking]);
    expect(first).toMatchObject({ kind: "question", title: "An agent needs you: Delete the scratch file?", body: "New agent · app (feature-x)" });
    expect(alertsFor([asking], [asking])).toEqual([]);
    const other = { ...asking, question: { ...q, id: "r2", title: "Again?" } };
    expect(alertsFor([asking], [other]).map((a) => a.title)).toEqual(["An agent needs you: Again?"]);
    const done = { ...working, state: "done" as const, since: 20 };
    expect(alertsFor([working], [done]).map((a) => a.kind)).toEqual(["done"]);
    expect(alertsFor([done], [done])).toEqual([]);
    const failed = { ...working, state: "failed" as const, since: 30, error: "model error" };
    expect(alertsFor([done], [failed]).map((a) => a.title)).toEqual(["An agent failed: model error"]);
    // Ran again and done again: news again, under another tag.
    const doneAgain = { ...done, since: 40 };
    const tags = [...alertsFor([working], [done]), ...alertsFor([done], [doneAgain])].map((a) => a.tag);
    expect(new Set(tags).size).toBe(2);
  });

  it("does not alert a state it never saw change (a card that came and went done)", () => {
    expect(alertsFor([], [card({ id: "3", state: "done" })])).toEqual([]);
    expect(alertsFor([card({ id: "1", state: "working" })], [card({ id: "1", state: "idle" }), card({ id: "2", state: "stopped" })])).toEqual([]);
  });
});
