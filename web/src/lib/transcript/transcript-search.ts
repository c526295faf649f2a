// Finding text in the conversation. A long transcript is virtualized, so the
// browser's own find-in-page cannot see rows that are not mounted: the search
// runs over the messages themselves, then the view scrolls to a matching row
// and marks the matches in what is rendered (CSS Custom Highlight API: no DOM
// changes inside rendered Markdown).
//
// What is searched is what a row shows when its disclosures are in their
// default state: user and assistant text, a tool call's headline argument,
// commands the person ran with their output, visible extension messages.
// Collapsed thoughts and summaries, and the system prompt, are not.
import { toolHeadline } from "../tools/tool-headline.ts";
import type { ConversationMessage, ImageContent, TextContent } from "../pi-types.ts";
import { isMessageRow, type TranscriptRow } from "./transcript-rows.ts";

/** The text a row shows, for matching (not lower-cased); `messages` are those the rows were made from. */
export function rowSearchText(row: TranscriptRow, messages: readonly ConversationMessage[]): string {
  if (!isMessageRow(row)) return "";
  const message = messages[row];
  return message === undefined ? "" : messageSearchText(message);
}

function messageSearchText(message: ConversationMessage): string {
  switch (message.role) {
    case "user":
    case "custom":
      return contentText(message.content);
    case "assistant":
      return message.content
        .map((block) => (block.type === "text" ? block.text : block.type === "toolCall" ? toolCallHeadline(block.name, block.arguments) : ""))
        .filter((text) => text !== "")
        .join("\n");
    case "bashExecution":
      return `${message.command}\n${message.output}`;
    default:
      return "";
  }
}

function contentText(content: string | readonly (TextContent | ImageContent)[]): string {
  if (typeof content === "string") return content;
  return content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

/** What a tool card's one-line header shows it acting on (a command, a path). */
function toolCallHeadline(name: string, args: unknown): string {
  return toolHeadline({ name, args, text: "", details: undefined, failed: false, finished: false }).subject;
}

/** Indexes of the rows whose text contains `query` (ignoring case); none for a blank query. */
export function matchingRows(rows: readonly TranscriptRow[], messages: readonly ConversationMessage[], query: string): number[] {
  const needle = query.trim().toLocaleLowerCase();
  if (needle === "") return [];
  const found: number[] = [];
  rows.forEach((row, index) => {
    if (rowSearchText(row, messages).toLocaleLowerCase().includes(needle)) found.push(index);
  });
  return found;
}

/**
 * The places `query` occurs in the text under `root` (ignoring case), as DOM
 * ranges, skipping the app's own labels (elements marked `data-find-skip`:
 * copy buttons, message metadata) and hidden elements. Matches do not span
 * elements: "bold text" in "**bold** text" is not marked.
 */
export function textRanges(root: Node, query: string, limit = 1000): Range[] {
  const needle = query.trim().toLocaleLowerCase();
  if (needle === "") return [];
  const ranges: Range[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (node.parentElement?.closest("[data-find-skip], [hidden], [aria-hidden='true']") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  for (let node = walker.nextNode(); node !== null && ranges.length < limit; node = walker.nextNode()) {
    const text = (node.nodeValue ?? "").toLocaleLowerCase();
    for (let at = text.indexOf(needle); at !== -1 && ranges.length < limit; at = text.indexOf(needle, at + needle.length)) {
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      ranges.push(range);
    }
  }
  return ranges;
}
