// Test extension for e2e/specs/notifications.spec.ts: says something as pi
// starts (a notify and a failure in session_start, which only reach a page
// through the relay's replay: pi starts before any page connects), and
// sends more notifications on demand than fit on screen as toasts.
// Loaded with `pier … -- -e <this file>`.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  pi.on("session_start", async (_event, ctx) => {
    ctx.ui.notify("Hello from session_start: the probe is ready", "warning");
  });

  // A second handler, so the notify above is sent whatever pi does with a throwing one.
  pi.on("session_start", async () => {
    throw new Error("the start probe failed on purpose");
  });

  pi.registerCommand("notice-many", {
    description: "six notifications at once (more than the four toasts on screen)",
    handler: async (_args, ctx) => {
      for (let i = 1; i <= 6; i++) ctx.ui.notify(`Batch notice ${i} of 6`, "info");
    },
  });
}
