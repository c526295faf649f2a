// Test extension for e2e/specs/withdrawn-dialogs.spec.ts and
// web/test/withdrawn-dialogs.contract.test.ts: questions the extension itself
// stops waiting for. pi says nothing on the wire when that happens: the
// dialog's promise resolves to its default (confirm: false) and a later
// answer is dropped. Loaded with `pier … -- -e <this file>`.
// - /ask-briefly [ms] asks a confirm with an AbortSignal it aborts after ms
//   (default 1500), like pi's own examples/extensions/timed-confirm.ts.
// - A bash tool call whose command mentions "needs-approval" is held by a
//   confirm tied to the run's signal (ctx.signal): aborting the run withdraws it.
// Every outcome is reported through a notify, so tests can read it.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  pi.registerCommand("ask-briefly", {
    description: "confirm() withdrawn by the extension's own AbortSignal after a moment",
    handler: async (args, ctx) => {
      const ms = Number.parseInt(String(args ?? "").trim(), 10);
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), Number.isFinite(ms) && ms > 0 ? ms : 1500);
      const yes = await ctx.ui.confirm("Keep this question open?", "The extension withdraws it after a moment.", { signal: controller.signal });
      clearTimeout(timer);
      ctx.ui.notify(controller.signal.aborted ? "briefly → withdrawn by the extension" : `briefly → ${yes}`, controller.signal.aborted ? "warning" : "info");
    },
  });

  pi.on("tool_call", async (event, ctx) => {
    if (event.toolName !== "bash" || !JSON.stringify(event.input).includes("needs-approval")) return undefined;
    const yes = await ctx.ui.confirm("Run this command?", "It needs approval.", { signal: ctx.signal });
    ctx.ui.notify(ctx.signal?.aborted ? "approval → withdrawn (run aborted)" : `approval → ${yes}`, "info");
    return yes ? undefined : { block: true, reason: "Not approved" };
  });
}
