// Svelte action: focus an element as soon as it can take the focus (dialogs
// move focus into themselves when they open, before the next key press).
// "Can" is checked, not assumed: an element in a dialog that is not shown yet
// (it goes to the top layer a moment later) ignores focus(), and the focus
// would stay on whatever was focused behind the dialog.
export function autofocus(node: HTMLElement, select = false): void {
  let frames = 0;
  const focus = () => {
    if (!node.isConnected) return;
    node.focus();
    if (document.activeElement !== node) {
      if (++frames <= 10) requestAnimationFrame(focus);
      return;
    }
    if (select && (node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement)) node.select();
  };
  focus();
}
