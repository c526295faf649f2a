// Picks which scripted turn answers a chat-completions request. Pure: the same
// messages always give the same turn, so retries and replays are predictable.

import type { Scenario, Turn } from "./scenario.ts";

export interface SelectedTurn {
  turn: Turn;
  /** Identifies this conversation position; the server counts attempts per key for `failFirst`. */
  key: string;
  /** Human-readable, for the request log and failure messages. */
  label: string;
}

interface ChatMessage {
  role?: unknown;
  content?: unknown;
}

// pi's openai-completions client appends this user message after tool results
// that carry images; it is not something the person typed.
const SYNTHETIC_IMAGE_PROMPT = "Attached image(s) from tool result:";

export function selectTurn(scenario: Scenario, messages: readonly unknown[]): SelectedTurn {
  const prompts = findPrompts(messages);
  const last = prompts.at(-1);
  if (last === undefined) {
    return builtInFallback("no user message in the request", "none");
  }
  const promptNumber = prompts.length;
  const toolResults = messages.slice(last.index + 1).filter((message) => (message as ChatMessage).role === "tool").length;

  const ruleIndex = scenario.rules.findIndex((rule) => {
    const when = rule.when;
    if (when.text !== undefined && last.text.trim() !== when.text) return false;
    if (when.regex !== undefined && !new RegExp(when.regex, when.flags ?? "").test(last.text)) return false;
    if (when.promptNumber !== undefined && promptNumber !== when.promptNumber) return false;
    return true;
  });
  const key = `${ruleIndex}|${promptNumber}|${toolResults}|${last.text}`;

  if (ruleIndex === -1) {
    if (scenario.fallback) return { turn: scenario.fallback, key, label: "fallback" };
    return builtInFallback(`“${clip(last.text)}”`, key);
  }
  const turn = scenario.rules[ruleIndex]?.turns[toolResults];
  if (turn === undefined) {
    return builtInFallback(`“${clip(last.text)}” after ${toolResults} tool result(s)`, key);
  }
  return { turn, key, label: `rule ${ruleIndex} turn ${toolResults}` };
}

/** The text of a user message, whether pi sent it as a string or as content parts. */
export function userText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((part): part is { type: "text"; text: string } => part?.type === "text" && typeof part.text === "string")
    .map((part) => part.text)
    .join("\n");
}

function findPrompts(messages: readonly unknown[]): { index: number; text: string }[] {
  const prompts: { index: number; text: string }[] = [];
  messages.forEach((message, index) => {
    const { role, content } = (message ?? {}) as ChatMessage;
    if (role !== "user") return;
    const text = userText(content);
    if (text.startsWith(SYNTHETIC_IMAGE_PROMPT)) return;
    prompts.push({ index, text });
  });
  return prompts;
}

// A clear answer beats a hang: whoever wrote the scenario sees what was missing.
function builtInFallback(what: string, key: string): SelectedTurn {
  return {
    turn: { steps: [{ kind: "text", text: `The scripted model has no reply for ${what}.` }] },
    key,
    label: "no matching rule",
  };
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > 80 ? `${oneLine.slice(0, 79)}…` : oneLine;
}
