// The probe bench/classroom-pages.bench.ts puts in every page (driver and
// viewers) with addInitScript, before the page's own scripts: a
// MutationObserver on the conversation that notes, per delta marker
// (bench/support/stream-scenario.ts: "m00042"), when it first appeared in the
// DOM (performance.timeOrigin + now, so comparable with the bench's clock).
// After each DOM change it reads only the last few text nodes of the live
// answer, so its cost does not grow with the answer (bench/stream.bench.ts
// measures the same way). The text only grows: every marker up to the last
// one found is visible from then on.
//
// Plain TypeScript with erasable types only: Node runs it with type stripping.
// The function is serialised into the page: it must not use anything from
// outside its own body.

export interface ProbeResult {
  /** Per delta, epoch ms at which its marker was first in the DOM (null: never). */
  visible: (number | null)[];
  /** document.visibilityState at the end: a hidden page would be throttled. */
  visibility: string;
}

export function classroomProbe(total: number): void {
  const now = () => performance.timeOrigin + performance.now();
  const visible = new Float64Array(total).fill(NaN);
  let highest = -1;
  const markerPattern = /m(\d{5})/g;
  const lastMarker = (root: Element): number => {
    let node: Node = root;
    while (node.lastChild) node = node.lastChild;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    walker.currentNode = node;
    let text: Node | null = node.nodeType === Node.TEXT_NODE ? node : walker.previousNode();
    let best = -1;
    // The meta line (model, tokens) comes after the text: look a few nodes back.
    for (let i = 0; text !== null && i < 40 && best === -1; i++, text = walker.previousNode()) {
      for (const match of (text as Text).data.matchAll(markerPattern)) best = Math.max(best, Number(match[1]));
    }
    return best;
  };
  const scan = (column: Element): void => {
    const answers = column.querySelectorAll('article[aria-label="pi"]');
    const last = answers[answers.length - 1];
    if (!last) return;
    const found = lastMarker(last);
    if (found <= highest) return;
    const at = now();
    for (let k = highest + 1; k <= Math.min(found, total - 1); k++) visible[k] = at;
    highest = found;
  };
  const attach = () => {
    const column = document.querySelector('[role="log"][aria-label="Conversation"]');
    if (!column) return void setTimeout(attach, 100);
    new MutationObserver(() => scan(column)).observe(column, { childList: true, subtree: true, characterData: true });
  };
  if (document.readyState === "loading") addEventListener("DOMContentLoaded", attach);
  else attach();
  (window as unknown as { __classroom: unknown }).__classroom = {
    highest: () => highest,
    result: () => ({ visible: Array.from(visible, (at) => (Number.isNaN(at) ? null : at)), visibility: document.visibilityState }),
  };
}
