// Svelte action for pi's dialogs: they come to the top of the page, whatever
// is open (the Sessions panel, a popover, the inspector sheet, a phone's
// editor pane, the Share dialog), because pi waits on the answer.
//
// z-index cannot promise that (the Share dialog is a modal <dialog> in the
// browser's top layer, above any z-index; the chat column this is mounted in
// is display:none on a phone showing the editor), so the dialog moves to
// <body> and into the top layer itself:
// - as a manual popover: on top, and the page behind stays usable (the
//   conversation keeps streaming and scrolling behind a question);
// - as a modal dialog when a modal <dialog> is already open: that modal makes
//   everything outside it inert, popovers above it included, so only a modal
//   opened after it is both on top and clickable.
// `key` is the dialog's id: the next queued dialog is raised again, in case
// something was opened over the previous one.
export function showOnTop(node: HTMLDialogElement, _key: unknown): { update(key: unknown): void; destroy(): void } {
  document.body.append(node);
  raise(node);
  return {
    update: () => raise(node),
    // Svelte removes the component's own root, not this node that moved out of it.
    destroy: () => node.remove(),
  };
}

function raise(node: HTMLDialogElement): void {
  if (node.open) node.close();
  if (node.matches(":popover-open")) node.hidePopover();
  if (document.querySelector("dialog:modal")) node.showModal();
  else node.showPopover();
}
