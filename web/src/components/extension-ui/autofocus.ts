// Svelte action: focus an element as soon as it is in the document (dialogs
// move focus into themselves when they open, before the next key press).
export function autofocus(node: HTMLElement, select = false): void {
  const focus = () => {
    if (!node.isConnected) return false;
    node.focus();
    if (select && (node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement)) node.select();
    return true;
  };
  if (!focus()) requestAnimationFrame(focus);
}
