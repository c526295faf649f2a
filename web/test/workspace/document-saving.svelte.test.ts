import { describe, expect, it } from "vitest";
import { DiffsStore } from "../../src/lib/workspace/diffs-store.svelte.ts";
import { compareWithDisk, dismissDiskChange, saveDocument, startMerge, takeTheirs } from "../../src/lib/workspace/document-saving.ts";
import { DocumentsStore } from "../../src/lib/workspace/documents-store.svelte.ts";
import { FilesApiError } from "../../src/lib/workspace/files-api.ts";
import type { WorkbenchContext } from "../../src/lib/workspace/workbench-context.ts";
import { MemoryWorkspace, settle } from "./support/memory-files-api.ts";
import { modelFactory } from "./support/text-model.ts";

async function openEdited(files: Record<string, string>, path: string, text: string, options: { driver?: boolean } = {}) {
  const ws = new MemoryWorkspace(files);
  const notes: string[] = [];
  const context: WorkbenchContext = { notify: (level, title, message) => notes.push(`${level}: ${title}: ${message}`), canDrive: () => options.driver ?? true };
  const store = new DocumentsStore(ws.api, new DiffsStore(ws.api), { fileActivated: () => {}, emptied: () => {} });
  const models = modelFactory();
  store.open(path);
  await settle();
  store.modelFor(models.make, path);
  const model = models.models.get(path)!;
  model.type(text);
  return { ws, store, model, notes, context, doc: () => store.docs[path]! };
}

describe("saving", () => {
  it("writes the buffer against its base version and marks it clean at the new version", async () => {
    const { ws, store, context, doc } = await openEdited({ "a.ts": "old" }, "a.ts", "new");
    expect(doc().dirty).toBe(true);
    expect(await saveDocument(store, context, "a.ts")).toBe(true);
    expect(ws.content("a.ts")).toBe("new");
    expect(doc()).toMatchObject({ dirty: false, saving: false, version: ws.version("a.ts"), size: 3, conflict: null });
  });

  it("a save whose base changed meanwhile goes to the conflict state, with the disk's text as theirs", async () => {
    const { ws, store, context, doc, model } = await openEdited({ "a.ts": "old" }, "a.ts", "mine");
    ws.write("a.ts", "theirs");
    expect(await saveDocument(store, context, "a.ts")).toBe(false);
    expect(ws.content("a.ts")).toBe("theirs");
    expect(doc().conflict).toEqual({ content: "theirs", version: ws.version("a.ts"), merging: false });
    expect(doc().dirty).toBe(true);
    expect(model.getValue()).toBe("mine");
  });

  it("keep mine: saving during a conflict writes over the version it showed", async () => {
    const { ws, store, context, doc } = await openEdited({ "a.ts": "old" }, "a.ts", "mine");
    ws.write("a.ts", "theirs");
    await saveDocument(store, context, "a.ts");
    startMerge(store, "a.ts");
    expect(doc().conflict?.merging).toBe(true);
    expect(await saveDocument(store, context, "a.ts")).toBe(true);
    expect(ws.content("a.ts")).toBe("mine");
    expect(doc().conflict).toBeNull();
  });

  it("take theirs: the buffer becomes the disk text, clean, and undo brings mine back", async () => {
    const { ws, store, context, doc, model } = await openEdited({ "a.ts": "old" }, "a.ts", "mine");
    ws.write("a.ts", "theirs");
    await saveDocument(store, context, "a.ts");
    takeTheirs(store, "a.ts");
    expect(model.getValue()).toBe("theirs");
    expect(doc()).toMatchObject({ conflict: null, dirty: false, version: ws.version("a.ts") });
    model.undo();
    expect(model.getValue()).toBe("mine");
  });

  it("a file deleted meanwhile: the conflict says so, and keeping mine recreates it", async () => {
    const { ws, store, context, doc } = await openEdited({ "a.ts": "old" }, "a.ts", "mine");
    ws.delete("a.ts");
    await saveDocument(store, context, "a.ts");
    expect(doc()).toMatchObject({ deletedOnDisk: true, conflict: { content: "", version: null } });
    expect(await saveDocument(store, context, "a.ts")).toBe(true);
    expect(ws.content("a.ts")).toBe("mine");
    expect(doc().deletedOnDisk).toBe(false);
  });

  it("a disk change under edits can become a comparison, or be dismissed", async () => {
    const { store, doc } = await openEdited({ "a.ts": "old" }, "a.ts", "mine");
    doc().diskChanged = { content: "theirs", version: "v7" };
    compareWithDisk(store, "a.ts");
    expect(doc().conflict).toEqual({ content: "theirs", version: "v7", merging: false });
    expect(doc().diskChanged).toBeNull();
    doc().conflict = null;
    doc().diskChanged = { content: "theirs", version: "v7" };
    dismissDiskChange(store, "a.ts");
    expect(doc().diskChanged).toBeNull();
    expect(doc().conflict).toBeNull();
  });

  it("a viewer's save is refused with a word, and nothing is written", async () => {
    const { ws, store, context, notes } = await openEdited({ "a.ts": "old" }, "a.ts", "mine", { driver: false });
    expect(await saveDocument(store, context, "a.ts")).toBe(false);
    expect(ws.content("a.ts")).toBe("old");
    expect(notes).toEqual(["info: Read-only: Viewers can't save files — ask the driver."]);
  });

  it("a failed save keeps the buffer dirty and says why", async () => {
    const { ws, store, context, notes, doc } = await openEdited({ "a.ts": "old" }, "a.ts", "mine");
    ws.failWith = new FilesApiError(0, "network", "Cannot reach the relay", null);
    expect(await saveDocument(store, context, "a.ts")).toBe(false);
    expect(doc()).toMatchObject({ dirty: true, saving: false });
    expect(notes).toEqual(["error: Could not save a.ts: Cannot reach the relay"]);
  });
});
