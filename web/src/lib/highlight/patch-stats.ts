// Added/removed line counts of a unified patch, without a diff library: the
// collapsed edit card needs only these two numbers.

export interface DiffStats {
  added: number;
  removed: number;
}

export function patchStats(patch: string): DiffStats {
  let added = 0;
  let removed = 0;
  let inHunk = false;
  for (const line of patch.split("\n")) {
    if (line.startsWith("@@")) inHunk = true;
    else if (!inHunk) continue;
    else if (line.startsWith("+")) added++;
    else if (line.startsWith("-")) removed++;
    else if (!line.startsWith(" ") && !line.startsWith("\\") && line !== "") inHunk = false;
  }
  return { added, removed };
}
