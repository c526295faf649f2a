// The composer's lists: the template picker's searchable catalogue of
// every record type a client may write, and the history of this browser's
// earlier commands, newest first.

export interface TemplateEntry {
  type: string;
  description: string;
}

const normalise = (text: string): string => text.toLowerCase().replace(/[_\-]+/g, " ");

/**
 * Entries matching every word of `query` (in the type or the description;
 * "new session" finds new_session), best first: exact type, type prefix,
 * words all in the type, then matches in the description; ties keep the
 * catalogue's order.
 */
export function searchTemplates(entries: readonly TemplateEntry[], query: string): TemplateEntry[] {
  const q = normalise(query).trim();
  if (q === "") return [...entries];
  const words = q.split(/\s+/);
  const scored: { entry: TemplateEntry; score: number; index: number }[] = [];
  entries.forEach((entry, index) => {
    const type = normalise(entry.type);
    const description = normalise(entry.description);
    if (!words.every((w) => type.includes(w) || description.includes(w))) return;
    const score = type === q ? 0 : type.startsWith(q) ? 1 : words.every((w) => type.includes(w)) ? 2 : 3;
    scored.push({ entry, score, index });
  });
  scored.sort((a, b) => a.score - b.score || a.index - b.index);
  return scored.map((s) => s.entry);
}

export interface HistoryRow {
  seq: number;
  text: string;
  /** The command's type, or null when the text is not a JSON object with one. */
  type: string | null;
  id: string | null;
  /** The fields after type and id, shortened: `{"message":"Hello"}` → `message: "Hello"`. */
  summary: string;
}

/** The history, newest first, with what a row shows. */
export function historyRows(history: readonly { seq: number; text: string }[], maxSummary = 80): HistoryRow[] {
  const rows: HistoryRow[] = [];
  for (let i = history.length - 1; i >= 0; i--) {
    const { seq, text } = history[i]!;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    const record = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
    if (record === null) {
      rows.push({ seq, text, type: null, id: null, summary: shorten(text.replace(/\s+/g, " "), maxSummary) });
      continue;
    }
    const { type, id, ...rest } = record;
    const fields = Object.entries(rest).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
    rows.push({
      seq,
      text,
      type: typeof type === "string" ? type : null,
      id: typeof id === "string" ? id : null,
      summary: shorten(fields.join(", "), maxSummary),
    });
  }
  return rows;
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
