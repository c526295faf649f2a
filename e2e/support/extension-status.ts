// Extension status entries live behind one header chip (ExtensionStatus.svelte):
// a spec opens it, checks the entries, and closes it again.
import { expect, type Page } from "@playwright/test";

/** The header chip; absent while no extension has set a status. */
export const statusChip = (page: Page) => page.getByRole("button", { name: /^Extension status/ });

/** Opens the chip's popover, expects every text among the entries, and closes it. */
export async function expectExtensionStatus(page: Page, ...texts: string[]): Promise<void> {
  await statusChip(page).click();
  const entries = page.getByRole("dialog", { name: "Extension status" }).getByRole("list", { name: "Extension status entries" });
  for (const text of texts) await expect(entries).toContainText(text);
  await page.keyboard.press("Escape");
  await expect(entries).toBeHidden();
}
