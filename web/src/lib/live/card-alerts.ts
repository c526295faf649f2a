// Which board changes are worth calling the person back for: a session that
// starts waiting on a question (or on another one), and a run that ends,
// done or failed. Read off two consecutive boards; the first board a page
// gets is the state of things, not news, and calls nobody.
import type { LiveCard } from "@pier/protocol";
import { cardPlace, cardTitle } from "./card-text.ts";
import { cardKey } from "./inbox.ts";

export type CardAlert = { card: LiveCard; kind: "question" | "done" | "failed"; title: string; body: string; tag: string };

export function alertsFor(before: readonly LiveCard[] | null, now: readonly LiveCard[]): CardAlert[] {
  if (before === null) return [];
  const previous = new Map(before.map((card) => [cardKey(card), card]));
  const alerts: CardAlert[] = [];
  for (const card of now) {
    const was = previous.get(cardKey(card));
    const where = `${cardTitle(card)} · ${cardPlace(card)}`;
    if (card.state === "needs_you" && card.question !== null) {
      if (was?.state === "needs_you" && was.question?.id === card.question.id) continue;
      alerts.push({ card, kind: "question", title: `An agent needs you: ${card.question.title}`, body: where, tag: `pier-${cardKey(card)}-q-${card.question.id}` });
    } else if ((card.state === "done" || card.state === "failed") && was !== undefined && (was.state !== card.state || was.since !== card.since)) {
      const failed = card.state === "failed";
      alerts.push({
        card,
        kind: card.state,
        title: failed ? `An agent failed: ${card.error ?? "its run ended with an error"}` : "An agent is done",
        body: where,
        tag: `pier-${cardKey(card)}-${card.state}-${card.since}`,
      });
    }
  }
  return alerts;
}
