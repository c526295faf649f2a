// Highlights long code for the page (see highlight.ts): highlight.js on a
// file of thousands of lines takes a good part of a second of one thread.
import { highlightWith } from "./grammars.ts";
import type { HighlightLanguage } from "./languages.ts";

export type HighlightRequest = { id: number; code: string; language: HighlightLanguage };
export type HighlightAnswer = { id: number; html: string | null };

self.onmessage = async (event: MessageEvent<HighlightRequest>) => {
  const { id, code, language } = event.data;
  const answer: HighlightAnswer = { id, html: await highlightWith(code, language) };
  self.postMessage(answer);
};
