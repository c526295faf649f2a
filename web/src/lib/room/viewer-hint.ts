// What a disabled control says to a viewer: why, and what to do instead.
export const VIEWER_HINT = "Viewers can't change this — you are watching; ask the driver, or suggest a prompt.";

/** "Viewers can't run shell commands — ask the driver." */
export function viewersCant(what: string): string {
  return `Viewers can't ${what} — ask the driver.`;
}
