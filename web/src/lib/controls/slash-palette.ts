// Pure logic of the slash palette: when it is open, what it lists, how a
// choice completes the prompt, and how a command's origin reads.

import type { RpcSlashCommand, SourceInfo } from "@pier/protocol";

/**
 * The palette query when the caret is inside a leading "/word", else null.
 * "/exp" (caret at 4) → "exp"; "/explain src" → null (arguments started);
 * "hello /x" → null (not at the start).
 */
export function slashQuery(text: string, caret: number = text.length): string | null {
  if (!text.startsWith("/")) return null;
  const head = text.slice(0, caret);
  if (/\s/.test(head)) return null;
  const end = text.search(/\s/);
  const word = end === -1 ? text : text.slice(0, end);
  return word.slice(1);
}

/**
 * Commands matching `query`, best first: name prefix, then name substring,
 * then description substring; ties keep pi's order. Case-insensitive.
 */
export function filterCommands(commands: readonly RpcSlashCommand[], query: string): RpcSlashCommand[] {
  const q = query.trim().toLowerCase();
  if (q === "") return [...commands];
  const ranked: { command: RpcSlashCommand; rank: number; index: number }[] = [];
  commands.forEach((command, index) => {
    const name = command.name.toLowerCase();
    // Skills are "skill:name": typing the bare name should find them too.
    const bare = name.includes(":") ? name.slice(name.indexOf(":") + 1) : name;
    let rank: number;
    if (name.startsWith(q) || bare.startsWith(q)) rank = 0;
    else if (name.includes(q)) rank = 1;
    else if ((command.description ?? "").toLowerCase().includes(q)) rank = 2;
    else return;
    ranked.push({ command, rank, index });
  });
  ranked.sort((a, b) => a.rank - b.rank || a.index - b.index);
  return ranked.map((r) => r.command);
}

/** The prompt text after choosing `command`: "/name " followed by any arguments already typed. */
export function completeCommand(text: string, command: Pick<RpcSlashCommand, "name">): { text: string; caret: number } {
  const end = text.search(/\s/);
  const rest = end === -1 ? "" : text.slice(end).replace(/^\s+/, "");
  const head = `/${command.name} `;
  return { text: head + rest, caret: head.length };
}

/** Whether the first word of `text` already names `command` exactly ("/explain"). */
export function namesCommand(text: string, command: Pick<RpcSlashCommand, "name">): boolean {
  const end = text.search(/\s/);
  return (end === -1 ? text : text.slice(0, end)) === `/${command.name}`;
}

/** Human name of a command kind. */
export function sourceLabel(source: RpcSlashCommand["source"]): string {
  switch (source) {
    case "extension":
      return "Extension";
    case "prompt":
      return "Prompt template";
    case "skill":
      return "Skill";
    default:
      return String(source);
  }
}

/**
 * Where a command comes from, short: "project · .pi/prompts/explain.md",
 * "user · ~/.pi/agent/prompts/review.md", "package · my-pkg/prompts/x.md",
 * "inline". Paths under `cwd` are shown relative to it.
 */
export function originLabel(info: SourceInfo | undefined, cwd: string | null = null, home: string | null = null): string {
  if (!info) return "";
  const path = info.path ?? "";
  let shown: string;
  if (path.startsWith("<") && path.endsWith(">")) shown = path.slice(1, -1);
  else if (info.origin === "package" && info.baseDir && path.startsWith(`${info.baseDir}/`)) {
    const base = info.baseDir.split("/").filter(Boolean).at(-1) ?? info.baseDir;
    shown = `${base}/${path.slice(info.baseDir.length + 1)}`;
  } else if (cwd && path.startsWith(`${cwd.replace(/\/$/, "")}/`)) shown = path.slice(cwd.replace(/\/$/, "").length + 1);
  else if (home && path.startsWith(`${home.replace(/\/$/, "")}/`)) shown = `~/${path.slice(home.replace(/\/$/, "").length + 1)}`;
  else shown = path;
  const scope = info.origin === "package" ? `${info.scope} package` : info.scope;
  return shown ? `${scope} · ${shown}` : scope;
}
