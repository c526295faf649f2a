// How a board card reads: where the agent works, what it is called, and
// what it is doing (for how long, which tool, which question, which error).
import type { LiveCard } from "@pier/protocol";
import { formatDuration } from "../format-duration.ts";

/** The last part of a folder path ("/home/me/my-app" → "my-app"). */
export function folderName(path: string): string {
  return path.split("/").filter(Boolean).at(-1) ?? path;
}

/** "my-app (feature-x)" — a card's folder name, and its branch when it has one. */
export function cardPlace(card: Pick<LiveCard, "cwd" | "branch">): string {
  const name = folderName(card.cwd);
  return card.branch ? `${name} (${card.branch})` : name;
}

/** The card's name as people read it. */
export function cardTitle(card: Pick<LiveCard, "title">): string {
  return card.title ?? "New agent";
}

/** A duration rounded for a card: "5 s", "2 min", "1 h 5 min" (no tenths, no seconds past a minute). */
export function roughDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "0 s";
  if (ms < 60_000) return `${Math.floor(ms / 1000)} s`;
  return formatDuration(Math.floor(ms / 60_000) * 60_000);
}

/**
 * One short line for the card's state: "Working for 2 min · bash", "Needs
 * you: Delete it?", "Done 3 min ago". With `questionShown` (the card shows
 * the question itself, to answer) the line says how long it has waited instead.
 */
export function cardStateText(card: LiveCard, now: number, questionShown = false): string {
  const since = roughDuration(now - card.since);
  switch (card.state) {
    case "starting":
      return "Starting pi…";
    case "idle":
      return "Idle, waiting for a prompt";
    case "working":
      return `Working for ${since}${card.tool ? ` · ${card.tool}` : ""}`;
    case "needs_you":
      return questionShown ? `Waiting for your answer for ${since}` : `Needs you: ${card.question?.title ?? "a question is waiting"}`;
    case "done":
      return `Done ${since} ago`;
    case "failed":
      return `Failed ${since} ago${card.error ? `: ${card.error}` : ""}`;
    case "stopped":
      return `Stopped by you ${since} ago`;
    case "exited":
      return card.error ? `pi exited: ${card.error}` : "pi is stopped";
  }
}

/** "$0.0123" (cents and below for small runs). */
export function formatCost(cost: number): string {
  if (!Number.isFinite(cost) || cost <= 0) return "$0";
  return cost < 1 ? `$${cost.toFixed(4)}` : `$${cost.toFixed(2)}`;
}

/** "2 watching", "nobody watching". */
export function watchersText(browsers: number): string {
  return browsers === 0 ? "nobody watching" : `${browsers} watching`;
}
