// Esc closes what has the keyboard. Panels that catch Esc on the window, on
// the way down (the Sessions panel, popovers), leave it alone when the focus
// is in another dialog opened over them, such as a question from pi: that Esc
// is the dialog's (a cancel pi hears about), not a reason to close the panel.

/** True when `event` comes from inside a dialog other than `own`. */
export function escapeBelongsToAnotherDialog(event: KeyboardEvent, own: Element | undefined): boolean {
  const target = event.target instanceof Element ? event.target : null;
  if (!target || own?.contains(target)) return false;
  return target.closest('dialog, [role="dialog"], [role="alertdialog"]') !== null;
}
