// The editor's tabs and the files open in them: opening (one tab per file),
// loading, the text buffers behind the Monaco models, dirty tracking,
// closing, and renames/deletes of open files. Saving and conflicts are in
// document-saving.ts, disk changes in disk-changes.ts; both work on this.
//
// Monaco is never imported here except as types: models are created once the
// editor component has loaded Monaco and asks for them (`modelFor`).

import type * as MonacoNs from "monaco-editor";
import { describeError, isNotFound } from "./describe-error.ts";
import type { DiffsStore, DiffTabInfo } from "./diffs-store.svelte.ts";
import type { FilesApi } from "./files-api.ts";
import { basename, normalizePath } from "./file-tree.ts";
import { activateTab, closeTab, createTabsState, diffTabId, fileTabId, openTab, renameTabs, type Tab } from "./tabs.ts";
import { minimalEdit } from "./text-edit.ts";
import type { ReadOnlyReason } from "./workspace-api-types.ts";

export type TextModel = MonacoNs.editor.ITextModel;
export type ViewState = MonacoNs.editor.ICodeEditorViewState;

/** What is on disk: `version` null means the file does not exist (content is then ""). */
export interface DiskText {
  content: string;
  version: string | null;
}

/** A file open in a tab. Reactive; the text itself lives in the Monaco model. */
export interface FileDocument {
  path: string;
  status: "loading" | "ready" | "readonly" | "error";
  error: string | null;
  reason: ReadOnlyReason | null;
  size: number;
  /** Disk version the buffer is based on (sent as baseVersion when saving). */
  version: string | null;
  dirty: boolean;
  saving: boolean;
  /** The file changed on disk while the buffer had unsaved edits. */
  diskChanged: DiskText | null;
  /** The file is gone from disk (the buffer is kept; saving recreates it). */
  deletedOnDisk: boolean;
  /** A save was refused (409) or the user asked to compare: theirs = disk. `origin` (revert-conflict.ts): "revert", mine is what a hunk's revert would make of the file; "revert-file", mine is what a whole file's revert writes (the index's text); "reverted", theirs is a revert's result written under my unsaved edits. */
  conflict: (DiskText & { merging: boolean; origin?: "revert" | "revert-file" | "reverted" }) | null;
}

/** Not reactive: one per open, editable file. */
export interface Buffer {
  /** Text at `doc.version` (what the model holds when clean). */
  baseText: string;
  model: TextModel | null;
  /** model.getAlternativeVersionId() when the buffer was last clean. */
  cleanAltId: number;
  viewState: ViewState | null;
  listener: MonacoNs.IDisposable | null;
  /** A disk change arrived while saving; look again afterwards. */
  refreshAfterSave: boolean;
  /** Text to put in as an unsaved edit once the model is made (setUnsaved before the editor showed the file). */
  pendingText?: string;
}

/** Makes the model of a file from its text (Monaco's createModel, in the page). */
export type ModelFactory = (path: string, text: string) => TextModel;

export interface DocumentsHooks {
  /** A file tab became the active one (the tree selects its file). */
  fileActivated(path: string): void;
  /** The last tab closed. */
  emptied(): void;
}

export class DocumentsStore {
  tabs = $state(createTabsState());
  docs = $state<Record<string, FileDocument>>({});

  readonly api: Pick<FilesApi, "read" | "save">;
  readonly #diffs: DiffsStore;
  readonly #hooks: DocumentsHooks;
  readonly #buffers = new Map<string, Buffer>();
  #makeModel: ModelFactory | null = null;
  /** Paths reopened from saved tabs: one that no longer exists closes quietly. */
  readonly #restoring = new Set<string>();
  /** Loads under way, for `loaded`. */
  readonly #loads = new Map<string, Promise<void>>();

  constructor(api: Pick<FilesApi, "read" | "save">, diffs: DiffsStore, hooks: DocumentsHooks) {
    this.api = api;
    this.#diffs = diffs;
    this.#hooks = hooks;
  }

  get activeTab(): Tab | null {
    return this.tabs.tabs.find((t) => t.id === this.tabs.activeId) ?? null;
  }

  get editorOpen(): boolean {
    return this.tabs.tabs.length > 0;
  }

  buffer(path: string): Buffer | undefined {
    return this.#buffers.get(path);
  }

  // ── opening ───────────────────────────────────────────────────────────

  /** The tab of a file (one per path) and its document, loaded in the background. `restoring`: put back from saved tabs. */
  open(path: string, options: { restoring?: boolean } = {}): string | null {
    const clean = normalizePath(path);
    if (clean === "") return null;
    if (!this.docs[clean]) {
      if (options.restoring) this.#restoring.add(clean);
      this.docs[clean] = {
        path: clean,
        status: "loading",
        error: null,
        reason: null,
        size: 0,
        version: null,
        dirty: false,
        saving: false,
        diskChanged: null,
        deletedOnDisk: false,
        conflict: null,
      };
      void this.load(clean);
    }
    openTab(this.tabs, { id: fileTabId(clean), kind: "file", path: clean, title: basename(clean) });
    return clean;
  }

  /** A diff tab for what the diffs store holds under `info.key`. */
  openDiffTab(info: DiffTabInfo): void {
    openTab(this.tabs, { id: diffTabId(info.key), kind: "diff", path: info.path, title: info.title });
  }

  activate(id: string): void {
    activateTab(this.tabs, id);
    const tab = this.activeTab;
    if (tab?.kind === "file") this.#hooks.fileActivated(tab.path);
  }

  /** Resolves once an open file's document is no longer loading (at once when it is not open). */
  loaded(path: string): Promise<void> {
    return this.#loads.get(path) ?? Promise.resolve();
  }

  /** (Re)reads an open file; its buffer starts from the disk text. */
  load(path: string): Promise<void> {
    const loading = this.#load(path).finally(() => {
      if (this.#loads.get(path) === loading) this.#loads.delete(path);
    });
    this.#loads.set(path, loading);
    return loading;
  }

  async #load(path: string): Promise<void> {
    try {
      const file = await this.api.read(path);
      this.#restoring.delete(path);
      const doc = this.docs[path];
      if (!doc) return;
      doc.size = file.size;
      doc.version = file.version;
      if (file.readOnly) {
        doc.status = "readonly";
        doc.reason = file.reason;
        return;
      }
      this.#buffers.set(path, { baseText: file.content, model: null, cleanAltId: 0, viewState: null, listener: null, refreshAfterSave: false });
      doc.status = "ready";
    } catch (error) {
      const restored = this.#restoring.delete(path);
      const doc = this.docs[path];
      if (!doc) return;
      // A tab put back from an earlier visit whose file is gone: dropped without a word (nobody asked for it now).
      if (restored && isNotFound(error)) {
        this.closeNow(fileTabId(path));
        return;
      }
      doc.status = "error";
      doc.error = isNotFound(error) ? "This file does not exist (any more)." : describeError(error);
    }
  }

  // ── models ────────────────────────────────────────────────────────────

  /** The model of an open, editable file (made on first request by `makeModel`). */
  modelFor(makeModel: ModelFactory, path: string): TextModel | null {
    this.#makeModel = makeModel;
    const buffer = this.#buffers.get(path);
    if (!buffer) return null;
    if (buffer.model && !buffer.model.isDisposed()) return buffer.model;
    const model = makeModel(path, buffer.baseText);
    buffer.model = model;
    buffer.cleanAltId = model.getAlternativeVersionId();
    buffer.listener = model.onDidChangeContent(() => this.syncDirty(path));
    if (buffer.pendingText !== undefined) {
      const text = buffer.pendingText;
      delete buffer.pendingText;
      this.#editModel(model, text);
      this.syncDirty(path);
    }
    return model;
  }

  /** Puts `text` in an open, editable file's buffer as an unsaved (undoable) edit; the disk is not touched. */
  setUnsaved(path: string, text: string): void {
    const doc = this.docs[path];
    const buffer = this.#buffers.get(path);
    if (!doc || !buffer) return;
    if (buffer.model && !buffer.model.isDisposed()) {
      this.#editModel(buffer.model, text);
      this.syncDirty(path);
      return;
    }
    // No model yet (the editor has not shown the file): it is made from the disk text, then given this one.
    buffer.pendingText = text;
    doc.dirty = text !== buffer.baseText;
  }

  #editModel(model: TextModel, text: string): void {
    const edit = minimalEdit(model.getValue(), text);
    if (!edit) return;
    const start = model.getPositionAt(edit.start);
    const end = model.getPositionAt(edit.end);
    model.pushEditOperations([], [{ range: { startLineNumber: start.lineNumber, startColumn: start.column, endLineNumber: end.lineNumber, endColumn: end.column }, text: edit.text }], () => null);
  }

  saveViewState(path: string, state: ViewState | null): void {
    const buffer = this.#buffers.get(path);
    if (buffer) buffer.viewState = state;
  }

  viewState(path: string): ViewState | null {
    return this.#buffers.get(path)?.viewState ?? null;
  }

  /** The document is dirty exactly when the model is not at its clean version (undo back to it: clean again). */
  syncDirty(path: string): void {
    const buffer = this.#buffers.get(path);
    const doc = this.docs[path];
    if (!buffer?.model || !doc) return;
    const dirty = buffer.model.getAlternativeVersionId() !== buffer.cleanAltId;
    if (doc.dirty !== dirty) doc.dirty = dirty;
  }

  /** Marks the model's current text as saved at `version`. */
  markClean(path: string, text: string, version: string | null, altId: number): void {
    const doc = this.docs[path];
    const buffer = this.#buffers.get(path);
    if (!doc || !buffer) return;
    doc.version = version;
    buffer.baseText = text;
    buffer.cleanAltId = altId;
    this.syncDirty(path);
  }

  /** Replaces the buffer with disk text as a minimal, undoable edit, then marks it clean. */
  replaceBuffer(path: string, content: string, version: string | null): void {
    const doc = this.docs[path];
    const buffer = this.#buffers.get(path);
    if (!doc || !buffer) return;
    const model = buffer.model;
    delete buffer.pendingText;
    if (model && !model.isDisposed()) {
      this.#editModel(model, content);
      buffer.cleanAltId = model.getAlternativeVersionId();
    }
    buffer.baseText = content;
    doc.version = version;
    doc.deletedOnDisk = version === null;
    this.syncDirty(path);
    if (!model) doc.dirty = false;
  }

  // ── closing ───────────────────────────────────────────────────────────

  /** Every model goes, the tabs stay as they are (the page dropped this session, workbench.svelte.ts dispose). */
  disposeModels(): void {
    for (const buffer of this.#buffers.values()) {
      buffer.listener?.dispose();
      buffer.model?.dispose();
    }
    this.#buffers.clear();
  }

  /** Closes a tab without asking; its buffer and model go with it. */
  closeNow(id: string): void {
    const tab = closeTab(this.tabs, id);
    if (!tab) return;
    if (tab.kind === "file") {
      const buffer = this.#buffers.get(tab.path);
      buffer?.listener?.dispose();
      buffer?.model?.dispose();
      this.#buffers.delete(tab.path);
      delete this.docs[tab.path];
    } else {
      this.#diffs.drop(tab.id.slice("diff:".length));
    }
    if (this.tabs.tabs.length === 0) this.#hooks.emptied();
    const active = this.activeTab;
    if (active?.kind === "file") this.#hooks.fileActivated(active.path);
  }

  // ── renames and deletes made in the explorer ──────────────────────────

  /** Open documents follow a rename of `from` (a file or a folder), unsaved edits included. */
  renamed(from: string, to: string): void {
    for (const [oldId, newId] of renameTabs(this.tabs, from, to)) {
      const oldPath = oldId.slice("file:".length);
      const newPath = newId.slice("file:".length);
      const doc = this.docs[oldPath];
      const buffer = this.#buffers.get(oldPath);
      if (doc) {
        delete this.docs[oldPath];
        this.docs[newPath] = { ...doc, path: newPath };
      }
      if (!buffer) continue;
      this.#buffers.delete(oldPath);
      // The model's URI names the old path: carry the text into a new model.
      const text = buffer.model && !buffer.model.isDisposed() ? buffer.model.getValue() : buffer.baseText;
      const wasDirty = doc?.dirty ?? false;
      buffer.listener?.dispose();
      buffer.model?.dispose();
      this.#buffers.set(newPath, { ...buffer, model: null, listener: null, viewState: null });
      if (!this.#makeModel) continue;
      const model = this.modelFor(this.#makeModel, newPath);
      if (model && wasDirty) {
        model.setValue(text);
        this.#buffers.get(newPath)!.cleanAltId = -1;
        this.syncDirty(newPath);
      }
    }
  }

  /** `path` (a file, or a folder and all in it) was deleted: clean tabs close, dirty ones stay marked deleted so nothing is lost. */
  deleted(path: string): void {
    for (const tab of [...this.tabs.tabs]) {
      if (tab.kind !== "file" || (tab.path !== path && !tab.path.startsWith(`${path}/`))) continue;
      const doc = this.docs[tab.path];
      if (doc?.dirty) doc.deletedOnDisk = true;
      else this.closeNow(tab.id);
    }
  }
}
