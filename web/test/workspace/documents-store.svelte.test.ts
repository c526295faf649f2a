import { describe, expect, it } from "vitest";
import { DiffsStore } from "../../src/lib/workspace/diffs-store.svelte.ts";
import { DocumentsStore } from "../../src/lib/workspace/documents-store.svelte.ts";
import { fileTabId } from "../../src/lib/workspace/tabs.ts";
import { MemoryWorkspace, settle } from "./support/memory-files-api.ts";
import { modelFactory } from "./support/text-model.ts";

function setup(files: Record<string, string> = {}) {
  const ws = new MemoryWorkspace(files);
  const diffs = new DiffsStore(ws.api);
  const events: string[] = [];
  const store = new DocumentsStore(ws.api, diffs, {
    fileActivated: (path) => events.push(`active ${path}`),
    emptied: () => events.push("emptied"),
  });
  return { ws, diffs, store, events, models: modelFactory() };
}

describe("documents store: opening", () => {
  it("opening a file twice gives one tab and one read", async () => {
    const { ws, store } = setup({ "src/a.ts": "hello" });
    expect(store.open("./src/a.ts")).toBe("src/a.ts");
    store.open("src/a.ts");
    await settle();
    expect(store.tabs.tabs.map((t) => t.id)).toEqual(["file:src/a.ts"]);
    expect(ws.calls.filter((c) => c.startsWith("GET content"))).toEqual(["GET content src/a.ts"]);
    expect(store.docs["src/a.ts"]).toMatchObject({ status: "ready", version: ws.version("src/a.ts"), size: 5, dirty: false });
    expect(store.activeTab?.path).toBe("src/a.ts");
    expect(store.editorOpen).toBe(true);
  });

  it("an empty path opens nothing", () => {
    const { store } = setup();
    expect(store.open("./")).toBeNull();
    expect(store.tabs.tabs).toEqual([]);
  });

  it("a binary file opens read-only; a missing one says it does not exist", async () => {
    const { ws, store } = setup({ "img.png": "x" });
    (ws.nodes.get("img.png") as { binary?: boolean }).binary = true;
    store.open("img.png");
    store.open("nope.ts");
    await settle();
    expect(store.docs["img.png"]).toMatchObject({ status: "readonly", reason: "binary" });
    expect(store.docs["nope.ts"]).toMatchObject({ status: "error", error: "This file does not exist (any more)." });
    expect(store.modelFor(modelFactory().make, "img.png")).toBeNull();
  });

  it("a tab put back from saved tabs whose file is gone closes without a word", async () => {
    const { store } = setup({ "here.ts": "" });
    store.open("here.ts", { restoring: true });
    store.open("gone.ts", { restoring: true });
    await settle();
    expect(store.tabs.tabs.map((t) => t.path)).toEqual(["here.ts"]);
    expect(store.docs["gone.ts"]).toBeUndefined();
  });
});

describe("documents store: buffers", () => {
  it("a model starts from the disk text; edits make the file dirty and undoing them makes it clean again", async () => {
    const { store, models } = setup({ "a.ts": "one" });
    store.open("a.ts");
    await settle();
    const model = store.modelFor(models.make, "a.ts")!;
    expect(model.getValue()).toBe("one");
    expect(store.modelFor(models.make, "a.ts")).toBe(model);
    models.models.get("a.ts")!.type("two");
    expect(store.docs["a.ts"]!.dirty).toBe(true);
    models.models.get("a.ts")!.undo();
    expect(store.docs["a.ts"]!.dirty).toBe(false);
  });

  it("replacing the buffer with disk text is one undoable edit and leaves it clean", async () => {
    const { store, models } = setup({ "a.ts": "line 1\nline 2\n" });
    store.open("a.ts");
    await settle();
    store.modelFor(models.make, "a.ts");
    store.replaceBuffer("a.ts", "line 1\nline two\n", "v9");
    const model = models.models.get("a.ts")!;
    expect(model.getValue()).toBe("line 1\nline two\n");
    expect(store.docs["a.ts"]).toMatchObject({ version: "v9", dirty: false, deletedOnDisk: false });
    model.undo();
    expect(model.getValue()).toBe("line 1\nline 2\n");
    expect(store.docs["a.ts"]!.dirty).toBe(true);
  });

  it("keeps each file's view state", async () => {
    const { store } = setup({ "a.ts": "" });
    store.open("a.ts");
    await settle();
    const state = { cursorState: [], viewState: { scrollTop: 40 } } as never;
    store.saveViewState("a.ts", state);
    expect(store.viewState("a.ts")).toBe(state);
    expect(store.viewState("b.ts")).toBeNull();
  });
});

describe("documents store: closing, renames and deletes", () => {
  it("closing a tab disposes its model, activates the neighbour, and says when the editor is empty", async () => {
    const { store, models, events } = setup({ "a.ts": "", "b.ts": "" });
    store.open("a.ts");
    store.open("b.ts");
    await settle();
    store.modelFor(models.make, "b.ts");
    store.closeNow(fileTabId("b.ts"));
    expect(models.models.get("b.ts")!.isDisposed()).toBe(true);
    expect(store.docs["b.ts"]).toBeUndefined();
    expect(store.activeTab?.path).toBe("a.ts");
    expect(events.at(-1)).toBe("active a.ts");
    store.closeNow(fileTabId("a.ts"));
    expect(events.at(-1)).toBe("emptied");
    expect(store.editorOpen).toBe(false);
  });

  it("closing a diff tab forgets the diff", () => {
    const { store, diffs } = setup();
    const info = diffs.putStatic({ title: "t", path: "a.ts", original: "", modified: "x" });
    store.openDiffTab(info);
    store.closeNow(`diff:${info.key}`);
    expect(diffs.diffs[info.key]).toBeUndefined();
  });

  it("a renamed folder carries its open files along, unsaved text included, in new models", async () => {
    const { store, models } = setup({ "old/a.ts": "saved", "old/b.ts": "b" });
    store.open("old/a.ts");
    store.open("old/b.ts");
    await settle();
    store.modelFor(models.make, "old/a.ts");
    models.models.get("old/a.ts")!.type("unsaved");
    store.renamed("old", "new");
    expect(Object.keys(store.docs).sort()).toEqual(["new/a.ts", "new/b.ts"]);
    expect(store.tabs.tabs.map((t) => t.path).sort()).toEqual(["new/a.ts", "new/b.ts"]);
    expect(models.models.get("old/a.ts")!.isDisposed()).toBe(true);
    expect(models.models.get("new/a.ts")!.getValue()).toBe("unsaved");
    expect(store.docs["new/a.ts"]).toMatchObject({ path: "new/a.ts", dirty: true });
  });

  it("deleting a folder closes its clean files and keeps dirty ones, marked deleted", async () => {
    const { store, models } = setup({ "dir/clean.ts": "", "dir/dirty.ts": "", "other.ts": "" });
    for (const path of ["dir/clean.ts", "dir/dirty.ts", "other.ts"]) store.open(path);
    await settle();
    store.modelFor(models.make, "dir/dirty.ts");
    models.models.get("dir/dirty.ts")!.type("mine");
    store.deleted("dir");
    expect(store.tabs.tabs.map((t) => t.path).sort()).toEqual(["dir/dirty.ts", "other.ts"]);
    expect(store.docs["dir/dirty.ts"]!.deletedOnDisk).toBe(true);
  });
});
