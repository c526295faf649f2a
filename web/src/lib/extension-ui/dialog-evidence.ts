// When an extension stops waiting for one of its dialogs, pi says nothing:
// the dialog's promise resolves to its default on the extension's
// AbortSignal (its own, or the run's ctx.signal on abort) or its timeout, and
// an answer sent afterwards is dropped without a reply (rpc-mode.js, pi
// 0.87.1 and 1.6.0: web/test/withdrawn-dialogs.contract.test.ts). What a client
// can see is what follows, the same evidence for live dialogs here as for
// replayed ones (settledInReplay, in extension-ui-state.ts), by where the
// dialog came from:
// - opened while a prompt of this page's was in flight (its /command): that
//   prompt's answer (pi answers a /command's prompt only once its handler
//   returned, whether or not a run went on meanwhile);
// - else opened during a run (a tool_call hook, which holds the run until it
//   returns): that run's `agent_settled`;
// - else (another browser's /command, a hook outside runs): any prompt
//   answered after it opened.
// Strong evidence, not proof (a dialog an extension did not await; another
// browser's /command run mid-run), so a live dialog is only marked
// `withdrawn`, never removed: the page says so, offers Close, and answers
// only if the person insists (keepAnswering).

import type { DialogEvidence, ExtensionUiState, PendingDialog } from "./extension-ui-state.ts";

/** Feed every pi stdout record (the session reducer does, replay included). */
export function noteDialogEvidence(ui: ExtensionUiState, value: unknown): void {
  if (typeof value !== "object" || value === null) return;
  const record = value as Record<string, unknown>;
  switch (record["type"]) {
    case "agent_start":
      ui.running = true;
      return;
    case "agent_settled":
      ui.running = false;
      for (const dialog of ui.dialogs) dialog.evidence.runSettled = true;
      break;
    case "response": {
      if (record["command"] !== "prompt") return;
      const id = record["id"];
      for (const dialog of ui.dialogs) {
        dialog.evidence.promptAnswered = true;
        if (dialog.evidence.ownPrompts.includes(id as string)) dialog.evidence.ownPromptAnswered = true;
      }
      break;
    }
    default:
      return;
  }
  for (const dialog of ui.dialogs) {
    if (dialog.replayed || dialog.withdrawn !== null || dialog.keptOpen) continue;
    dialog.withdrawn = withdrawnBy(dialog.evidence);
  }
}

function withdrawnBy(evidence: DialogEvidence): PendingDialog["withdrawn"] {
  if (evidence.ownPrompts.length > 0) return evidence.ownPromptAnswered ? "command-finished" : null;
  if (evidence.openedInRun) return evidence.runSettled ? "run-ended" : null;
  return evidence.promptAnswered ? "command-finished" : null;
}

/** The person wants to answer a withdrawn dialog anyway (the evidence may be wrong): it is a plain dialog again, for good. */
export function keepAnswering(ui: ExtensionUiState, id: string): void {
  const dialog = ui.dialogs.find((d) => d.id === id);
  if (!dialog) return;
  dialog.withdrawn = null;
  dialog.keptOpen = true;
}
