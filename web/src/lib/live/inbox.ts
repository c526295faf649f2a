// What needs the person, across every live session: questions waiting for an
// answer, and runs that finished or failed since they last looked at that
// session. "Looked" is kept per browser (localStorage), per card: ids start
// again at 1 with every pier, so a card is known by its id and when it was
// created.
import type { LiveCard } from "@pier/protocol";

export type InboxKind = "question" | "done" | "failed";
export type InboxItem = { card: LiveCard; kind: InboxKind; at: number };

/** When the person last looked at each card (cardKey → ms since the epoch). */
export type Looked = Readonly<Record<string, number>>;

const STORAGE_KEY = "pier.board.looked";
/** Cards remembered at most: the oldest looks are forgotten first. */
const MAX_REMEMBERED = 200;

export function cardKey(card: Pick<LiveCard, "id" | "createdAt">): string {
  return `${card.id}@${card.createdAt}`;
}

/** Cards waiting on a question, oldest first. */
export function needsYouOf(cards: readonly LiveCard[]): LiveCard[] {
  return cards.filter((card) => card.state === "needs_you").sort((a, b) => a.since - b.since);
}

/** Everything that asks for the person, oldest first: waiting questions, and done or failed runs they have not looked at since. */
export function inboxOf(cards: readonly LiveCard[], looked: Looked): InboxItem[] {
  const items: InboxItem[] = [];
  for (const card of cards) {
    if (card.state === "needs_you") items.push({ card, kind: "question", at: card.since });
    else if ((card.state === "done" || card.state === "failed") && card.since > (looked[cardKey(card)] ?? 0)) {
      items.push({ card, kind: card.state, at: card.since });
    }
  }
  return items.sort((a, b) => a.at - b.at);
}

/** `looked` with `cards` looked at `at`; the oldest entries past MAX_REMEMBERED dropped. */
export function withLooked(looked: Looked, cards: readonly LiveCard[], at: number): Looked {
  const next: Record<string, number> = { ...looked };
  for (const card of cards) next[cardKey(card)] = Math.max(at, card.since);
  const keys = Object.keys(next);
  if (keys.length <= MAX_REMEMBERED) return next;
  keys.sort((a, b) => next[a]! - next[b]!);
  for (const key of keys.slice(0, keys.length - MAX_REMEMBERED)) delete next[key];
  return next;
}

type Storage = Pick<globalThis.Storage, "getItem" | "setItem">;

/** What this browser remembered (nothing when storage is unavailable or holds something else). */
export function loadLooked(storage: Storage | null): Looked {
  try {
    const raw = storage?.getItem(STORAGE_KEY);
    if (!raw) return {};
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
    const looked: Record<string, number> = {};
    for (const [key, value] of Object.entries(parsed)) if (typeof value === "number" && Number.isFinite(value)) looked[key] = value;
    return looked;
  } catch {
    return {};
  }
}

export function saveLooked(storage: Storage | null, looked: Looked): void {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(looked));
  } catch {
    // Private mode or a full quota: the inbox forgets after a reload, nothing else breaks.
  }
}
