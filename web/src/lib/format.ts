// Small pure helpers that turn pi values into display strings.

import type { ImageContent, TextContent, ToolResultPayload } from "./pi-types.ts";

/** Text of a string-or-blocks content value; images become a marker. */
export function contentText(content: string | readonly (TextContent | ImageContent | { type: string })[] | undefined): string {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return content
    .map((block) => {
      if (block.type === "text") return (block as TextContent).text;
      if (block.type === "image") return `[image ${(block as ImageContent).mimeType}]`;
      return "";
    })
    .join("");
}

export function resultText(result: ToolResultPayload | null | undefined): string {
  if (!result || !Array.isArray(result.content)) return "";
  return contentText(result.content);
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/** One line describing a tool call: "read src/x.ts", "bash: ls -la". */
export function toolSummary(name: string, args: unknown): string {
  const a = (typeof args === "object" && args !== null ? args : {}) as Record<string, unknown>;
  const firstLine = (s: string) => (s.includes("\n") ? `${s.slice(0, s.indexOf("\n"))} …` : s);
  switch (name) {
    case "bash":
      return `bash: ${firstLine(str(a.command) ?? "")}`.trimEnd();
    case "read":
    case "write":
    case "edit":
    case "ls":
      return `${name} ${str(a.path) ?? str(a.file_path) ?? ""}`.trimEnd();
    case "grep":
    case "find":
      return `${name} ${str(a.pattern) ?? ""}${str(a.path) ? ` in ${a.path as string}` : ""}`.trimEnd();
    default: {
      const first = Object.values(a).find((v) => typeof v === "string") as string | undefined;
      return first ? `${name} ${firstLine(first)}` : name;
    }
  }
}

/** Best-effort summary from partial argument JSON while a tool call streams. */
export function partialArgsSummary(name: string, partialJson: string): string {
  try {
    return toolSummary(name, JSON.parse(partialJson));
  } catch {
    const match = /"(?:path|command|pattern|file_path)"\s*:\s*"((?:[^"\\]|\\.)*)/.exec(partialJson);
    return match ? `${name} ${match[1]!.replace(/\\n/g, " ")}` : name;
  }
}

export function clockTime(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

export function prettyJson(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1_000) return `${(n / 1_000).toFixed(1)}k`;
  return String(n);
}
