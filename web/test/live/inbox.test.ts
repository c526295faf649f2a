import { describe, expect, it } from "vitest";
import { cardKey, inboxOf, loadLooked, needsYouOf, saveLooked, withLooked } from "../../src/lib/live/inbox.ts";
import { card } from "./cards.ts";

const question = (id: string) => ({ id, method: "confirm", title: `Question ${id}?` });

describe("the inbox", () => {
  it("lists the cards waiting on a question, oldest first", () => {
    const cards = [
      card({ id: "1", state: "needs_you", since: 300, question: question("a") }),
      card({ id: "2", state: "working", since: 100 }),
      card({ id: "3", state: "needs_you", since: 200, question: question("b") }),
    ];
    expect(needsYouOf(cards).map((c) => c.id)).toEqual(["3", "1"]);
  });

  it("holds questions always, and done or failed runs until the person looked at that card since", () => {
    const cards = [
      card({ id: "1", state: "done", since: 500 }),
      card({ id: "2", state: "failed", since: 400, error: "boom" }),
      card({ id: "3", state: "needs_you", since: 600, question: question("q") }),
      card({ id: "4", state: "idle", since: 50 }),
      card({ id: "5", state: "stopped", since: 60 }),
    ];
    expect(inboxOf(cards, {}).map((i) => `${i.card.id}:${i.kind}`)).toEqual(["2:failed", "1:done", "3:question"]);
    // Looked at card 1 after its run ended, and at card 3 (a question stays until answered).
    const looked = withLooked({}, [cards[0]!, cards[2]!], 700);
    expect(inboxOf(cards, looked).map((i) => i.card.id)).toEqual(["2", "3"]);
    // Card 1 ran again and finished after that look: back in the inbox.
    const again = [{ ...cards[0]!, since: 800 }, cards[1]!, cards[2]!];
    expect(inboxOf(again, looked).map((i) => i.card.id)).toEqual(["2", "3", "1"]);
  });

  it("knows a card by its id and creation time: a new pier's card 1 is not the old one", () => {
    const old = card({ id: "1", state: "done", since: 500, createdAt: 10 });
    const looked = withLooked({}, [old], 600);
    const fresh = card({ id: "1", state: "done", since: 300, createdAt: 20 });
    expect(cardKey(old)).not.toBe(cardKey(fresh));
    expect(inboxOf([fresh], looked)).toHaveLength(1);
  });

  it("remembers at most 200 cards, forgetting the oldest looks", () => {
    let looked = {};
    for (let i = 0; i < 210; i++) looked = withLooked(looked, [card({ id: String(i), createdAt: i })], 1_000 + i);
    const keys = Object.keys(looked);
    expect(keys).toHaveLength(200);
    expect(keys).not.toContain("0@0");
    expect(keys).toContain("209@209");
  });

  it("keeps what was looked at in storage, and ignores what it cannot read", () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    saveLooked(storage, { "1@5": 99 });
    expect(loadLooked(storage)).toEqual({ "1@5": 99 });
    store.set("pier.board.looked", "not json");
    expect(loadLooked(storage)).toEqual({});
    store.set("pier.board.looked", JSON.stringify({ a: "x", b: 3, c: null }));
    expect(loadLooked(storage)).toEqual({ b: 3 });
    expect(loadLooked(null)).toEqual({});
    const throwing = {
      getItem: () => {
        throw new Error("blocked");
      },
      setItem: () => {
        throw new Error("full");
      },
    };
    expect(loadLooked(throwing)).toEqual({});
    expect(() => saveLooked(throwing, {})).not.toThrow();
  });
});
