// Puts a long answer's finished blocks into the page in runs, one element
// each. (An item is the nodes of the blocks one update finished: usually
// one block, a few when a frame brought several.)
//
// Why: while an answer streams, its last block changes every frame, and the
// browser lays out again every child of the element that holds it. With
// hundreds of blocks side by side that is O(blocks) per frame and the
// frames of a long answer get slower and slower. In runs of RUN_SIZE, a
// frame touches the runs (a few dozen) and the blocks of the last one only.
// A run is a plain block box without padding or border, so the margins of
// the blocks on either side of a run boundary still collapse as before.
//
// The items are nodes (render-markdown.ts's renderBlocksToFragment), moved
// into the run once and never touched again: no HTML is parsed here.

/** Items per run: about the square root of a long answer's item count. */
export const RUN_SIZE = 32;

export class BlockRuns {
  readonly #host: Element;
  /** The runs go before this child of the host (the block being written). */
  readonly #before: Node;
  #last: HTMLElement | null = null;
  #inLast = 0;
  #runs = 0;

  constructor(host: Element, before: Node) {
    this.#host = host;
    this.#before = before;
  }

  /** How many runs the host holds. */
  get count(): number {
    return this.#runs;
  }

  /** Appends an item's nodes (the fragment is emptied) to the last run, or to a new one when it is full. */
  append(item: DocumentFragment): void {
    if (this.#last === null || this.#inLast === RUN_SIZE) {
      const run = this.#host.ownerDocument.createElement("div");
      // "first": the text's first block has no top margin (markdown.css).
      run.className = this.#runs === 0 ? "md-run first" : "md-run";
      this.#host.insertBefore(run, this.#before);
      this.#last = run;
      this.#inLast = 0;
      this.#runs++;
    }
    this.#last.append(item);
    this.#inLast++;
  }

  /** Removes every run (the text was rendered again from its start). */
  clear(): void {
    for (const run of this.#host.querySelectorAll(":scope > .md-run")) run.remove();
    this.#last = null;
    this.#inLast = 0;
    this.#runs = 0;
  }
}
