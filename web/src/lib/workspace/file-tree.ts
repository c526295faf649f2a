// The relay lists the workspace as a flat array of entries; the explorer shows
// a tree. Pure functions: build the tree once per listing, then flatten the
// expanded part into rows for rendering (one flat list keeps keyboard
// navigation and long listings simple).

import type { WorkspaceEntry, WorkspaceEntryType } from "./workspace-api-types.ts";

export interface TreeNode {
  /** Last path segment. */
  name: string;
  /** Workspace-relative path ("" for the root). */
  path: string;
  type: WorkspaceEntryType;
  size: number;
  /** Sorted: folders first, then by name (case-insensitive, numeric aware). */
  children: TreeNode[];
}

export interface TreeRow {
  node: TreeNode;
  depth: number;
  expanded: boolean;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

export function compareNodes(a: TreeNode, b: TreeNode): number {
  const aDir = a.type === "dir" ? 0 : 1;
  const bDir = b.type === "dir" ? 0 : 1;
  return aDir - bDir || collator.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/**
 * Builds the tree from a flat listing. Folders that only appear as a prefix of
 * another entry's path (a listing may omit them) are created on the way;
 * duplicate and empty paths are ignored.
 */
export function buildTree(entries: readonly WorkspaceEntry[]): TreeNode {
  const root: TreeNode = { name: "", path: "", type: "dir", size: 0, children: [] };
  const byPath = new Map<string, TreeNode>([["", root]]);

  const ensureDir = (path: string): TreeNode => {
    const existing = byPath.get(path);
    if (existing) return existing;
    const slash = path.lastIndexOf("/");
    const parent = ensureDir(slash === -1 ? "" : path.slice(0, slash));
    const node: TreeNode = { name: path.slice(slash + 1), path, type: "dir", size: 0, children: [] };
    parent.children.push(node);
    byPath.set(path, node);
    return node;
  };

  for (const entry of entries) {
    const path = normalizePath(entry.path);
    if (path === "") continue;
    const existing = byPath.get(path);
    if (existing) {
      // A folder created implicitly earlier, now listed itself: take its real type.
      existing.type = entry.type;
      existing.size = entry.size;
      continue;
    }
    if (entry.type === "dir") {
      ensureDir(path);
      continue;
    }
    const slash = path.lastIndexOf("/");
    const parent = ensureDir(slash === -1 ? "" : path.slice(0, slash));
    const node: TreeNode = { name: path.slice(slash + 1), path, type: entry.type, size: entry.size, children: [] };
    parent.children.push(node);
    byPath.set(path, node);
  }
  sortDeep(root);
  return root;
}

function sortDeep(node: TreeNode): void {
  node.children.sort(compareNodes);
  for (const child of node.children) if (child.children.length > 0) sortDeep(child);
}

/** "./a//b/" → "a/b". */
export function normalizePath(path: string): string {
  return path
    .split("/")
    .filter((part) => part !== "" && part !== ".")
    .join("/");
}

/** Rows for the expanded part of the tree, depth-first, the root itself left out. */
export function visibleRows(root: TreeNode, expanded: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (node: TreeNode, depth: number) => {
    for (const child of node.children) {
      const open = child.type === "dir" && expanded.has(child.path);
      rows.push({ node: child, depth, expanded: open });
      if (open) walk(child, depth + 1);
    }
  };
  walk(root, 0);
  return rows;
}

/** Every folder on the way to `path` ("a/b/c.ts" → ["a", "a/b"]). */
export function ancestorsOf(path: string): string[] {
  const parts = normalizePath(path).split("/");
  const result: string[] = [];
  for (let i = 1; i < parts.length; i++) result.push(parts.slice(0, i).join("/"));
  return result;
}

export function dirname(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Paths of all files (not folders) in listing order. */
export function filePaths(entries: readonly WorkspaceEntry[]): string[] {
  return entries.filter((entry) => entry.type !== "dir").map((entry) => normalizePath(entry.path));
}
