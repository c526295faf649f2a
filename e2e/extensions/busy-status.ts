// Test extension for e2e/specs/extension-status.spec.ts: sets several long
// status entries as pi starts (ctx.ui.setStatus), the way a few busy
// extensions together fill a header, and changes or clears one on demand.
// Loaded with `pier … -- -e <this file>`.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export const STATUSES: Record<string, string> = {
  "build-watch": "Build watcher: 3 files changed since the last green build of the web package",
  "git-sync": "Git: 2 commits ahead of origin/main, 1 behind, working tree has uncommitted changes",
  "test-runner": "Tests: 412 passed, 3 skipped, 0 failed in the last run (unit and contract projects)",
  "token-budget": "Budget: 61% of today's token allowance used across all sessions on this machine",
};

export default function (pi: ExtensionAPI) {
  pi.on("session_start", async (_event, ctx) => {
    for (const [key, text] of Object.entries(STATUSES)) ctx.ui.setStatus(key, text);
  });

  pi.registerCommand("status-clear", {
    description: "clear one status entry (its key as the argument)",
    handler: async (args, ctx) => {
      ctx.ui.setStatus(args.trim(), undefined);
    },
  });
}
