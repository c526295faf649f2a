// The workbench: explorer (file tree, git changes), editor tabs, open file
// documents with their Monaco models, diffs, save/conflict handling, and the
// layout preferences of the IDE surface. One instance, `workbench`; other
// parts of the app use `openFile(path)` and `openDiff(...)`.
//
// Monaco is never imported here except as types: models are created once the
// editor component has loaded Monaco and asks for them (`modelFor`).

import type * as MonacoNs from "monaco-editor";
import { connection } from "../app-context.svelte.ts";
import { viewersCant } from "../room/viewer-hint.ts";
import type { Monaco } from "../monaco/load-monaco.ts";
import { languageForPath } from "../monaco/load-monaco.ts";
import { FilesApiError, filesApi } from "./files-api.ts";
import { ancestorsOf, basename, buildTree, dirname, filePaths, normalizePath, type TreeNode } from "./file-tree.ts";
import { activateTab, closeTab, createTabsState, diffTabId, fileTabId, openTab, renameTabs, type Tab } from "./tabs.ts";
import { loadSavedTabs, storeSavedTabs } from "./saved-tabs.ts";
import { minimalEdit } from "./text-edit.ts";
import type { GitChange, ReadOnlyReason, WorkspaceEntry } from "./workspace-api-types.ts";

type TextModel = MonacoNs.editor.ITextModel;
type ViewState = MonacoNs.editor.ICodeEditorViewState;

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
  /** A save was refused (409) or the user asked to compare: theirs = disk. */
  conflict: (DiskText & { merging: boolean }) | null;
}

/** A read-only side-by-side diff in a tab. */
export interface DiffDocument {
  key: string;
  title: string;
  path: string;
  /** Diffs of the working tree against HEAD follow the disk. */
  source: "static" | "git";
  loading: boolean;
  error: string | null;
  original: string;
  modified: string;
  /** Bumped whenever original/modified change (the diff view re-syncs its models). */
  revision: number;
}

export interface OpenDiffOptions {
  title: string;
  path: string;
  original: string;
  modified: string;
}

export type DialogButton = { id: string; label: string; tone?: "primary" | "danger" };
export interface DialogRequest {
  title: string;
  message: string;
  /** When set, the dialog asks for text (new file name, rename…). */
  input?: { label: string; value: string; selectBaseName?: boolean };
  buttons: DialogButton[];
  resolve: (result: { button: string | null; value: string }) => void;
}

/** Not reactive: one per open file. */
interface Buffer {
  /** Text at `doc.version` (what the model holds when clean). */
  baseText: string;
  model: TextModel | null;
  /** model.getAlternativeVersionId() when the buffer was last clean. */
  cleanAltId: number;
  viewState: ViewState | null;
  listener: MonacoNs.IDisposable | null;
  /** A disk change arrived while saving; look again afterwards. */
  refreshAfterSave: boolean;
}

const NARROW_QUERY = "(max-width: 900px)";
const CHAT_WIDTH_KEY = "pier.chatWidth";
const EXPLORER_KEY = "pier.explorerOpen";
export const MIN_CHAT_WIDTH = 360;

function readNumber(key: string, fallback: number): number {
  try {
    const value = Number(localStorage.getItem(key));
    return Number.isFinite(value) && value > 0 ? value : fallback;
  } catch {
    return fallback;
  }
}

function readBool(key: string): boolean | null {
  try {
    const value = localStorage.getItem(key);
    return value === null ? null : value === "1";
  } catch {
    return null;
  }
}

function store(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private mode or storage disabled: preferences just don't persist.
  }
}

const hasWindow = typeof window !== "undefined" && typeof matchMedia === "function";

export class WorkbenchStore {
  // ── layout ────────────────────────────────────────────────────────────
  narrow = $state(hasWindow ? matchMedia(NARROW_QUERY).matches : false);
  explorerOpen = $state(false);
  explorerView = $state<"files" | "changes">("files");
  /** On narrow screens only one of the editor and the chat shows. */
  mobilePane = $state<"editor" | "chat">("chat");
  chatWidth = $state(hasWindow ? readNumber(CHAT_WIDTH_KEY, 440) : 440);
  quickOpenVisible = $state(false);
  dialog = $state<DialogRequest | null>(null);

  // ── files ─────────────────────────────────────────────────────────────
  root = $state<string | null>(null);
  entries = $state.raw<WorkspaceEntry[]>([]);
  tree = $state.raw<TreeNode>(buildTree([]));
  treeTruncated = $state(false);
  treeStatus = $state<"idle" | "loading" | "ready" | "error">("idle");
  treeError = $state<string | null>(null);
  expanded = $state<Record<string, true>>({});
  selectedPath = $state<string | null>(null);

  // ── git ───────────────────────────────────────────────────────────────
  gitStatus = $state<"idle" | "loading" | "ready" | "error">("idle");
  gitError = $state<string | null>(null);
  isRepo = $state(false);
  branch = $state<string | null>(null);
  changes = $state.raw<GitChange[]>([]);

  // ── editor ────────────────────────────────────────────────────────────
  tabs = $state(createTabsState());
  docs = $state<Record<string, FileDocument>>({});
  diffs = $state<Record<string, DiffDocument>>({});

  #buffers = new Map<string, Buffer>();
  #monaco: Monaco | null = null;
  #treeTimer: ReturnType<typeof setTimeout> | null = null;
  #treeRequest = 0;
  #gitRequest = 0;
  #started = false;
  /** The workspace whose saved tabs were put back (tabs are saved only after that, so nothing is wiped first). */
  #restoredFor = $state<string | null>(null);
  /** Paths reopened from the saved tabs: one that no longer exists closes quietly. */
  #restoring = new Set<string>();

  constructor() {
    if (!hasWindow) return;
    const saved = readBool(EXPLORER_KEY);
    this.explorerOpen = saved ?? matchMedia("(min-width: 1100px)").matches;
    matchMedia(NARROW_QUERY).addEventListener("change", (event) => {
      this.narrow = event.matches;
      // A drawer left open over the page would hide it on a small screen.
      if (event.matches) this.explorerOpen = false;
    });
    if (this.narrow) this.explorerOpen = false;
  }

  /** Subscribe to disk changes and load what the visible views need. Idempotent. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    connection.onWorkspaceChanged((paths, git) => this.#onDiskChange(paths, git));
    if (this.explorerOpen) void this.loadTree();
    $effect.root(() => {
      // The workspace is known once the relay said hello; a recording played back has no files to open.
      $effect(() => {
        const cwd = connection.hello?.cwd ?? null;
        if (cwd === null || connection.readOnly || cwd === this.#restoredFor) return;
        this.#restoreTabs(cwd);
      });
      $effect(() => {
        const cwd = this.#restoredFor;
        const paths = this.tabs.tabs.filter((t) => t.kind === "file").map((t) => t.path);
        const active = this.activeTab?.kind === "file" ? this.activeTab.path : null;
        if (cwd !== null) storeSavedTabs(cwd, { paths, active });
      });
    });
  }

  /** Reopens the file tabs this browser had open in this workspace, the active one active again. */
  #restoreTabs(cwd: string): void {
    const saved = loadSavedTabs(cwd);
    for (const path of saved.paths) {
      if (this.docs[path]) continue;
      this.#restoring.add(path);
      this.#openDocument(path);
    }
    if (saved.active !== null) this.activate(fileTabId(saved.active));
    this.#restoredFor = cwd;
  }

  get activeTab(): Tab | null {
    return this.tabs.tabs.find((t) => t.id === this.tabs.activeId) ?? null;
  }

  get editorOpen(): boolean {
    return this.tabs.tabs.length > 0;
  }

  get changeByPath(): Map<string, GitChange> {
    return new Map(this.changes.map((c) => [c.path, c]));
  }

  get files(): string[] {
    return filePaths(this.entries);
  }

  // ── layout actions ────────────────────────────────────────────────────

  toggleExplorer(open = !this.explorerOpen): void {
    this.explorerOpen = open;
    if (!this.narrow) store(EXPLORER_KEY, open ? "1" : "0");
    if (open && this.treeStatus === "idle") void this.loadTree();
    if (open && this.explorerView === "changes") void this.loadGit();
  }

  showExplorerView(which: "files" | "changes"): void {
    this.explorerView = which;
    if (!this.explorerOpen) this.toggleExplorer(true);
    if (which === "changes") void this.loadGit();
  }

  setChatWidth(width: number): void {
    this.chatWidth = Math.max(MIN_CHAT_WIDTH, Math.round(width));
    store(CHAT_WIDTH_KEY, String(this.chatWidth));
  }

  openQuickOpen(): void {
    this.quickOpenVisible = true;
    if (this.treeStatus === "idle" || this.treeStatus === "error") void this.loadTree();
  }

  // ── tree ──────────────────────────────────────────────────────────────

  async loadTree(): Promise<void> {
    const request = ++this.#treeRequest;
    if (this.treeStatus !== "ready") this.treeStatus = "loading";
    try {
      const listing = await filesApi.tree();
      if (request !== this.#treeRequest) return;
      this.root = listing.root;
      this.entries = listing.entries.map((e) => ({ ...e, path: normalizePath(e.path) }));
      this.tree = buildTree(this.entries);
      this.treeTruncated = listing.truncated;
      this.treeStatus = "ready";
      this.treeError = null;
    } catch (error) {
      if (request !== this.#treeRequest) return;
      this.treeStatus = "error";
      this.treeError = describe(error);
    }
    // Decorations in the tree come from git status too.
    if (this.gitStatus === "idle") void this.loadGit();
  }

  toggleFolder(path: string, open = !this.expanded[path]): void {
    if (open) this.expanded[path] = true;
    else delete this.expanded[path];
  }

  collapseAll(): void {
    this.expanded = {};
  }

  revealInTree(path: string): void {
    for (const folder of ancestorsOf(path)) this.expanded[folder] = true;
    this.selectedPath = path;
  }

  // ── git ───────────────────────────────────────────────────────────────

  async loadGit(): Promise<void> {
    const request = ++this.#gitRequest;
    if (this.gitStatus !== "ready") this.gitStatus = "loading";
    try {
      const status = await filesApi.gitStatus();
      if (request !== this.#gitRequest) return;
      this.isRepo = status.isRepo;
      this.branch = status.branch;
      this.changes = status.changes.map((c) => ({ ...c, path: normalizePath(c.path) }));
      this.gitStatus = "ready";
      this.gitError = null;
    } catch (error) {
      if (request !== this.#gitRequest) return;
      this.gitStatus = "error";
      this.gitError = describe(error);
    }
  }

  /** Opens (or refreshes) a tab diffing the working-tree file against HEAD. */
  openChangeDiff(change: GitChange): void {
    const key = `git:${change.path}`;
    const existing = this.diffs[key];
    if (!existing) {
      this.diffs[key] = {
        key,
        title: `${basename(change.path)} (HEAD ↔ working tree)`,
        path: change.path,
        source: "git",
        loading: true,
        error: null,
        original: "",
        modified: "",
        revision: 0,
      };
    }
    openTab(this.tabs, { id: diffTabId(key), kind: "diff", path: change.path, title: `${basename(change.path)} ↔ HEAD` });
    this.#afterOpen();
    void this.#loadGitDiff(key, change.from ?? change.path);
  }

  async #loadGitDiff(key: string, headPath: string): Promise<void> {
    const diff = this.diffs[key];
    if (!diff) return;
    try {
      const [head, current] = await Promise.all([
        filesApi.gitHead(headPath),
        filesApi.read(diff.path).catch((error: unknown) => {
          if (error instanceof FilesApiError && error.status === 404) return null;
          throw error;
        }),
      ]);
      const target = this.diffs[key];
      if (!target) return;
      const modified = current === null ? "" : current.readOnly ? `(${current.reason === "binary" ? "binary file" : "file too large to show"})` : current.content;
      const original = head.content ?? "";
      if (original !== target.original || modified !== target.modified) {
        target.original = original;
        target.modified = modified;
        target.revision++;
      }
      target.loading = false;
      target.error = null;
    } catch (error) {
      const target = this.diffs[key];
      if (!target) return;
      target.loading = false;
      target.error = describe(error);
    }
  }

  // ── opening ───────────────────────────────────────────────────────────

  /** Opens a workspace file in a tab (or focuses its tab). */
  openFile(path: string): void {
    const clean = normalizePath(path);
    if (clean === "") return;
    this.#openDocument(clean);
    this.selectedPath = clean;
    this.#afterOpen();
  }

  /** The tab and its document (loaded in the background), without touching the layout. */
  #openDocument(clean: string): void {
    if (!this.docs[clean]) {
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
      void this.#loadDocument(clean);
    }
    openTab(this.tabs, { id: fileTabId(clean), kind: "file", path: clean, title: basename(clean) });
  }

  /** Opens a read-only diff (e.g. of a tool's write/edit). Same title + path reuses the tab. */
  openDiff(options: OpenDiffOptions): void {
    const path = normalizePath(options.path);
    const key = `static:${path}\u0000${options.title}`;
    const existing = this.diffs[key];
    if (existing) {
      if (existing.original !== options.original || existing.modified !== options.modified) {
        existing.original = options.original;
        existing.modified = options.modified;
        existing.revision++;
      }
    } else {
      this.diffs[key] = {
        key,
        title: options.title,
        path,
        source: "static",
        loading: false,
        error: null,
        original: options.original,
        modified: options.modified,
        revision: 0,
      };
    }
    openTab(this.tabs, { id: diffTabId(key), kind: "diff", path, title: options.title });
    this.#afterOpen();
  }

  #afterOpen(): void {
    if (this.narrow) {
      this.mobilePane = "editor";
      this.explorerOpen = false;
    }
  }

  activate(id: string): void {
    activateTab(this.tabs, id);
    const tab = this.activeTab;
    if (tab?.kind === "file") this.selectedPath = tab.path;
  }

  async #loadDocument(path: string): Promise<void> {
    try {
      const file = await filesApi.read(path);
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
      this.#buffers.set(path, {
        baseText: file.content,
        model: null,
        cleanAltId: 0,
        viewState: null,
        listener: null,
        refreshAfterSave: false,
      });
      doc.status = "ready";
    } catch (error) {
      const restored = this.#restoring.delete(path);
      const doc = this.docs[path];
      if (!doc) return;
      // A tab put back from an earlier visit whose file is gone: dropped without a word (nobody asked for it now).
      if (restored && error instanceof FilesApiError && error.status === 404) {
        this.#closeNow(fileTabId(path));
        return;
      }
      doc.status = "error";
      doc.error = error instanceof FilesApiError && error.status === 404 ? "This file does not exist (any more)." : describe(error);
    }
  }

  /** The Monaco model of an open, editable file (created on first request). */
  modelFor(monaco: Monaco, path: string): TextModel | null {
    this.#monaco = monaco;
    const buffer = this.#buffers.get(path);
    if (!buffer) return null;
    if (buffer.model && !buffer.model.isDisposed()) return buffer.model;
    const uri = monaco.Uri.from({ scheme: "file", path: `/${path}` });
    monaco.editor.getModel(uri)?.dispose();
    const model = monaco.editor.createModel(buffer.baseText, languageForPath(monaco, path), uri);
    buffer.model = model;
    buffer.cleanAltId = model.getAlternativeVersionId();
    buffer.listener = model.onDidChangeContent(() => this.#syncDirty(path));
    return model;
  }

  saveViewState(path: string, state: ViewState | null): void {
    const buffer = this.#buffers.get(path);
    if (buffer) buffer.viewState = state;
  }

  viewState(path: string): ViewState | null {
    return this.#buffers.get(path)?.viewState ?? null;
  }

  #syncDirty(path: string): void {
    const buffer = this.#buffers.get(path);
    const doc = this.docs[path];
    if (!buffer?.model || !doc) return;
    const dirty = buffer.model.getAlternativeVersionId() !== buffer.cleanAltId;
    if (doc.dirty !== dirty) doc.dirty = dirty;
  }

  // ── closing ───────────────────────────────────────────────────────────

  async requestClose(id: string): Promise<void> {
    const tab = this.tabs.tabs.find((t) => t.id === id);
    if (!tab) return;
    if (tab.kind === "file") {
      const doc = this.docs[tab.path];
      if (doc?.dirty) {
        const answer = await this.ask({
          title: `Save changes to ${basename(tab.path)}?`,
          message: "Your changes will be lost if you close without saving.",
          buttons: [
            { id: "cancel", label: "Cancel" },
            { id: "discard", label: "Don't save", tone: "danger" },
            { id: "save", label: "Save", tone: "primary" },
          ],
        });
        if (answer.button === "save") {
          const saved = await this.save(tab.path);
          if (!saved) return;
        } else if (answer.button !== "discard") return;
      }
    }
    this.#closeNow(id);
  }

  #closeNow(id: string): void {
    const tab = closeTab(this.tabs, id);
    if (!tab) return;
    if (tab.kind === "file") {
      const buffer = this.#buffers.get(tab.path);
      buffer?.listener?.dispose();
      buffer?.model?.dispose();
      this.#buffers.delete(tab.path);
      delete this.docs[tab.path];
    } else {
      delete this.diffs[tab.id.slice("diff:".length)];
    }
    if (this.tabs.tabs.length === 0 && this.narrow) this.mobilePane = "chat";
    const active = this.activeTab;
    if (active?.kind === "file") this.selectedPath = active.path;
  }

  // ── saving and conflicts ──────────────────────────────────────────────

  /** A viewer's page changes no file (the relay would answer 403): says so instead, true when refused. */
  #viewerRefused(what: string): boolean {
    if (connection.room.canDrive) return false;
    connection.notify("info", "Read-only", viewersCant(what));
    return true;
  }

  /** Saves the active file tab, if any. */
  async saveActive(): Promise<boolean> {
    const tab = this.activeTab;
    if (tab?.kind !== "file") return false;
    return this.save(tab.path);
  }

  /**
   * Writes the buffer to disk against the version it was based on. A 409
   * opens the conflict view instead; nothing is overwritten silently and the
   * buffer is never discarded. Returns true when the file was written.
   */
  async save(path: string): Promise<boolean> {
    if (this.#viewerRefused("save files")) return false;
    const doc = this.docs[path];
    const buffer = this.#buffers.get(path);
    if (!doc || !buffer?.model || doc.status !== "ready" || doc.saving) return false;
    const model = buffer.model;
    const content = model.getValue();
    const altId = model.getAlternativeVersionId();
    // During a conflict, saving means "mine (as edited in the merge view) over theirs".
    const base = doc.conflict ? doc.conflict.version : doc.deletedOnDisk ? null : doc.version;
    doc.saving = true;
    try {
      const result = await filesApi.save(path, content, base);
      if ("kind" in result) {
        doc.conflict = { content: result.current.content ?? "", version: result.current.version, merging: false };
        doc.deletedOnDisk = result.current.version === null;
        doc.diskChanged = null;
        this.activate(fileTabId(path));
        return false;
      }
      doc.version = result.version;
      buffer.baseText = content;
      buffer.cleanAltId = altId;
      doc.conflict = null;
      doc.diskChanged = null;
      doc.deletedOnDisk = false;
      doc.size = new TextEncoder().encode(content).length;
      this.#syncDirty(path);
      return true;
    } catch (error) {
      connection.notify("error", `Could not save ${basename(path)}`, describe(error));
      return false;
    } finally {
      doc.saving = false;
      if (buffer.refreshAfterSave) {
        buffer.refreshAfterSave = false;
        void this.#refreshDocument(path);
      }
    }
  }

  /** Conflict: write my buffer over what is on disk now. */
  keepMine(path: string): Promise<boolean> {
    return this.save(path);
  }

  /** Conflict or disk change: replace my buffer with the disk text (undo brings mine back). */
  takeTheirs(path: string): void {
    const doc = this.docs[path];
    const buffer = this.#buffers.get(path);
    const theirs = doc?.conflict ?? doc?.diskChanged;
    if (!doc || !buffer || !theirs) return;
    this.#replaceBuffer(path, theirs.content, theirs.version);
    doc.conflict = null;
    doc.diskChanged = null;
  }

  /** Conflict: make the right side of the diff editable to merge by hand. */
  startMerge(path: string): void {
    const doc = this.docs[path];
    if (doc?.conflict) doc.conflict.merging = true;
  }

  /** Disk changed under unsaved edits: show both in the conflict view. */
  compareWithDisk(path: string): void {
    const doc = this.docs[path];
    if (!doc?.diskChanged) return;
    doc.conflict = { ...doc.diskChanged, merging: false };
    doc.diskChanged = null;
  }

  /** Disk changed under unsaved edits: keep editing; the next save will ask. */
  dismissDiskChange(path: string): void {
    const doc = this.docs[path];
    if (doc) doc.diskChanged = null;
  }

  /** Replaces the buffer with disk text as a minimal, undoable edit, then marks it clean. */
  #replaceBuffer(path: string, content: string, version: string | null): void {
    const doc = this.docs[path];
    const buffer = this.#buffers.get(path);
    if (!doc || !buffer) return;
    const model = buffer.model;
    if (model && !model.isDisposed()) {
      const edit = minimalEdit(model.getValue(), content);
      if (edit) {
        const start = model.getPositionAt(edit.start);
        const end = model.getPositionAt(edit.end);
        model.pushEditOperations(
          [],
          [{ range: { startLineNumber: start.lineNumber, startColumn: start.column, endLineNumber: end.lineNumber, endColumn: end.column }, text: edit.text }],
          () => null,
        );
      }
      buffer.cleanAltId = model.getAlternativeVersionId();
    }
    buffer.baseText = content;
    doc.version = version;
    doc.deletedOnDisk = version === null;
    this.#syncDirty(path);
    if (!model) doc.dirty = false;
  }

  // ── disk changes ──────────────────────────────────────────────────────

  #onDiskChange(paths: string[] | null, git: boolean): void {
    const changed = paths?.map(normalizePath) ?? null;
    const touches = (path: string) =>
      changed === null || changed.some((p) => p === path || p === "" || path.startsWith(`${p}/`) || p.startsWith(`${path}/`));

    if (this.treeStatus !== "idle" || this.gitStatus !== "idle") this.#scheduleListingRefresh();
    for (const path of Object.keys(this.docs)) if (touches(path)) void this.#refreshDocument(path);
    for (const diff of Object.values(this.diffs)) {
      // A commit or checkout changes the HEAD side of every diff against HEAD.
      if (diff.source === "git" && (git || touches(diff.path))) void this.#loadGitDiff(diff.key, diff.path);
    }
  }

  #scheduleListingRefresh(): void {
    if (this.#treeTimer !== null) clearTimeout(this.#treeTimer);
    this.#treeTimer = setTimeout(() => {
      this.#treeTimer = null;
      if (this.treeStatus !== "idle") void this.loadTree();
      void this.loadGit();
    }, 150);
  }

  async #refreshDocument(path: string): Promise<void> {
    const doc = this.docs[path];
    if (!doc) return;
    const buffer = this.#buffers.get(path);
    if (doc.saving) {
      if (buffer) buffer.refreshAfterSave = true;
      return;
    }
    if (doc.status === "loading") return;
    if (doc.status === "error" || doc.status === "readonly" || !buffer) {
      // Maybe it exists now, or became editable: load it afresh.
      doc.status = "loading";
      doc.error = null;
      doc.reason = null;
      await this.#loadDocument(path);
      return;
    }
    let file;
    try {
      file = await filesApi.read(path);
    } catch (error) {
      if (error instanceof FilesApiError && error.status === 404) {
        const current = this.docs[path];
        if (current) {
          current.deletedOnDisk = true;
          if (current.conflict) current.conflict.version = null;
          if (current.conflict) current.conflict.content = "";
        }
      }
      return;
    }
    const current = this.docs[path];
    if (!current || current.saving) return;
    if (file.readOnly) {
      if (!current.dirty) {
        current.status = "readonly";
        current.reason = file.reason;
        current.version = file.version;
      }
      return;
    }
    current.deletedOnDisk = false;
    if (current.conflict) {
      current.conflict.content = file.content;
      current.conflict.version = file.version;
      return;
    }
    if (file.version === current.version) {
      current.diskChanged = null;
      return;
    }
    const model = buffer.model;
    const mine = model && !model.isDisposed() ? model.getValue() : buffer.baseText;
    if (!current.dirty || mine === file.content) {
      this.#replaceBuffer(path, file.content, file.version);
      current.diskChanged = null;
    } else {
      current.diskChanged = { content: file.content, version: file.version };
    }
  }

  // ── file operations ───────────────────────────────────────────────────

  ask(request: Omit<DialogRequest, "resolve">): Promise<{ button: string | null; value: string }> {
    return new Promise((resolve) => {
      this.dialog?.resolve({ button: null, value: "" });
      this.dialog = {
        ...request,
        resolve: (result) => {
          this.dialog = null;
          resolve(result);
        },
      };
    });
  }

  async createEntry(type: "file" | "dir", inFolder: string): Promise<void> {
    if (this.#viewerRefused("create files")) return;
    const answer = await this.ask({
      title: type === "file" ? "New file" : "New folder",
      message: "Path relative to the workspace root.",
      input: { label: type === "file" ? "File path" : "Folder path", value: inFolder ? `${inFolder}/` : "" },
      buttons: [
        { id: "cancel", label: "Cancel" },
        { id: "ok", label: "Create", tone: "primary" },
      ],
    });
    const path = normalizePath(answer.value.trim());
    if (answer.button !== "ok" || path === "") return;
    try {
      await filesApi.create(path, type);
    } catch (error) {
      connection.notify("error", `Could not create ${path}`, describe(error));
      return;
    }
    await this.loadTree();
    this.revealInTree(path);
    if (type === "file") this.openFile(path);
    else this.expanded[path] = true;
  }

  async renameEntry(from: string): Promise<void> {
    if (this.#viewerRefused("rename files")) return;
    const answer = await this.ask({
      title: `Rename ${basename(from)}`,
      message: "New path relative to the workspace root.",
      input: { label: "New path", value: from, selectBaseName: true },
      buttons: [
        { id: "cancel", label: "Cancel" },
        { id: "ok", label: "Rename", tone: "primary" },
      ],
    });
    const to = normalizePath(answer.value.trim());
    if (answer.button !== "ok" || to === "" || to === from) return;
    try {
      await filesApi.rename(from, to);
    } catch (error) {
      connection.notify("error", `Could not rename ${from}`, describe(error));
      return;
    }
    // Open documents follow the rename, unsaved edits included.
    for (const [oldId, newId] of renameTabs(this.tabs, from, to)) {
      const oldPath = oldId.slice("file:".length);
      const newPath = newId.slice("file:".length);
      const doc = this.docs[oldPath];
      const buffer = this.#buffers.get(oldPath);
      if (doc) {
        delete this.docs[oldPath];
        this.docs[newPath] = { ...doc, path: newPath };
      }
      if (buffer) {
        this.#buffers.delete(oldPath);
        // The model's URI names the old path: carry the text into a new model.
        const text = buffer.model && !buffer.model.isDisposed() ? buffer.model.getValue() : buffer.baseText;
        const wasDirty = doc?.dirty ?? false;
        buffer.listener?.dispose();
        buffer.model?.dispose();
        this.#buffers.set(newPath, { ...buffer, model: null, listener: null, viewState: null });
        if (this.#monaco) {
          const model = this.modelFor(this.#monaco, newPath);
          if (model && wasDirty) {
            model.setValue(text);
            const b = this.#buffers.get(newPath)!;
            b.cleanAltId = -1;
            this.#syncDirty(newPath);
          }
        }
      }
    }
    if (this.selectedPath === from) this.selectedPath = to;
    if (this.expanded[from]) this.expanded[to] = true;
    await this.loadTree();
  }

  async deleteEntry(path: string, type: "file" | "dir" | "symlink"): Promise<void> {
    if (this.#viewerRefused("delete files")) return;
    const answer = await this.ask({
      title: `Delete ${basename(path)}?`,
      message: type === "dir" ? `The folder “${path}” and everything in it will be deleted from disk.` : `“${path}” will be deleted from disk.`,
      buttons: [
        { id: "cancel", label: "Cancel" },
        { id: "delete", label: "Delete", tone: "danger" },
      ],
    });
    if (answer.button !== "delete") return;
    try {
      await filesApi.remove(path, type === "dir");
    } catch (error) {
      connection.notify("error", `Could not delete ${path}`, describe(error));
      return;
    }
    // Clean tabs of deleted files close; dirty ones stay (marked deleted) so nothing is lost.
    for (const tab of [...this.tabs.tabs]) {
      if (tab.kind !== "file" || (tab.path !== path && !tab.path.startsWith(`${path}/`))) continue;
      const doc = this.docs[tab.path];
      if (doc?.dirty) doc.deletedOnDisk = true;
      else this.#closeNow(tab.id);
    }
    await this.loadTree();
  }

  /** Folder a "new file" action in the tree should target. */
  folderFor(path: string | null, type: string | null): string {
    if (path === null) return "";
    return type === "dir" ? path : dirname(path);
  }
}

function describe(error: unknown): string {
  if (error instanceof FilesApiError) {
    if (error.status === 404 && error.code === "not_found" && error.message.includes("answered 404")) {
      return "The relay has no workspace file service.";
    }
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

export const workbench = new WorkbenchStore();

/** Opens a workspace file in an editor tab. */
export function openFile(path: string): void {
  workbench.openFile(path);
}

/** Opens a read-only diff in an editor tab (e.g. of a tool's write/edit). */
export function openDiff(options: OpenDiffOptions): void {
  workbench.openDiff(options);
}
