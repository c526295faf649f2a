// Which of the page's own dialogs is open (Settings, the keyboard shortcuts
// list): one at a time, opened from a menu or a key, drawn by
// components/settings/PageDialogs.svelte.
export type PageDialog = "settings" | "shortcuts";

export const pageDialogs: { open: PageDialog | null } = $state({ open: null });

export function openPageDialog(which: PageDialog): void {
  pageDialogs.open = which;
}

export function closePageDialog(): void {
  pageDialogs.open = null;
}
