// Test extension for e2e/specs/sessions*.spec.ts: an extension that moves pi
// to another session on its own (the browser must follow), one that can
// refuse switches and forks (the browser must say so and lose nothing), and
// one that branches the session tree and labels an entry (so the tree has
// branches, labels and a branch summary to show). Loaded with
// `pier … -- -e <this file>`.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  let guard = false;

  pi.registerCommand("probe-guard", {
    description: "on: refuse every session switch and fork; off: allow them again",
    handler: async (args, ctx) => {
      guard = args.trim() === "on";
      ctx.ui.notify(`guard ${guard ? "on" : "off"}`, "info");
    },
  });

  pi.on("session_before_switch", async () => (guard ? { cancel: true } : undefined));
  pi.on("session_before_fork", async () => (guard ? { cancel: true } : undefined));

  pi.registerCommand("probe-new-session", {
    description: "start a new session from the extension (no RPC command says so)",
    handler: async (_args, ctx) => {
      await ctx.newSession();
    },
  });

  pi.registerCommand("probe-branch", {
    description: "go back to the first user message's parent with a summary, and label the first answer",
    handler: async (_args, ctx) => {
      const entries = ctx.sessionManager.getEntries();
      const firstAnswer = entries.find((e) => e.type === "message" && e.message.role === "assistant");
      if (firstAnswer) pi.setLabel(firstAnswer.id, "checkpoint");
      const firstUser = entries.find((e) => e.type === "message" && e.message.role === "user");
      if (firstAnswer) await ctx.navigateTree(firstAnswer.id, { summarize: false });
      ctx.ui.notify(firstUser ? "branched" : "nothing to branch", "info");
    },
  });
}
