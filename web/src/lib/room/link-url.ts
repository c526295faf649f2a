// The address another browser opens to join with a link's role. Built from
// the page's own origin: the one the driver reached Pier at (a tunnel, a
// LAN address) is the one that works for the others.
export function linkUrl(origin: string, token: string): string {
  return `${origin}/?token=${encodeURIComponent(token)}`;
}

/** "in 12 h", "in 14 min", "expired": how long a link still works. */
export function expiresIn(expiresAt: number, now: number): string {
  const left = expiresAt - now;
  if (left <= 0) return "expired";
  const minutes = Math.round(left / 60_000);
  if (minutes < 1) return "in under a minute";
  if (minutes < 90) return `in ${minutes} min`;
  return `in ${Math.round(minutes / 60)} h`;
}

/** "Ada" → "A"; "ada lovelace" → "AL": the letters in a person's badge. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0]!, words.at(-1)!].map((w) => [...w][0]!) : [...(words[0] ?? "?")].slice(0, 1);
  return letters.join("").toUpperCase();
}
