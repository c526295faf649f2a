// Renders a Markdown text that keeps growing (an answer while it streams)
// without re-rendering all of it every frame.
//
// The text is cut into top-level blocks by marked's own lexer, so a cut is
// never where Markdown does not put one (inside a code fence, a list that
// goes on after a blank line…). A block counts as finished only when a
// blank line and the start of another block follow it: marked decides where
// a block ends by looking at the lines after it, and without a blank line in
// between a line still being written can change that decision (a paragraph
// that turns out to continue through a would-be list item or table row). Finished blocks are rendered and sanitized once
// and kept as HTML; only the rest (the block being written, usually one
// paragraph or one code block) is lexed and rendered again on each update.
// An update costs that rest plus a memory compare of the text, not a parse
// of the whole.
//
// The blocks render exactly as renderMarkdown renders the whole text (same
// renderer, same sanitizer; tested on many texts cut at every point), with
// one exception: a link reference definition (`[x]: https://…`) also
// applies to the links written before it, which a finished block cannot
// know about. After one, `exact` is false, and the caller renders the
// finished text whole once.
//
// The block being written can itself be long: a list or a table of a
// thousand rows is one block, and so is a long code fence. Rendering it
// again at every frame would then cost more than the frame (a 2,000-item
// list: tasks of 100–200 ms, 20 frames a second). `wait` paces those
// renders by what they cost (see RENDER_SHARE); a short block is rendered
// at every update, as before.

import type { Links, Token } from "marked";
import { markdownBlocks, renderBlocks } from "./render-markdown.ts";

/** Renders top-level blocks (sanitized): to HTML (renderBlocks), or to nodes (renderBlocksToFragment). */
export type BlockRenderer<T> = (blocks: Token[]) => T;

const ENDS_WITH_BLANK_LINE = /\n[ \t]*\n[ \t]*$/;

/**
 * After a render, the next one waits this many times as long as renders
 * take (the median of the last few, so one slow render, a garbage
 * collection say, does not slow the text down): what the page then does
 * with the HTML (patching the nodes in, layout) costs about as much as the
 * render again or more, so a long block's renders take at most about a
 * quarter of the time.
 */
const RENDER_SHARE = 3;
const COSTS_KEPT = 5;

/**
 * How many of the leading blocks are finished: all blocks before the last
 * one that is followed by a blank line and then by the start of another
 * block (see above). After a list, that block's first line must also be
 * complete: "2" after "1. a" and a blank line may yet become "2. b", an item
 * of the same (loose) list. Nothing else continues across a blank line with
 * text at the margin.
 */
function finishedCount(tokens: readonly Token[], text: string): number {
  let start = text.length;
  for (let j = tokens.length - 1; j >= 1; j--) {
    start -= tokens[j]!.raw.length;
    if (tokens[j]!.type === "space") continue;
    let previous = j - 1;
    const blankBetween = tokens[previous]!.type === "space" || ENDS_WITH_BLANK_LINE.test(tokens[previous]!.raw);
    while (previous > 0 && tokens[previous]!.type === "space") previous--;
    const afterList = tokens[previous]!.type === "list";
    if (blankBetween && (!afterList || text.indexOf("\n", start) !== -1)) return j;
  }
  return 0;
}

/** Adds the link reference definitions among `tokens` (at any depth) to `links`; the first of a label wins, as in marked. */
function learnDefinitions(tokens: readonly Token[], links: Links): void {
  for (const token of tokens) {
    if (token.type === "def") {
      if (!(token.tag in links)) links[token.tag] = { href: token.href, title: token.title };
    } else if ("tokens" in token && Array.isArray(token.tokens)) {
      learnDefinitions(token.tokens, links);
    } else if (token.type === "list") {
      for (const item of token.items) learnDefinitions(item.tokens, links);
    }
  }
}

/**
 * `T`: what a render gives, sanitized HTML by default. The page asks for
 * nodes (MarkdownView.svelte): each finished item and each tail is then put
 * into the page once.
 */
export class LiveMarkdown<T = string> {
  /** The finished blocks rendered, in text order (an item per update that finished some); only ever appended to (or emptied by a reset). */
  readonly blocks: T[] = [];
  /** The rest of the text, rendered. */
  tail: T;
  /** Bumped when the text was rendered from its start again (`blocks` emptied): a caller holding what it showed starts over. */
  resets = 0;
  /** The text the blocks and tail were rendered from. */
  #text = "";
  /** How much of #text the finished blocks cover. */
  #done = 0;
  /** Link reference definitions in the finished blocks (the rest is lexed knowing them). */
  #links: Links = {};
  #sawDefinition = false;
  readonly #clock: () => number;
  /** The last renders' durations (ms), newest last; and when the last one ended. */
  #costs: number[] = [];
  #renderedAt = -Infinity;

  readonly #renderBlocks: BlockRenderer<T>;

  constructor(clock: () => number = () => performance.now(), render: BlockRenderer<T> = renderBlocks as unknown as BlockRenderer<T>) {
    this.#clock = clock;
    this.#renderBlocks = render;
    this.tail = render([]);
  }

  /**
   * How long to wait, in ms, before rendering a changed text is worth it (0:
   * now). For a caller that updates while the text streams: it renders the
   * newest text after that wait, or at the next change after it.
   */
  wait(): number {
    if (this.#costs.length === 0) return 0;
    const costs = [...this.#costs].sort((a, b) => a - b);
    const typical = costs[costs.length >> 1]!;
    return Math.max(0, this.#renderedAt + typical * RENDER_SHARE - this.#clock());
  }

  /** The text last rendered. */
  get text(): string {
    return this.#text;
  }

  /** blocks + tail render the text exactly as renderMarkdown would (see above). */
  get exact(): boolean {
    return !this.#sawDefinition;
  }

  /** Render `text`: incrementally when it extends the text rendered before, else from scratch. */
  update(text: string): void {
    if (text === this.#text) return;
    const startedAt = this.#clock();
    this.#render(text);
    this.#renderedAt = this.#clock();
    this.#costs.push(this.#renderedAt - startedAt);
    if (this.#costs.length > COSTS_KEPT) this.#costs.shift();
  }

  #render(text: string): void {
    if (text.length < this.#done || !text.startsWith(this.#text.slice(0, this.#done))) this.#reset();
    this.#text = text;
    const rest = text.slice(this.#done);
    const tokens = markdownBlocks(rest, this.#links);
    // Definitions anywhere (also inside a quote or a list) land in the lexer's links.
    if (Object.keys(tokens.links).length > Object.keys(this.#links).length) this.#sawDefinition = true;
    const cut = finishedCount(tokens, rest);
    let finishedLength = 0;
    for (let i = 0; i < cut; i++) finishedLength += tokens[i]!.raw.length;
    const finished = tokens.slice(0, cut);
    // The raws must be the text itself (marked rewrites CR LF, for instance):
    // otherwise nothing is cut this time, and the whole rest renders as the tail.
    if (cut > 0 && rest.startsWith(finished.map((token) => token.raw).join(""))) {
      this.blocks.push(this.#renderBlocks(finished));
      this.#done += finishedLength;
      learnDefinitions(finished, this.#links);
      this.tail = this.#renderBlocks(tokens.slice(cut));
    } else {
      this.tail = this.#renderBlocks(tokens);
    }
  }

  #reset(): void {
    this.resets++;
    this.blocks.length = 0;
    this.tail = this.#renderBlocks([]);
    this.#text = "";
    this.#done = 0;
    this.#links = {};
    this.#sawDefinition = false;
  }
}
