// The front class: how its parts are wired (disk changes reach the tree, git
// and open files; saved tabs come back per workspace; opening shows the editor).

import { flushSync } from "svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadSavedTabs, storeSavedTabs } from "../../src/lib/workspace/saved-tabs.ts";
import { WorkbenchStore, type WorkbenchHost } from "../../src/lib/workspace/workbench.svelte.ts";
import { MemoryWorkspace, settle } from "./support/memory-files-api.ts";

function host(key: string | null = null) {
  let listener: ((paths: string[] | null, git: boolean) => void) | null = null;
  const state = $state({ key });
  const value: WorkbenchHost = {
    notify: () => {},
    canDrive: () => true,
    onWorkspaceChanged: (l) => {
      listener = l;
      return () => (listener = null);
    },
    savedTabsKey: () => state.key,
  };
  return { value, state, change: (paths: string[] | null, git = false) => listener!(paths, git) };
}

function narrowScreen() {
  const list = Object.assign(new EventTarget(), { matches: true });
  return () => list;
}

afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

describe("workbench front", () => {
  it("opening the explorer loads the tree, then git for its badges", async () => {
    const ws = new MemoryWorkspace({ "a.ts": "" });
    const workbench = new WorkbenchStore(host().value, { api: ws.api, matchMedia: null, storage: null });
    workbench.toggleExplorer(true);
    await settle();
    expect(workbench.treeStatus).toBe("ready");
    expect(workbench.gitStatus).toBe("ready");
    expect(workbench.files).toEqual(["a.ts"]);
  });

  it("a burst of disk changes reloads the tree and git once, and an open clean file follows", async () => {
    const ws = new MemoryWorkspace({ "a.ts": "one" });
    const h = host();
    const workbench = new WorkbenchStore(h.value, { api: ws.api, matchMedia: null, storage: null });
    workbench.start();
    await workbench.loadTree();
    await settle();
    workbench.openFile("a.ts");
    await settle();
    vi.useFakeTimers();
    ws.calls.length = 0;
    ws.write("a.ts", "two");
    ws.write("b.ts", "");
    h.change(["a.ts"]);
    h.change(["b.ts"]);
    await vi.advanceTimersByTimeAsync(200);
    vi.useRealTimers();
    await settle();
    expect(ws.calls.filter((c) => c === "GET tree")).toHaveLength(1);
    expect(ws.calls.filter((c) => c === "GET git status")).toHaveLength(1);
    expect(workbench.files).toEqual(["a.ts", "b.ts"]);
    expect(workbench.docs["a.ts"]!.version).toBe(ws.version("a.ts"));
  });

  it("disk changes load nothing for views never shown", async () => {
    const ws = new MemoryWorkspace({ "a.ts": "" });
    const h = host();
    const workbench = new WorkbenchStore(h.value, { api: ws.api, matchMedia: null, storage: null });
    workbench.start();
    vi.useFakeTimers();
    h.change(null);
    await vi.advanceTimersByTimeAsync(200);
    expect(ws.calls).toEqual([]);
  });

  it("puts this workspace's saved tabs back, then keeps saving them under its key", async () => {
    storeSavedTabs("/ws/one", { paths: ["a.ts", "b.ts"], active: "a.ts" });
    storeSavedTabs("/ws/two", { paths: ["other.ts"], active: null });
    const ws = new MemoryWorkspace({ "a.ts": "", "b.ts": "" });
    const h = host(null);
    const workbench = new WorkbenchStore(h.value, { api: ws.api, matchMedia: null, storage: null });
    const stop = $effect.root(() => workbench.start());
    flushSync();
    expect(workbench.tabs.tabs).toEqual([]);
    h.state.key = "/ws/one";
    flushSync();
    await settle();
    expect(workbench.tabs.tabs.map((t) => t.path)).toEqual(["a.ts", "b.ts"]);
    expect(workbench.activeTab?.path).toBe("a.ts");
    workbench.openFile("b.ts");
    flushSync();
    expect(loadSavedTabs("/ws/one")).toEqual({ paths: ["a.ts", "b.ts"], active: "b.ts" });
    expect(loadSavedTabs("/ws/two")).toEqual({ paths: ["other.ts"], active: null });
    stop();
  });

  it("on a narrow screen, opening a file or a diff shows the editor; closing the last tab shows the chat", async () => {
    const ws = new MemoryWorkspace({ "a.ts": "" });
    const workbench = new WorkbenchStore(host().value, { api: ws.api, matchMedia: narrowScreen(), storage: null });
    workbench.openFile("a.ts");
    expect(workbench.mobilePane).toBe("editor");
    expect(workbench.selectedPath).toBe("a.ts");
    workbench.mobilePane = "chat";
    workbench.openDiff({ title: "edit", path: "a.ts", original: "", modified: "x" });
    expect(workbench.mobilePane).toBe("editor");
    await settle();
    for (const tab of [...workbench.tabs.tabs]) await workbench.requestClose(tab.id);
    expect(workbench.editorOpen).toBe(false);
    expect(workbench.mobilePane).toBe("chat");
  });

  it("closing a dirty tab asks; cancel keeps it, save writes it and closes", async () => {
    const ws = new MemoryWorkspace({ "a.ts": "one" });
    const workbench = new WorkbenchStore(host().value, { api: ws.api, matchMedia: null, storage: null });
    workbench.openFile("a.ts");
    await settle();
    const { modelFactory } = await import("./support/text-model.ts");
    const models = modelFactory();
    workbench.documents.modelFor(models.make, "a.ts");
    models.models.get("a.ts")!.type("two");
    let closing = workbench.requestClose("file:a.ts");
    await settle();
    expect(workbench.dialog?.title).toBe("Save changes to a.ts?");
    workbench.dialog!.resolve({ button: "cancel", value: "" });
    await closing;
    expect(workbench.tabs.tabs).toHaveLength(1);
    closing = workbench.requestClose("file:a.ts");
    await settle();
    workbench.dialog!.resolve({ button: "save", value: "" });
    await closing;
    expect(ws.content("a.ts")).toBe("two");
    expect(workbench.tabs.tabs).toHaveLength(0);
  });
});
