// An editor that opens by itself (a file chosen, Monaco done loading, a tab
// restored after a reload) takes the keyboard, unless a dialog has it: a
// question from pi (pi waits on its answer) must not lose the keyboard to a
// view that finished loading behind it.

/** True when the keyboard is in a dialog (pi's, or any modal of the page's). */
export function keyboardIsInADialog(): boolean {
  const active = document.activeElement;
  return active instanceof Element && active.closest('dialog, [role="dialog"], [role="alertdialog"]') !== null;
}
