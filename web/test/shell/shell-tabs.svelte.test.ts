// The dock's shell tabs against an in-memory relay API: listings that cross
// the page's own changes, sharing, and a viewer's tab whose shell stopped
// being shared.
import type { TerminalInfo, TerminalListResponse } from "@pier/protocol";
import { describe, expect, it } from "vitest";
import type { ShellApi } from "../../src/lib/shell/shell-api.ts";
import { COMMANDS_TAB, ShellTabs } from "../../src/lib/shell/shell-tabs.svelte.ts";

const info = (id: string, shared = false): TerminalInfo => ({ id, title: `bash ${id.slice(1)}`, cols: 80, rows: 24, createdAt: 1, alive: true, shared });

/** The relay's shells in memory; each listing waits until the test lets it answer. */
function memoryApi(start: TerminalInfo[] = []) {
  let shells = [...start];
  let seq = shells.length;
  const listings: { answer: () => void }[] = [];
  let listed = 0;
  const api: ShellApi = {
    list: () =>
      new Promise<TerminalListResponse>((resolve) => {
        listed++;
        // What the relay holds when it answers, not when it was asked.
        const snapshot = () => resolve({ terminals: shells.map((s) => ({ ...s })), unavailable: null });
        listings.push({ answer: snapshot });
      }),
    create: async () => {
      const made = info(`t${++seq}`);
      shells.push(made);
      return made;
    },
    close: async (id) => void (shells = shells.filter((s) => s.id !== id)),
    share: async (id, shared) => {
      const shell = shells.find((s) => s.id === id);
      if (!shell) throw new Error(`There is no shell "${id}" in this live session (it may have been closed).`);
      shell.shared = shared;
      return { ...shell };
    },
    socketUrl: (id) => `ws://x/terminal?id=${id}`,
  };
  return {
    api,
    set(next: TerminalInfo[]) {
      shells = next;
    },
    /** Answers the oldest listing waiting. */
    async answer() {
      listings.shift()!.answer();
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
    get listed() {
      return listed;
    },
  };
}

describe("ShellTabs", () => {
  it("keeps the tab it just opened when a listing asked for before the open answers late", async () => {
    const relay = memoryApi([info("t1")]);
    const tabs = new ShellTabs(relay.api, "test-a");
    const refreshed = tabs.refresh();
    // Between the ask and the answer, this page opens a shell.
    await tabs.open(80, 24);
    expect(tabs.active).toBe("t2");
    relay.set([info("t1")]); // The relay answers as it was before the open.
    await relay.answer();
    // That answer is stale (no t2): it is not shown, the tab stays on top, and the store lists again.
    expect(tabs.shells.map((s) => s.id)).toEqual(["t2"]);
    expect(tabs.active).toBe("t2");
    expect(relay.listed).toBe(2);
    relay.set([info("t1"), info("t2")]);
    await relay.answer();
    await refreshed;
    expect(tabs.shells.map((s) => s.id)).toEqual(["t1", "t2"]);
    expect(tabs.active).toBe("t2");
  });

  it("asked again while listing, lists once more after, and shows the last answer", async () => {
    const relay = memoryApi([info("t1")]);
    const tabs = new ShellTabs(relay.api, "test-b");
    const first = tabs.refresh();
    void tabs.refresh();
    void tabs.refresh();
    expect(relay.listed).toBe(1);
    relay.set([info("t1"), info("t2", true)]);
    await relay.answer();
    expect(relay.listed).toBe(2);
    relay.set([info("t2", true)]);
    await relay.answer();
    await first;
    expect(relay.listed).toBe(2);
    expect(tabs.shells).toEqual([info("t2", true)]);
  });

  it("shares and unshares a shell, and says why when it cannot", async () => {
    const relay = memoryApi([info("t1")]);
    const tabs = new ShellTabs(relay.api, "test-c");
    const refreshed = tabs.refresh();
    await relay.answer();
    await refreshed;
    await tabs.share("t1", true);
    expect(tabs.shells[0]!.shared).toBe(true);
    await tabs.share("t1", false);
    expect(tabs.shells[0]!.shared).toBe(false);
    await tabs.share("t9", true);
    expect(tabs.error).toMatch(/no shell "t9"/);
  });

  it("a viewer's tab whose shell stopped being shared goes, and Commands is on top again", async () => {
    const relay = memoryApi([info("t1", true)]);
    const tabs = new ShellTabs(relay.api, "test-d");
    let refreshed = tabs.refresh();
    await relay.answer();
    await refreshed;
    tabs.select("t1");
    relay.set([]);
    refreshed = tabs.refresh();
    await relay.answer();
    await refreshed;
    expect(tabs.shells).toEqual([]);
    expect(tabs.active).toBe(COMMANDS_TAB);
  });
});
