// The Changes view's two lists, as every IDE has them: "Staged" (HEAD →
// index) and "Changes" (index → working tree, untracked and conflicted files
// included). A file changed on both sides is in both, each with its own
// letter. From git's two porcelain letters the relay passes on.

import { statusBadge, type StatusBadge } from "./git-status.ts";
import type { GitChange } from "./workspace-api-types.ts";

export type ChangeSection = "staged" | "unstaged";

export interface SectionEntry {
  change: GitChange;
  section: ChangeSection;
  badge: StatusBadge;
  untracked: boolean;
  conflicted: boolean;
  /** git printed a name that is not UTF-8: the page cannot name it back, so it offers no action on it. */
  unreadableName: boolean;
}

export interface ChangeSections {
  staged: SectionEntry[];
  unstaged: SectionEntry[];
}

const CONFLICT: StatusBadge = { letter: "!", label: "Conflict", tone: "conflict" };
const TYPE_CHANGE: StatusBadge = { letter: "T", label: "Type changed", tone: "modified" };

function badgeFor(letter: string): StatusBadge {
  if (letter === "U") return CONFLICT;
  if (letter === "T") return TYPE_CHANGE;
  return statusBadge(letter);
}

export function splitChanges(changes: readonly GitChange[]): ChangeSections {
  const staged: SectionEntry[] = [];
  const unstaged: SectionEntry[] = [];
  for (const change of changes) {
    const unreadableName = change.path.includes("\uFFFD") || (change.from ?? "").includes("\uFFFD");
    const base = { change, unreadableName };
    if (change.status === "conflicted") {
      unstaged.push({ ...base, section: "unstaged", badge: CONFLICT, untracked: false, conflicted: true });
      continue;
    }
    if (change.status === "untracked") {
      unstaged.push({ ...base, section: "unstaged", badge: statusBadge("untracked"), untracked: true, conflicted: false });
      continue;
    }
    // A relay without the letters: everything is a change of the working tree, as before.
    if (change.index === undefined || change.worktree === undefined) {
      unstaged.push({ ...base, section: "unstaged", badge: statusBadge(change.status), untracked: false, conflicted: false });
      continue;
    }
    if (change.index !== " ") staged.push({ ...base, section: "staged", badge: badgeFor(change.index), untracked: false, conflicted: false });
    if (change.worktree !== " ") unstaged.push({ ...base, section: "unstaged", badge: badgeFor(change.worktree), untracked: false, conflicted: false });
  }
  return { staged, unstaged };
}

/** The question before reverting several files: how many, and that untracked ones are deleted. */
export function revertQuestion(entries: readonly SectionEntry[]): { title: string; message: string } {
  const untracked = entries.filter((entry) => entry.untracked).length;
  const count = entries.length;
  const files = count === 1 ? "1 file" : `${count} files`;
  const parts = [`The changes in ${files} will be thrown away and the files put back as they are staged (or in HEAD).`];
  if (untracked > 0) parts.push(`${untracked === 1 ? "1 untracked file is" : `${untracked} untracked files are`} deleted.`);
  parts.push("This cannot be undone from Pier.");
  return { title: count === 1 ? `Revert ${entries[0]!.change.path}?` : `Revert ${files}?`, message: parts.join(" ") };
}
