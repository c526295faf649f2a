import { describe, expect, it } from "vitest";
import { DiffsStore } from "../../src/lib/workspace/diffs-store.svelte.ts";
import { changeTouches, refreshDocument } from "../../src/lib/workspace/disk-changes.ts";
import { saveDocument } from "../../src/lib/workspace/document-saving.ts";
import { DocumentsStore } from "../../src/lib/workspace/documents-store.svelte.ts";
import { MemoryWorkspace, settle } from "./support/memory-files-api.ts";
import { modelFactory } from "./support/text-model.ts";

async function openFile(files: Record<string, string>, path: string) {
  const ws = new MemoryWorkspace(files);
  const store = new DocumentsStore(ws.api, new DiffsStore(ws.api), { fileActivated: () => {}, emptied: () => {} });
  const models = modelFactory();
  store.open(path);
  await settle();
  store.modelFor(models.make, path);
  return { ws, store, model: models.models.get(path)!, doc: () => store.docs[path]! };
}

describe("which open files a disk change touches", () => {
  it("the file itself, files in a changed folder, folders above a changed file; null or the root: everything", () => {
    const touches = changeTouches(["src/a.ts", "./lib/"]);
    expect(touches("src/a.ts")).toBe(true);
    expect(touches("src/b.ts")).toBe(false);
    expect(touches("src")).toBe(true);
    expect(touches("lib/deep/x.ts")).toBe(true);
    expect(touches("library.ts")).toBe(false);
    expect(changeTouches(null)("anything")).toBe(true);
    expect(changeTouches([""])("anything")).toBe(true);
    expect(changeTouches([])("src/a.ts")).toBe(false);
  });
});

describe("refreshing an open file after a disk change", () => {
  it("a clean file takes the new text and version", async () => {
    const { ws, store, model, doc } = await openFile({ "a.ts": "one" }, "a.ts");
    ws.write("a.ts", "two");
    await refreshDocument(store, "a.ts");
    expect(model.getValue()).toBe("two");
    expect(doc()).toMatchObject({ version: ws.version("a.ts"), dirty: false, diskChanged: null });
  });

  it("a dirty file keeps the person's text and is marked with what is on disk", async () => {
    const { ws, store, model, doc } = await openFile({ "a.ts": "one" }, "a.ts");
    const base = doc().version;
    model.type("mine");
    ws.write("a.ts", "theirs");
    await refreshDocument(store, "a.ts");
    expect(model.getValue()).toBe("mine");
    expect(doc()).toMatchObject({ dirty: true, version: base, diskChanged: { content: "theirs", version: ws.version("a.ts") } });
  });

  it("a dirty file whose text the disk now holds too just becomes clean", async () => {
    const { ws, store, model, doc } = await openFile({ "a.ts": "one" }, "a.ts");
    model.type("same");
    ws.write("a.ts", "same");
    await refreshDocument(store, "a.ts");
    expect(doc()).toMatchObject({ dirty: false, diskChanged: null, version: ws.version("a.ts") });
  });

  it("a deleted file is marked deleted, its buffer kept", async () => {
    const { ws, store, model, doc } = await openFile({ "a.ts": "one" }, "a.ts");
    ws.delete("a.ts");
    await refreshDocument(store, "a.ts");
    expect(doc().deletedOnDisk).toBe(true);
    expect(model.getValue()).toBe("one");
    ws.write("a.ts", "back");
    await refreshDocument(store, "a.ts");
    expect(doc().deletedOnDisk).toBe(false);
    expect(model.getValue()).toBe("back");
  });

  it("during a conflict, the disk side follows the disk", async () => {
    const { ws, store, model, doc } = await openFile({ "a.ts": "one" }, "a.ts");
    model.type("mine");
    ws.write("a.ts", "theirs 1");
    await saveDocument(store, { notify: () => {}, canDrive: () => true }, "a.ts");
    ws.write("a.ts", "theirs 2");
    await refreshDocument(store, "a.ts");
    expect(doc().conflict).toMatchObject({ content: "theirs 2", version: ws.version("a.ts") });
    expect(model.getValue()).toBe("mine");
  });

  it("a file that could not be read is loaded afresh once it exists", async () => {
    const ws = new MemoryWorkspace();
    const store = new DocumentsStore(ws.api, new DiffsStore(ws.api), { fileActivated: () => {}, emptied: () => {} });
    store.open("later.ts");
    await settle();
    expect(store.docs["later.ts"]!.status).toBe("error");
    ws.write("later.ts", "now");
    await refreshDocument(store, "later.ts");
    expect(store.docs["later.ts"]).toMatchObject({ status: "ready", error: null });
  });
});
