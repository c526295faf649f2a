// axe-core (the engine behind Lighthouse's and Chrome's audits) on a page as
// it is now, in light and in dark. The specs that use it: accessibility.spec
// (the screens a newcomer goes through), replay.spec (a replayed session, an
// extension's dialog).
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "./pier.ts";

/** No axe violation on the page as it is now, in light and in dark (but for the rules `disabled` and the elements `excluded`). */
export async function expectAccessible(page: Page, where: string, disabled: string[] = [], excluded: string[] = []): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    // Reduced motion: app.css then drops transitions, so colours switch at once (no contrast measured mid-fade).
    await page.emulateMedia({ colorScheme, reducedMotion: "reduce" });
    // Legacy mode runs axe.run() in the page itself. The default runs it per
    // frame and then finishes in a new blank page, which costs ~1.5 s a call
    // here and the page has no frames of its own to reach. Both report the
    // same rules. Only violations are wanted: describing every passed node too
    // doubled the time of a call.
    const axe = new AxeBuilder({ page })
      .setLegacyMode(true)
      .options({ resultTypes: ["violations"] })
      .disableRules(disabled);
    for (const selector of excluded) axe.exclude(selector);
    const { violations } = await axe.analyze();
    const found = violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((node) => `${node.target.join(" ")} — ${node.failureSummary?.split("\n")[1]?.trim()}`).join("; ")}`);
    expect(found, `${where}, ${colorScheme}`).toEqual([]);
  }
}
