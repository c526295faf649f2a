import { describe, expect, it } from "vitest";
import { DialogStore } from "../../src/lib/workspace/dialog-store.svelte.ts";
import { DiffsStore } from "../../src/lib/workspace/diffs-store.svelte.ts";
import { DocumentsStore } from "../../src/lib/workspace/documents-store.svelte.ts";
import { FileOperations, folderFor } from "../../src/lib/workspace/file-operations.ts";
import { FileTreeStore } from "../../src/lib/workspace/file-tree-store.svelte.ts";
import { MemoryWorkspace, settle } from "./support/memory-files-api.ts";
import { modelFactory } from "./support/text-model.ts";

function setup(files: Record<string, string>, driver = true) {
  const ws = new MemoryWorkspace(files);
  const dialogs = new DialogStore();
  const tree = new FileTreeStore(ws.api);
  const documents = new DocumentsStore(ws.api, new DiffsStore(ws.api), { fileActivated: () => {}, emptied: () => {} });
  const notes: string[] = [];
  const opened: string[] = [];
  const operations = new FileOperations({
    api: ws.api,
    context: { notify: (level, title, message) => notes.push(`${level}: ${title}: ${message}`), canDrive: () => driver },
    dialogs,
    tree,
    reloadTree: () => tree.load(),
    documents,
    openFile: (path) => {
      opened.push(path);
      documents.open(path);
    },
  });
  /** Answers the dialog that is open now. */
  const answer = async (button: string | null, value?: string) => {
    await settle();
    const dialog = dialogs.dialog;
    if (!dialog) throw new Error("no dialog is open");
    dialog.resolve({ button, value: value ?? dialog.input?.value ?? "" });
  };
  return { ws, dialogs, tree, documents, operations, notes, opened, answer };
}

describe("file operations", () => {
  it("new file: asks for a path in the folder, creates it, shows it in the tree and opens it", async () => {
    const { ws, tree, operations, opened, answer, dialogs } = setup({ "src/a.ts": "" });
    const done = operations.createEntry("file", "src");
    await settle();
    expect(dialogs.dialog?.input?.value).toBe("src/");
    await answer("ok", " src/new.ts ");
    await done;
    expect(ws.content("src/new.ts")).toBe("");
    expect(tree.files).toContain("src/new.ts");
    expect(tree.expanded.src).toBe(true);
    expect(tree.selectedPath).toBe("src/new.ts");
    expect(opened).toEqual(["src/new.ts"]);
    expect(dialogs.dialog).toBeNull();
  });

  it("new folder opens it in the tree; cancel creates nothing", async () => {
    const { ws, tree, operations, answer } = setup({});
    let done = operations.createEntry("dir", "");
    await answer("ok", "docs");
    await done;
    expect(ws.nodes.get("docs")).toEqual({ type: "dir" });
    expect(tree.expanded.docs).toBe(true);
    done = operations.createEntry("file", "");
    await answer("cancel", "x.ts");
    await done;
    expect(ws.nodes.has("x.ts")).toBe(false);
  });

  it("a failed create says why", async () => {
    const { operations, notes, answer } = setup({ "a.ts": "" });
    const done = operations.createEntry("file", "");
    await answer("ok", "a.ts");
    await done;
    expect(notes).toEqual(["error: Could not create a.ts: a.ts exists"]);
  });

  it("rename moves the file on disk and its open tab, unsaved edits included", async () => {
    const { ws, documents, operations, answer, tree } = setup({ "a.ts": "saved" });
    documents.open("a.ts");
    await settle();
    const models = modelFactory();
    documents.modelFor(models.make, "a.ts");
    models.models.get("a.ts")!.type("edited");
    const done = operations.renameEntry("a.ts");
    await answer("ok", "b.ts");
    await done;
    expect(ws.content("b.ts")).toBe("saved");
    expect(documents.tabs.tabs.map((t) => t.path)).toEqual(["b.ts"]);
    expect(models.models.get("b.ts")!.getValue()).toBe("edited");
    expect(tree.files).toEqual(["b.ts"]);
  });

  it("delete asks first; a deleted file's clean tab closes", async () => {
    const { ws, documents, operations, answer } = setup({ "a.ts": "" });
    documents.open("a.ts");
    await settle();
    let done = operations.deleteEntry("a.ts", "file");
    await answer("cancel");
    await done;
    expect(ws.nodes.has("a.ts")).toBe(true);
    done = operations.deleteEntry("a.ts", "file");
    await answer("delete");
    await done;
    expect(ws.nodes.has("a.ts")).toBe(false);
    expect(documents.tabs.tabs).toEqual([]);
  });

  it("a viewer is told no, and no question is asked", async () => {
    const { operations, dialogs, notes } = setup({ "a.ts": "" }, false);
    await operations.deleteEntry("a.ts", "file");
    expect(dialogs.dialog).toBeNull();
    expect(notes).toEqual(["info: Read-only: Viewers can't delete files — ask the driver."]);
  });

  it("a second question answers the first with no button", async () => {
    const dialogs = new DialogStore();
    const first = dialogs.ask({ title: "1", message: "", buttons: [] });
    void dialogs.ask({ title: "2", message: "", buttons: [] });
    expect(await first).toEqual({ button: null, value: "" });
    expect(dialogs.dialog?.title).toBe("2");
  });

  it("new file from the tree targets the folder itself, or the folder of a file", () => {
    expect(folderFor(null, null)).toBe("");
    expect(folderFor("src/lib", "dir")).toBe("src/lib");
    expect(folderFor("src/lib/a.ts", "file")).toBe("src/lib");
  });
});
