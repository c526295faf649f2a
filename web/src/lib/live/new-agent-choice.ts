// The New agent form's pure pieces: the order of the workspace list, what the
// folder chooser shows, and what Start is missing before asking the relay
// (the relay checks the folder and the branch name; these only catch what
// needs no machine: nothing typed, a relative path).
import type { FolderListing, WorkspaceInfo } from "@pier/protocol";

/** Most recently used first; never-used ones after, by name; a tie keeps the path order so the list does not jump. */
export function workspacesInOrder(list: readonly WorkspaceInfo[]): WorkspaceInfo[] {
  return [...list].sort((a, b) => b.lastUsedAt - a.lastUsedAt || a.name.localeCompare(b.name) || a.path.localeCompare(b.path));
}

/** The folders the chooser lists: hidden ones (".git", ".cache") only when asked for. */
export function foldersShown(listing: FolderListing, showHidden: boolean): FolderListing["folders"] {
  return showHidden ? listing.folders : listing.folders.filter((folder) => !folder.hidden);
}

/** Why Start cannot ask the relay yet, or null. */
export function startProblem(folder: string, onBranch: boolean, branch: string): string | null {
  if (folder === "") return "Say which folder the new agent works in: pick one, browse, or paste an absolute path.";
  if (!folder.startsWith("/")) return `“${folder}” is not an absolute path: it starts with “/”.`;
  if (onBranch && branch === "") return "Give the new branch a name, or untick “On a new branch”.";
  return null;
}
