// Git status words from the relay → the one-letter badges and tones an IDE shows.

export interface StatusBadge {
  letter: string;
  label: string;
  tone: "modified" | "added" | "deleted" | "renamed" | "untracked" | "conflict" | "other";
}

export function statusBadge(status: string): StatusBadge {
  const s = status.toLowerCase();
  if (s === "m" || s.startsWith("modif")) return { letter: "M", label: "Modified", tone: "modified" };
  if (s === "a" || s.startsWith("add") || s === "new") return { letter: "A", label: "Added", tone: "added" };
  if (s === "d" || s.startsWith("delet")) return { letter: "D", label: "Deleted", tone: "deleted" };
  if (s === "r" || s.startsWith("renam")) return { letter: "R", label: "Renamed", tone: "renamed" };
  if (s === "c" || s.startsWith("cop")) return { letter: "C", label: "Copied", tone: "renamed" };
  if (s === "?" || s === "??" || s === "u" || s.startsWith("untrack")) return { letter: "U", label: "Untracked", tone: "untracked" };
  if (s.startsWith("conflict") || s.startsWith("unmerged")) return { letter: "!", label: "Conflict", tone: "conflict" };
  return { letter: status.slice(0, 1).toUpperCase() || "?", label: status, tone: "other" };
}
