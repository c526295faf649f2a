// The workbench of one workspace: explorer (file tree, git changes), editor
// tabs with their documents and diffs, save/conflict handling, the layout of
// the IDE surface. A thin front over the parts, each in its own module:
//   layout-store    drawer, chat width, narrow-screen pane, quick open
//   file-tree-store the listing, open folders, selection
//   git-store       branch and changed files
//   git-repo-store  branches, commit box, pull/push (its code loaded once the Changes view asks)
//   documents-store tabs, open files, buffers and models
//   diffs-store     read-only diff tabs
//   document-saving save and conflicts;  disk-changes  files changed on disk
//   file-operations new, rename, delete;  dialog-store  the one question asked
// This class wires them together and keeps the surface components use.

import type * as MonacoNs from "monaco-editor";
import type { Monaco } from "../monaco/load-monaco.ts";
import { languageForPath } from "../monaco/load-monaco.ts";
import { DialogStore, type DialogAnswer, type DialogRequest } from "./dialog-store.svelte.ts";
import { DiffsStore, type DiffDocument, type OpenDiffOptions } from "./diffs-store.svelte.ts";
import { changeTouches, refreshDocument } from "./disk-changes.ts";
import { compareWithDisk, dismissDiskChange, saveDocument, startMerge, takeTheirs } from "./document-saving.ts";
import { DocumentsStore, type FileDocument, type TextModel, type ViewState } from "./documents-store.svelte.ts";
import { FileOperations, folderFor } from "./file-operations.ts";
import { FileTreeStore, type LoadStatus } from "./file-tree-store.svelte.ts";
import { basename, type TreeNode } from "./file-tree.ts";
import { createFilesApi, type FilesApi } from "./files-api.ts";
import type { GitRepoStore } from "./git-repo-store.svelte.ts";
import { GitStore } from "./git-store.svelte.ts";
import { ReviewStore, type ReviewView } from "./review-store.svelte.ts";
import { openRevertConflict, showRevertOverUnsaved } from "./revert-conflict.ts";
import type { SearchStore } from "./search-store.svelte.ts";
import { LayoutStore, type LayoutOptions } from "./layout-store.svelte.ts";
import { loadSavedTabs, storeSavedTabs } from "./saved-tabs.ts";
import { fileTabId, type Tab, type TabsState } from "./tabs.ts";
import type { WorkbenchContext } from "./workbench-context.ts";
import type { GitChange, WorkspaceEntry } from "./workspace-api-types.ts";
import { takeOpenRequest } from "./open-request.ts";

export type { DialogButton, DialogRequest } from "./dialog-store.svelte.ts";
export type { DiffDocument, OpenDiffOptions } from "./diffs-store.svelte.ts";
export type { DiskText, FileDocument } from "./documents-store.svelte.ts";
export { MIN_CHAT_WIDTH } from "./layout-store.svelte.ts";

/** The page around the workbench: the relay connection, in the app. */
export interface WorkbenchHost extends WorkbenchContext {
  /** Files changed on disk (null: anything may have); `git`: HEAD or the index moved. Returns the unsubscribe function. */
  onWorkspaceChanged(listener: (paths: string[] | null, git: boolean) => void): () => void;
  /** Under which name this browser keeps the workspace's open tabs; null while unknown, or when nothing may be opened (a recording). Read reactively. */
  savedTabsKey(): string | null;
}

export interface WorkbenchOptions extends Pick<LayoutOptions, "storageScope" | "storage" | "matchMedia"> {
  /** Prefix of the workspace file service's routes (default: the relay's own paths). */
  apiBase?: string;
  /** The file service client itself (tests); default: one made for `apiBase`. */
  api?: FilesApi;
}

/** How long a burst of disk changes is gathered before the tree and git status reload. */
const LISTING_REFRESH_MS = 150;

export class WorkbenchStore {
  readonly api: FilesApi;
  readonly layout: LayoutStore;
  readonly fileTree: FileTreeStore;
  readonly git: GitStore;
  /** Branches, the commit box, pull/push (git-repo-store.svelte.ts): made when the Changes view is first shown (loadRepo), not with the first screen. */
  #repo = $state<GitRepoStore | null>(null);
  /** The Search view's query and results (search-store.svelte.ts): made when the view is first shown (loadSearch), not with the first screen. */
  #search = $state<SearchStore | null>(null);
  readonly #apiBase: string;
  readonly diffStore: DiffsStore;
  /** The hunk review of diff tabs and the Changes list's stage/unstage/revert (review-store.svelte.ts). */
  readonly review: ReviewStore;
  readonly documents: DocumentsStore;
  readonly dialogs = new DialogStore();
  readonly #host: WorkbenchHost;
  readonly #operations: FileOperations;
  #started = false;
  #stopEffects: (() => void) | null = null;
  /** Where this workbench's Monaco models live: its session's base ("" or "/live/<id>"). */
  readonly #modelRoot: string;
  #listingTimer: ReturnType<typeof setTimeout> | null = null;
  /** The workspace whose saved tabs were put back (tabs are saved only after that, so nothing is wiped first). */
  #restoredFor = $state<string | null>(null);

  constructor(host: WorkbenchHost, options: WorkbenchOptions = {}) {
    this.#host = host;
    this.#modelRoot = options.apiBase ?? "";
    this.api = options.api ?? createFilesApi({ base: options.apiBase });
    this.layout = new LayoutStore(options);
    this.fileTree = new FileTreeStore(this.api);
    this.git = new GitStore(this.api);
    this.#apiBase = options.apiBase ?? "";
    this.diffStore = new DiffsStore(this.api);
    this.review = new ReviewStore(
      this.api,
      () => void this.loadGit(),
      (key) => key in this.diffStore.diffs,
      {
        revertConflict: (path, offer, scope) => openRevertConflict(this.documents, path, offer, scope),
        reverted: (path) => void showRevertOverUnsaved(this.documents, path),
      },
    );
    this.documents = new DocumentsStore(this.api, this.diffStore, {
      fileActivated: (path) => (this.fileTree.selectedPath = path),
      emptied: () => this.layout.editorEmptied(),
    });
    this.#operations = new FileOperations({
      api: this.api,
      context: host,
      dialogs: this.dialogs,
      tree: this.fileTree,
      reloadTree: () => this.loadTree(),
      documents: this.documents,
      openFile: (path) => this.openFile(path),
    });
  }

  /** Subscribe to disk changes, put saved tabs back, load what the visible views need. Idempotent. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#host.onWorkspaceChanged((paths, git) => this.#onDiskChange(paths, git));
    if (this.explorerOpen) void this.loadTree();
    this.#stopEffects = $effect.root(() => {
      $effect(() => {
        const key = this.#host.savedTabsKey();
        if (key === null || key === this.#restoredFor) return;
        this.#restoreTabs(key);
      });
      $effect(() => {
        const key = this.#restoredFor;
        const paths = this.tabs.tabs.filter((t) => t.kind === "file").map((t) => t.path);
        const active = this.activeTab?.kind === "file" ? this.activeTab.path : null;
        if (key !== null) storeSavedTabs(key, { paths, active });
      });
    });
  }

  /** The Changes view's branch and commit store, null until the view first asks for it. */
  get repo(): GitRepoStore | null {
    return this.#repo;
  }

  /** The Changes view's branch and commit store, its code loaded and the store made on first use (then kept for this workspace). */
  async loadRepo(): Promise<GitRepoStore> {
    if (this.#repo) return this.#repo;
    const [{ GitRepoStore }, { createGitActionsApi }] = await Promise.all([import("./git-repo-store.svelte.ts"), import("./git-actions-api.ts")]);
    return (this.#repo ??= new GitRepoStore(createGitActionsApi(this.#apiBase), () => void this.git.load()));
  }

  /** The Search view's store, null until the view first asks for it. */
  get search(): SearchStore | null {
    return this.#search;
  }

  /** The Search view's store, its code loaded and the store made on first use (then kept for this workspace). */
  async loadSearch(): Promise<SearchStore> {
    if (this.#search) return this.#search;
    const { SearchStore } = await import("./search-store.svelte.ts");
    return (this.#search ??= new SearchStore(this.#apiBase));
  }

  /** Whether any open file has edits not saved yet. */
  get hasUnsaved(): boolean {
    return Object.values(this.docs).some((doc) => doc.dirty);
  }

  /**
   * The page dropped this workbench's session (session-scope.svelte.ts):
   * its effects stop and its Monaco models go. Its tabs stay remembered
   * (nothing is written), so showing the session again puts them back.
   */
  dispose(): void {
    this.#stopEffects?.();
    this.#stopEffects = null;
    this.documents.disposeModels();
  }

  /** Reopens the file tabs this browser had open in this workspace, the active one active again. */
  #restoreTabs(key: string): void {
    const saved = loadSavedTabs(key);
    for (const path of saved.paths) if (!this.docs[path]) this.documents.open(path, { restoring: true });
    if (saved.active !== null) this.activate(fileTabId(saved.active));
    this.#restoredFor = key;
    // A link that asked for one file (open-request.ts): on top of the saved tabs.
    const asked = takeOpenRequest();
    if (asked !== null) this.openFile(asked);
  }

  // ── layout ────────────────────────────────────────────────────────────

  get narrow(): boolean {
    return this.layout.narrow;
  }
  get explorerOpen(): boolean {
    return this.layout.explorerOpen;
  }
  get explorerView(): "files" | "changes" | "search" {
    return this.layout.explorerView;
  }
  get mobilePane(): "editor" | "chat" {
    return this.layout.mobilePane;
  }
  set mobilePane(pane: "editor" | "chat") {
    this.layout.mobilePane = pane;
  }
  get chatWidth(): number {
    return this.layout.chatWidth;
  }
  get quickOpenVisible(): boolean {
    return this.layout.quickOpenVisible;
  }
  set quickOpenVisible(visible: boolean) {
    this.layout.quickOpenVisible = visible;
  }
  get dialog(): DialogRequest | null {
    return this.dialogs.dialog;
  }

  toggleExplorer(open = !this.explorerOpen): void {
    this.layout.setExplorerOpen(open);
    if (open && this.treeStatus === "idle") void this.loadTree();
    if (open && this.explorerView === "changes") void this.loadGit();
  }

  showExplorerView(which: "files" | "changes" | "search"): void {
    this.layout.explorerView = which;
    if (!this.explorerOpen) this.toggleExplorer(true);
    if (which === "changes") void this.loadGit();
  }

  setChatWidth(width: number): void {
    this.layout.setChatWidth(width);
  }

  openQuickOpen(): void {
    this.layout.quickOpenVisible = true;
    if (this.treeStatus === "idle" || this.treeStatus === "error") void this.loadTree();
  }

  ask(request: Omit<DialogRequest, "resolve">): Promise<DialogAnswer> {
    return this.dialogs.ask(request);
  }

  // ── file tree ─────────────────────────────────────────────────────────

  get root(): string | null {
    return this.fileTree.root;
  }
  get entries(): WorkspaceEntry[] {
    return this.fileTree.entries;
  }
  get tree(): TreeNode {
    return this.fileTree.tree;
  }
  get treeTruncated(): boolean {
    return this.fileTree.truncated;
  }
  get treeStatus(): LoadStatus {
    return this.fileTree.status;
  }
  get treeError(): string | null {
    return this.fileTree.error;
  }
  get expanded(): Record<string, true> {
    return this.fileTree.expanded;
  }
  get selectedPath(): string | null {
    return this.fileTree.selectedPath;
  }
  set selectedPath(path: string | null) {
    this.fileTree.selectedPath = path;
  }
  get files(): string[] {
    return this.fileTree.files;
  }

  async loadTree(): Promise<void> {
    await this.fileTree.load();
    // Decorations in the tree come from git status too.
    if (this.gitStatus === "idle") void this.loadGit();
  }

  toggleFolder(path: string, open?: boolean): void {
    this.fileTree.toggleFolder(path, open);
  }

  collapseAll(): void {
    this.fileTree.collapseAll();
  }

  revealInTree(path: string): void {
    this.fileTree.reveal(path);
  }

  // ── git ───────────────────────────────────────────────────────────────

  get gitStatus(): LoadStatus {
    return this.git.status;
  }
  get gitError(): string | null {
    return this.git.error;
  }
  get isRepo(): boolean {
    return this.git.isRepo;
  }
  get branch(): string | null {
    return this.git.branch;
  }
  get changes(): GitChange[] {
    return this.git.changes;
  }
  get changeByPath(): Map<string, GitChange> {
    return this.git.changeByPath;
  }

  loadGit(): Promise<void> {
    // The branch menu and commit box follow git too, once they were shown.
    if (this.#repo && this.#repo.status !== "idle") void this.#repo.load();
    return this.git.load();
  }

  /** Opens (or refreshes) a tab diffing the working-tree file against HEAD (its hunks: index → working tree; shown first on a phone); `staged`: a tab of what is staged. */
  /** `view`: open in that view (a run's changed files open in hunks, to review them), also when the tab was open in the other. */
  openChangeDiff(change: GitChange, side: "staged" | "unstaged" = "unstaged", view?: ReviewView): void {
    const tab = side === "staged" ? this.diffStore.putGitStaged(change) : this.diffStore.putGitChange(change);
    const review = this.review.ensure(tab.key, change.path, side, side === "staged" ? (change.from ?? null) : null, view ?? (side === "staged" || this.narrow ? "hunks" : "side"));
    if (view !== undefined) this.review.setView(tab.key, view);
    if (!review.loading) void this.review.load(tab.key);
    this.documents.openDiffTab(tab);
    this.layout.showEditor();
  }

  // ── documents ─────────────────────────────────────────────────────────

  get tabs(): TabsState {
    return this.documents.tabs;
  }
  get docs(): Record<string, FileDocument> {
    return this.documents.docs;
  }
  get diffs(): Record<string, DiffDocument> {
    return this.diffStore.diffs;
  }
  get activeTab(): Tab | null {
    return this.documents.activeTab;
  }
  get editorOpen(): boolean {
    return this.documents.editorOpen;
  }

  /** Opens a workspace file in a tab (or focuses its tab). */
  openFile(path: string): void {
    const clean = this.documents.open(path);
    if (clean === null) return;
    this.fileTree.selectedPath = clean;
    this.layout.showEditor();
  }

  /** Opens a read-only diff (e.g. of a tool's write/edit). Same title + path reuses the tab. */
  openDiff(options: OpenDiffOptions): void {
    this.documents.openDiffTab(this.diffStore.putStatic(options));
    this.layout.showEditor();
  }

  activate(id: string): void {
    this.documents.activate(id);
  }

  /** The Monaco model of an open, editable file (created on first request). */
  modelFor(monaco: Monaco, path: string): TextModel | null {
    return this.documents.modelFor((file, text) => {
      // Under the session's base: two live sessions of the page may both have a README.md open.
      const uri = monaco.Uri.from({ scheme: "file", path: `${this.#modelRoot}/${file}` });
      monaco.editor.getModel(uri)?.dispose();
      return monaco.editor.createModel(text, languageForPath(monaco, file), uri);
    }, path);
  }

  saveViewState(path: string, state: ViewState | null): void {
    this.documents.saveViewState(path, state);
  }

  viewState(path: string): MonacoNs.editor.ICodeEditorViewState | null {
    return this.documents.viewState(path);
  }

  /** Closes a tab; a file with unsaved edits asks first (save, don't save, cancel). */
  async requestClose(id: string): Promise<void> {
    const tab = this.tabs.tabs.find((t) => t.id === id);
    if (!tab) return;
    if (tab.kind === "file" && this.docs[tab.path]?.dirty) {
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
        if (!(await this.save(tab.path))) return;
      } else if (answer.button !== "discard") return;
    }
    this.documents.closeNow(id);
  }

  /** Saves the active file tab, if any. */
  async saveActive(): Promise<boolean> {
    const tab = this.activeTab;
    if (tab?.kind !== "file") return false;
    return this.save(tab.path);
  }

  /** Writes the buffer against the version it was based on; a 409 opens the conflict view. True when written. */
  save(path: string): Promise<boolean> {
    return saveDocument(this.documents, this.#host, path);
  }

  /** Conflict: write my buffer over what is on disk now. */
  keepMine(path: string): Promise<boolean> {
    return this.save(path);
  }

  takeTheirs(path: string): void {
    takeTheirs(this.documents, path);
  }

  startMerge(path: string): void {
    startMerge(this.documents, path);
  }

  compareWithDisk(path: string): void {
    compareWithDisk(this.documents, path);
  }

  dismissDiskChange(path: string): void {
    dismissDiskChange(this.documents, path);
  }

  // ── disk changes ──────────────────────────────────────────────────────

  #onDiskChange(paths: string[] | null, git: boolean): void {
    const touches = changeTouches(paths);
    if (this.treeStatus !== "idle" || this.gitStatus !== "idle") this.#scheduleListingRefresh();
    for (const path of Object.keys(this.docs)) if (touches(path)) void refreshDocument(this.documents, path);
    this.diffStore.diskChanged(touches, git);
    this.review.diskChanged(touches, git);
    this.#search?.diskChanged();
  }

  /** A burst of changes (a build, a checkout) reloads the listings once. */
  #scheduleListingRefresh(): void {
    if (this.#listingTimer !== null) clearTimeout(this.#listingTimer);
    this.#listingTimer = setTimeout(() => {
      this.#listingTimer = null;
      if (this.treeStatus !== "idle") void this.loadTree();
      void this.loadGit();
    }, LISTING_REFRESH_MS);
  }

  // ── file operations ───────────────────────────────────────────────────

  createEntry(type: "file" | "dir", inFolder: string): Promise<void> {
    return this.#operations.createEntry(type, inFolder);
  }

  renameEntry(from: string): Promise<void> {
    return this.#operations.renameEntry(from);
  }

  deleteEntry(path: string, type: "file" | "dir" | "symlink"): Promise<void> {
    return this.#operations.deleteEntry(path, type);
  }

  /** Folder a "new file" action in the tree should target. */
  folderFor(path: string | null, type: string | null): string {
    return folderFor(path, type);
  }
}
