// Which records mark a live dialog withdrawn (dialog-evidence.ts). What pi
// really sends in each case is in withdrawn-dialogs.contract.test.ts.
import { describe, expect, it } from "vitest";
import {
  activeDialog,
  applyExtensionUiRequest,
  createExtensionUiState,
  keepAnswering,
  markReplaying,
  noteDialogEvidence,
  waitingCount,
  type ExtensionUiState,
} from "../src/lib/extension-ui/extension-ui-state.ts";

const confirm = (id: string) => ({ type: "extension_ui_request", id, method: "confirm", title: `Question ${id}?`, message: "" });
const prompt = { type: "response", command: "prompt", success: true };

function feed(ui: ExtensionUiState, ...records: object[]) {
  for (const record of records) {
    if ((record as { type: string }).type === "extension_ui_request") applyExtensionUiRequest(ui, record, 0);
    else noteDialogEvidence(ui, record);
  }
}
const withdrawn = (ui: ExtensionUiState) => ui.dialogs.map((d) => d.withdrawn);

describe("a live dialog pi moved past", () => {
  it("outside a run: a prompt answered after it opened (its /command returned)", () => {
    const ui = createExtensionUiState();
    feed(ui, confirm("a"));
    expect(withdrawn(ui)).toEqual([null]);
    feed(ui, { type: "response", command: "get_state", success: true }, { type: "agent_start" }, { type: "agent_settled" });
    expect(withdrawn(ui)).toEqual([null]);
    feed(ui, prompt);
    expect(withdrawn(ui)).toEqual(["command-finished"]);
  });

  it("during a run: once that run settled (a tool_call hook held it); a steer answered meanwhile proves nothing", () => {
    const ui = createExtensionUiState();
    feed(ui, { type: "agent_start" }, confirm("a"), prompt);
    expect(withdrawn(ui)).toEqual([null]);
    feed(ui, { type: "agent_settled" });
    expect(withdrawn(ui)).toEqual(["run-ended"]);
  });

  it("opened while a prompt of this page's was in flight (its /command): once that prompt is answered, whatever the run does", () => {
    const ui = createExtensionUiState();
    feed(ui, { type: "agent_start" });
    applyExtensionUiRequest(ui, confirm("a"), 0, ["mine-1"]);
    feed(ui, { type: "agent_settled" }, { ...prompt, id: "someone-else" });
    expect(withdrawn(ui)).toEqual([null]);
    feed(ui, { ...prompt, id: "mine-1" });
    expect(withdrawn(ui)).toEqual(["command-finished"]);
  });

  it("a prompt answered before the dialog opened proves nothing", () => {
    const ui = createExtensionUiState();
    feed(ui, prompt, confirm("a"));
    expect(withdrawn(ui)).toEqual([null]);
  });

  it("replayed dialogs are left to the replay rules; kept ones are never marked again", () => {
    const ui = createExtensionUiState();
    markReplaying(ui);
    feed(ui, confirm("old"), prompt);
    expect(withdrawn(ui)).toEqual([null]);

    const live = createExtensionUiState();
    feed(live, confirm("a"), prompt);
    keepAnswering(live, "a");
    expect(withdrawn(live)).toEqual([null]);
    feed(live, { type: "agent_start" }, { type: "agent_settled" }, prompt);
    expect(withdrawn(live)).toEqual([null]);
  });

  it("a dialog pi still waits for is shown before a withdrawn one, and only those count as waiting", () => {
    const ui = createExtensionUiState();
    feed(ui, confirm("a"), prompt, confirm("b"), confirm("c"));
    expect(withdrawn(ui)).toEqual(["command-finished", null, null]);
    expect(activeDialog(ui)?.id).toBe("b");
    expect(waitingCount(ui)).toBe(1);
    ui.dialogs.splice(1, 2);
    expect(activeDialog(ui)?.id).toBe("a");
    expect(waitingCount(ui)).toBe(0);
  });
});
