// Words in a text that keeps growing (a thought while it streams): counting
// all of it again on every frame would be O(length) each time, so only what
// was appended since the last count is counted. A word is a run of
// non-whitespace; a run cut by the previous count's end is not counted twice.

const WORD = /\S+/g;
const SPACE_AT_START = /^\s/;
const SPACE_AT_END = /\s$/;

function countRuns(text: string): number {
  return text.match(WORD)?.length ?? 0;
}

export class GrowingWordCount {
  #text = "";
  #words = 0;

  /** Words in `text`; O(appended text) when it extends the text counted last. */
  count(text: string): number {
    if (text === this.#text) return this.#words;
    if (text.length > this.#text.length && text.startsWith(this.#text)) {
      const added = text.slice(this.#text.length);
      let words = countRuns(added);
      // A word the previous text ended in, continued by the new text.
      if (words > 0 && this.#text !== "" && !SPACE_AT_END.test(this.#text) && !SPACE_AT_START.test(added)) words--;
      this.#words += words;
    } else {
      this.#words = countRuns(text);
    }
    this.#text = text;
    return this.#words;
  }
}
