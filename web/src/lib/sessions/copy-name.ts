// The name a fork or a clone goes by. pi copies the branch it forks, and with
// it the session's name (a session_info entry on that branch; pi 0.87.1 and
// 1.6.0 alike), so the saved sessions list filled with identical names. The
// page that asked names the copy after its source, marked as a copy.

export type CopyKind = "fork" | "clone";

/** "Greeter refactor" → "Greeter refactor (fork)" or "Greeter refactor (copy)"; a copy of a copy says so again. */
export function copyName(source: string, kind: CopyKind): string {
  return `${source} (${kind === "fork" ? "fork" : "copy"})`;
}
