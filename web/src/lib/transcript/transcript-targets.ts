// Transcript elements as link targets, and back: a row carries
// `data-message-index` (or `data-marker-seq`), a block of an answer
// `data-block`, a tool card `data-tool-call-id`. The inspector's records
// name the same things (wire-log/meaning.ts's targets are these).

/** A transcript element: a message (or one block of it), a tool card, a marker. */
export type LinkTarget = { kind: "message"; index: number; block?: number } | { kind: "tool"; toolCallId: string } | { kind: "marker"; seq: number };

/** Is `index` (a message) outlined as a whole? */
export function messageLinked(highlight: LinkTarget | null, index: number): boolean {
  return highlight?.kind === "message" && highlight.index === index && highlight.block === undefined;
}

/** Is block `block` of message `index` outlined? */
export function blockLinked(highlight: LinkTarget | null, index: number, block: number): boolean {
  return highlight?.kind === "message" && highlight.index === index && highlight.block === block;
}

/** The element a click landed in, as a target (for Alt+click → inspect). */
export function targetOfElement(element: Element | null): LinkTarget | null {
  const tool = element?.closest<HTMLElement>("[data-tool-call-id]");
  if (tool) return { kind: "tool", toolCallId: tool.dataset["toolCallId"]! };
  const row = element?.closest<HTMLElement>("[data-message-index], [data-marker-seq]");
  if (!row) return null;
  if (row.dataset["markerSeq"] !== undefined) return { kind: "marker", seq: Number(row.dataset["markerSeq"]) };
  const index = Number(row.dataset["messageIndex"]);
  const block = element?.closest<HTMLElement>("[data-block]");
  return block && row.contains(block) ? { kind: "message", index, block: Number(block.dataset["block"]) } : { kind: "message", index };
}

/** The element a target names, inside `root` (rendered rows only). */
export function elementOfTarget(root: ParentNode, target: LinkTarget): HTMLElement | null {
  switch (target.kind) {
    case "tool":
      return root.querySelector<HTMLElement>(`[data-tool-call-id="${CSS.escape(target.toolCallId)}"]`);
    case "marker":
      return root.querySelector<HTMLElement>(`[data-marker-seq="${target.seq}"]`);
    case "message": {
      const row = root.querySelector<HTMLElement>(`[data-message-index="${target.index}"]`);
      if (row === null || target.block === undefined) return row;
      return row.querySelector<HTMLElement>(`[data-block="${target.block}"]`) ?? row;
    }
  }
}
