// A revert from the hunk review meets the editor (revert-conflict.ts): a
// refused revert's offer opens the conflict view (disk's text left, the
// revert's as an unsaved, undoable edit right) and either choice ends right;
// unsaved edits are never replaced; a revert written under unsaved edits
// shows them beside the reverted file.
import { describe, expect, it } from "vitest";
import { DiffsStore } from "../../src/lib/workspace/diffs-store.svelte.ts";
import { saveDocument, takeTheirs } from "../../src/lib/workspace/document-saving.ts";
import { DocumentsStore } from "../../src/lib/workspace/documents-store.svelte.ts";
import { FilesApiError } from "../../src/lib/workspace/files-api.ts";
import { openRevertConflict, revertOfferOf, showRevertOverUnsaved } from "../../src/lib/workspace/revert-conflict.ts";
import type { WorkbenchContext } from "../../src/lib/workspace/workbench-context.ts";
import { MemoryWorkspace, settle } from "./support/memory-files-api.ts";
import { modelFactory } from "./support/text-model.ts";

function setup(files: Record<string, string>) {
  const ws = new MemoryWorkspace(files);
  const store = new DocumentsStore(ws.api, new DiffsStore(ws.api), { fileActivated: () => {}, emptied: () => {} });
  const context: WorkbenchContext = { notify: () => {}, canDrive: () => true };
  return { ws, store, context, models: modelFactory() };
}

const offerFor = (ws: MemoryWorkspace, reverted: string) => ({ current: { content: ws.content("a.ts")!, version: ws.version("a.ts")! }, reverted });

describe("a revert's offer in the conflict view", () => {
  it("opens a file not open yet: disk left, the revert right as an unsaved edit; taking it saves at the disk's version", async () => {
    const { ws, store, context, models } = setup({ "a.ts": "top\nchanged\n" });
    expect(await openRevertConflict(store, "a.ts", offerFor(ws, "top\nold\n"))).toBe("opened");
    const doc = store.docs["a.ts"]!;
    expect(doc.conflict).toEqual({ content: "top\nchanged\n", version: ws.version("a.ts"), merging: false, origin: "revert" });
    expect(doc.dirty).toBe(true);
    expect(store.activeTab?.path).toBe("a.ts");
    // The editor shows the file: its model is made from the disk's text, then given the revert's.
    const model = store.modelFor(models.make, "a.ts")!;
    expect(model.getValue()).toBe("top\nold\n");
    expect(ws.content("a.ts")).toBe("top\nchanged\n");
    expect(await saveDocument(store, context, "a.ts")).toBe(true);
    expect(ws.content("a.ts")).toBe("top\nold\n");
    expect(doc.conflict).toBeNull();
  });

  it("keep the disk's: the buffer goes back to the disk's text, clean, and the disk is untouched", async () => {
    const { ws, store, models } = setup({ "a.ts": "now\n" });
    store.open("a.ts");
    await settle();
    const model = store.modelFor(models.make, "a.ts")!;
    expect(await openRevertConflict(store, "a.ts", offerFor(ws, "before\n"))).toBe("opened");
    expect(model.getValue()).toBe("before\n");
    const version = ws.version("a.ts");
    takeTheirs(store, "a.ts");
    expect(model.getValue()).toBe("now\n");
    expect(store.docs["a.ts"]).toMatchObject({ dirty: false, conflict: null, version });
    expect(ws.content("a.ts")).toBe("now\n");
  });

  it("taking the revert after the disk moved again is refused like any save: the conflict stays a revert's", async () => {
    const { ws, store, context, models } = setup({ "a.ts": "now\n" });
    const offer = offerFor(ws, "before\n");
    await openRevertConflict(store, "a.ts", offer);
    store.modelFor(models.make, "a.ts");
    ws.write("a.ts", "moved again\n");
    expect(await saveDocument(store, context, "a.ts")).toBe(false);
    expect(ws.content("a.ts")).toBe("moved again\n");
    expect(store.docs["a.ts"]!.conflict).toMatchObject({ content: "moved again\n", origin: "revert" });
  });

  it("a whole file's offer is worded as a file's, and taking it after the disk moved again is refused the same way", async () => {
    const { ws, store, context, models } = setup({ "a.ts": "saved meanwhile\n" });
    expect(await openRevertConflict(store, "a.ts", offerFor(ws, "as staged\n"), "file")).toBe("opened");
    expect(store.docs["a.ts"]!.conflict).toMatchObject({ content: "saved meanwhile\n", origin: "revert-file" });
    expect(store.modelFor(models.make, "a.ts")!.getValue()).toBe("as staged\n");
    ws.write("a.ts", "a third change\n");
    expect(await saveDocument(store, context, "a.ts")).toBe(false);
    expect(ws.content("a.ts")).toBe("a third change\n");
    expect(store.docs["a.ts"]!.conflict).toMatchObject({ content: "a third change\n", origin: "revert-file" });
  });

  it("never replaces unsaved edits", async () => {
    const { ws, store, models } = setup({ "a.ts": "now\n" });
    store.open("a.ts");
    await settle();
    store.modelFor(models.make, "a.ts");
    const model = models.models.get("a.ts")!;
    model.type("my edits\n");
    expect(await openRevertConflict(store, "a.ts", offerFor(ws, "before\n"))).toBe("unsaved");
    expect(model.getValue()).toBe("my edits\n");
    expect(store.docs["a.ts"]!.conflict).toBeNull();
  });

  it("reads the offer only from a stale_change that carries one", () => {
    const offer = { current: { content: "a", version: "v" }, reverted: "b" };
    expect(revertOfferOf(new FilesApiError(409, "stale_change", "moved", { error: {}, revert: offer }))).toEqual(offer);
    expect(revertOfferOf(new FilesApiError(409, "stale_change", "moved", { error: {} }))).toBeNull();
    expect(revertOfferOf(new FilesApiError(409, "conflict", "moved", { revert: offer }))).toBeNull();
    expect(revertOfferOf(new FilesApiError(409, "stale_change", "moved", { revert: { current: { content: null, version: null }, reverted: "b" } }))).toBeNull();
  });
});

describe("a revert written under unsaved edits", () => {
  it("opens the conflict view at once: the reverted file left, the edits right", async () => {
    const { ws, store, models } = setup({ "a.ts": "agent's line\n" });
    store.open("a.ts");
    await settle();
    store.modelFor(models.make, "a.ts");
    const model = models.models.get("a.ts")!;
    model.type("agent's line\nmy line\n");
    ws.write("a.ts", "original line\n");
    await showRevertOverUnsaved(store, "a.ts");
    expect(store.docs["a.ts"]!.conflict).toEqual({ content: "original line\n", version: ws.version("a.ts"), merging: false, origin: "reverted" });
    expect(store.docs["a.ts"]!.diskChanged).toBeNull();
    expect(model.getValue()).toBe("agent's line\nmy line\n");
  });

  it("leaves a clean file to the usual disk-change handling", async () => {
    const { ws, store, models } = setup({ "a.ts": "x\n" });
    store.open("a.ts");
    await settle();
    store.modelFor(models.make, "a.ts");
    ws.write("a.ts", "y\n");
    await showRevertOverUnsaved(store, "a.ts");
    expect(store.docs["a.ts"]!.conflict).toBeNull();
  });
});
