import { describe, expect, it } from "vitest";
import {
  activeDialog,
  applyExtensionUiRequest,
  cancelResponse,
  clearNotices,
  confirmResponse,
  createExtensionUiState,
  dismissToast,
  expireDialogs,
  markLive,
  markNoticesRead,
  markReplaying,
  MAX_NOTICES,
  MAX_TOASTS,
  pushToast,
  relayDialogsOf,
  remainingMs,
  removeDialog,
  replayedDialogs,
  reviveDialog,
  settledInReplay,
  stripAnsi,
  takeEditorText,
  valueResponse,
  waitingCount,
  widgetsAt,
} from "../src/lib/extension-ui/extension-ui-state.ts";
import { createSessionState, resetSessionState } from "../src/lib/pi-state/session-state.ts";
import { applyRecord } from "../src/lib/pi-state/reduce-record.ts";

const req = (id: string, fields: Record<string, unknown>) => ({ type: "extension_ui_request", id, ...fields });

describe("dialogs", () => {
  it("queue in arrival order with their fields, timeout and deadline", () => {
    const ui = createExtensionUiState();
    applyExtensionUiRequest(ui, req("a", { method: "select", title: "Pick", options: ["x", "y"], timeout: 2000 }), 1000);
    applyExtensionUiRequest(ui, req("b", { method: "confirm", title: "Sure?", message: "Really" }), 1100);
    applyExtensionUiRequest(ui, req("c", { method: "input", title: "Name", placeholder: "type…" }), 1200);
    applyExtensionUiRequest(ui, req("d", { method: "editor", title: "Edit", prefill: "a\nb" }), 1300);

    expect(ui.dialogs.map((d) => d.id)).toEqual(["a", "b", "c", "d"]);
    expect(ui.dialogs[0]).toMatchObject({
      arrivedAt: 1000,
      deadline: 3000,
      replayed: false,
      request: { method: "select", title: "Pick", options: ["x", "y"], timeout: 2000 },
    });
    expect(ui.dialogs[1]!.deadline).toBeNull();
    expect(ui.dialogs[2]!.request).toMatchObject({ placeholder: "type…" });
    expect(ui.dialogs[3]!.request).toMatchObject({ prefill: "a\nb" });
    expect(activeDialog(ui)?.id).toBe("a");
    expect(waitingCount(ui)).toBe(3);
    expect(remainingMs(ui.dialogs[0]!, 2500)).toBe(500);
    expect(remainingMs(ui.dialogs[1]!, 2500)).toBeNull();
  });

  it("answering removes the dialog and the next one becomes active", () => {
    const ui = createExtensionUiState();
    applyExtensionUiRequest(ui, req("a", { method: "confirm", title: "One", message: "" }), 0);
    applyExtensionUiRequest(ui, req("b", { method: "confirm", title: "Two", message: "" }), 0);
    expect(removeDialog(ui, "a")).toBe(true);
    expect(removeDialog(ui, "a")).toBe(false);
    expect(activeDialog(ui)?.id).toBe("b");
    expect(waitingCount(ui)).toBe(0);
  });

  it("drops dialogs whose pi-side timeout has passed, and only those", () => {
    const ui = createExtensionUiState();
    applyExtensionUiRequest(ui, req("short", { method: "select", title: "S", options: ["a"], timeout: 2000 }), 0);
    applyExtensionUiRequest(ui, req("none", { method: "input", title: "I" }), 0);
    applyExtensionUiRequest(ui, req("long", { method: "confirm", title: "L", message: "", timeout: 9000 }), 0);
    expect(expireDialogs(ui, 1999)).toEqual([]);
    expect(expireDialogs(ui, 2000)).toEqual(["short"]);
    expect(ui.dialogs.map((d) => d.id)).toEqual(["none", "long"]);
    expect(expireDialogs(ui, 60_000)).toEqual(["long"]);
    expect(ui.dialogs.map((d) => d.id)).toEqual(["none"]);
  });

  it("ignores a repeated id, malformed requests and a non-positive timeout", () => {
    const ui = createExtensionUiState();
    applyExtensionUiRequest(ui, req("a", { method: "input", title: "I" }), 0);
    applyExtensionUiRequest(ui, req("a", { method: "input", title: "again" }), 0);
    applyExtensionUiRequest(ui, req("b", { method: "select", title: "no options" }), 0);
    applyExtensionUiRequest(ui, { type: "extension_ui_request", method: "confirm", title: "no id" }, 0);
    applyExtensionUiRequest(ui, req("c", { method: "launch_rockets" }), 0);
    applyExtensionUiRequest(ui, null, 0);
    applyExtensionUiRequest(ui, req("d", { method: "confirm", title: "T", message: "m", timeout: 0 }), 0);
    expect(ui.dialogs.map((d) => [d.id, d.deadline])).toEqual([
      ["a", null],
      ["d", null],
    ]);
    expect(ui.dialogs[0]!.request.title).toBe("I");
  });

  it("builds the three kinds of response with the request's id", () => {
    expect(valueResponse("x", "v")).toEqual({ type: "extension_ui_response", id: "x", value: "v" });
    expect(confirmResponse("x", false)).toEqual({ type: "extension_ui_response", id: "x", confirmed: false });
    expect(cancelResponse("x")).toEqual({ type: "extension_ui_response", id: "x", cancelled: true });
  });
});

describe("fire-and-forget requests", () => {
  it("status entries by key: set, replace in place, clear when text is absent", () => {
    const ui = createExtensionUiState();
    applyExtensionUiRequest(ui, req("1", { method: "setStatus", statusKey: "a", statusText: "one" }), 0);
    applyExtensionUiRequest(ui, req("2", { method: "setStatus", statusKey: "b", statusText: "two" }), 0);
    applyExtensionUiRequest(ui, req("3", { method: "setStatus", statusKey: "a", statusText: "uno" }), 0);
    expect(ui.statuses).toEqual([
      { key: "a", text: "uno" },
      { key: "b", text: "two" },
    ]);
    applyExtensionUiRequest(ui, req("4", { method: "setStatus", statusKey: "a" }), 0);
    applyExtensionUiRequest(ui, req("5", { method: "setStatus", statusKey: "never-set" }), 0);
    expect(ui.statuses).toEqual([{ key: "b", text: "two" }]);
  });

  it("widgets by key with placement (default above), cleared when lines are absent", () => {
    const ui = createExtensionUiState();
    applyExtensionUiRequest(ui, req("1", { method: "setWidget", widgetKey: "w1", widgetLines: ["a", "b"] }), 0);
    applyExtensionUiRequest(ui, req("2", { method: "setWidget", widgetKey: "w2", widgetLines: ["c"], widgetPlacement: "belowEditor" }), 0);
    expect(widgetsAt(ui, "aboveEditor")).toEqual([{ key: "w1", lines: ["a", "b"], placement: "aboveEditor" }]);
    expect(widgetsAt(ui, "belowEditor").map((w) => w.key)).toEqual(["w2"]);
    applyExtensionUiRequest(ui, req("3", { method: "setWidget", widgetKey: "w1", widgetLines: ["moved"], widgetPlacement: "belowEditor" }), 0);
    expect(widgetsAt(ui, "aboveEditor")).toEqual([]);
    expect(widgetsAt(ui, "belowEditor").map((w) => w.lines)).toEqual([["moved"], ["c"]]);
    applyExtensionUiRequest(ui, req("4", { method: "setWidget", widgetKey: "w2" }), 0);
    expect(ui.widgets.map((w) => w.key)).toEqual(["w1"]);
  });

  it("title, notify toasts (bounded, default info) and set_editor_text taken once", () => {
    const ui = createExtensionUiState();
    applyExtensionUiRequest(ui, req("t", { method: "setTitle", title: "pi - project" }), 0);
    expect(ui.title).toBe("pi - project");
    applyExtensionUiRequest(ui, req("t2", { method: "setTitle", title: "" }), 0);
    expect(ui.title).toBeNull();

    applyExtensionUiRequest(ui, req("n1", { method: "notify", message: "hello" }), 5);
    applyExtensionUiRequest(ui, req("n2", { method: "notify", message: "careful", notifyType: "warning" }), 6);
    expect(ui.toasts.map((t) => [t.level, t.message, t.at])).toEqual([
      ["info", "hello", 5],
      ["warning", "careful", 6],
    ]);
    dismissToast(ui, ui.toasts[0]!.seq);
    expect(ui.toasts.map((t) => t.message)).toEqual(["careful"]);
    for (let i = 0; i < 10; i++) applyExtensionUiRequest(ui, req(`m${i}`, { method: "notify", message: `#${i}`, notifyType: "error" }), 7);
    expect(ui.toasts).toHaveLength(MAX_TOASTS);
    expect(ui.toasts.at(-1)!.message).toBe("#9");

    applyExtensionUiRequest(ui, req("e", { method: "set_editor_text", text: "draft from ext" }), 0);
    expect(takeEditorText(ui)).toBe("draft from ext");
    expect(takeEditorText(ui)).toBeNull();
  });

  it("strips terminal colour codes from status and widget text", () => {
    const ui = createExtensionUiState();
    applyExtensionUiRequest(ui, req("1", { method: "setStatus", statusKey: "k", statusText: "\u001b[32m● ok\u001b[39m" }), 0);
    applyExtensionUiRequest(ui, req("2", { method: "setWidget", widgetKey: "w", widgetLines: ["\u001b[1mbold\u001b[22m"] }), 0);
    expect(ui.statuses[0]!.text).toBe("● ok");
    expect(ui.widgets[0]!.lines).toEqual(["bold"]);
    expect(stripAnsi("plain")).toBe("plain");
  });
});

describe("replay after a (re)load", () => {
  const replay = [
    req("s", { method: "setStatus", statusKey: "probe", statusText: "ready" }),
    req("w", { method: "setWidget", widgetKey: "probe", widgetLines: ["line"] }),
    req("t", { method: "setTitle", title: "Probe" }),
    req("n", { method: "notify", message: "old news" }),
    req("x", { method: "set_editor_text", text: "old draft" }),
    req("answered", { method: "confirm", title: "Already answered here", message: "" }),
    req("elsewhere", { method: "input", title: "Maybe answered elsewhere" }),
    req("timed", { method: "select", title: "Timed", options: ["a"], timeout: 3000 }),
  ];

  it("rebuilds status, widgets and title, skips one-shot actions and holds dialogs back", () => {
    const ui = createExtensionUiState();
    markReplaying(ui);
    for (const record of replay) applyExtensionUiRequest(ui, record, 10_000);
    // This browser showed the notify before its reload.
    markLive(
      ui,
      (id) => id === "answered",
      [],
      (key) => key === "notify:n",
    );

    expect(ui.statuses).toEqual([{ key: "probe", text: "ready" }]);
    expect(ui.widgets.map((w) => w.key)).toEqual(["probe"]);
    expect(ui.title).toBe("Probe");
    expect(ui.toasts).toEqual([]);
    // Kept in the history, read already.
    expect(ui.notices.map((n) => [n.message, n.earlier])).toEqual([["old news", true]]);
    expect(ui.unread).toBe(0);
    expect(ui.editorText).toBeNull();
    // Answered here before the reload: gone. The others do not pop up.
    expect(ui.dialogs.map((d) => d.id)).toEqual(["elsewhere", "timed"]);
    expect(activeDialog(ui)).toBeNull();
    expect(replayedDialogs(ui).map((d) => d.id)).toEqual(["elsewhere", "timed"]);
    // A replayed timed dialog is over at the latest when its timeout ran out after the replay.
    expect(expireDialogs(ui, 13_000)).toEqual(["timed"]);
  });

  it("a live dialog after the replay pops up; a replayed one joins the queue only when asked", () => {
    const ui = createExtensionUiState();
    markReplaying(ui);
    applyExtensionUiRequest(ui, req("old", { method: "input", title: "Old" }), 0);
    markLive(ui);
    applyExtensionUiRequest(ui, req("new", { method: "confirm", title: "New", message: "" }), 1);
    expect(activeDialog(ui)?.id).toBe("new");
    expect(waitingCount(ui)).toBe(0);
    reviveDialog(ui, "old");
    expect(activeDialog(ui)?.id).toBe("old");
    expect(waitingCount(ui)).toBe(1);
    applyExtensionUiRequest(ui, req("n", { method: "notify", message: "live news" }), 2);
    expect(ui.toasts.map((t) => t.message)).toEqual(["live news"]);
  });
});

describe("notifications and their history", () => {
  it("a replayed notify this browser never showed (pi's session_start, before any page) toasts when the replay ends", () => {
    const ui = createExtensionUiState();
    markReplaying(ui);
    applyExtensionUiRequest(ui, req("hi", { method: "notify", message: "Hello from session_start", notifyType: "warning" }), 5);
    expect(ui.toasts).toEqual([]);
    markLive(ui, undefined, [], () => false);
    expect(ui.toasts.map((t) => [t.level, t.message])).toEqual([["warning", "Hello from session_start"]]);
    expect(ui.unread).toBe(1);
    expect(ui.notices[0]).toMatchObject({ key: "notify:hi", earlier: true });
  });

  it("extension_error behaves like notify: live ones toast, replayed ones toast once per browser", () => {
    const fresh = createSessionState();
    const error = { type: "extension_error", extensionPath: "/x/probe.ts", event: "session_start", error: "boom" };
    applyRecord(fresh, error, 1);
    expect(fresh.extensionUi.toasts.map((t) => [t.level, t.title])).toEqual([["error", "Extension error · session_start"]]);
    const key = fresh.extensionUi.notices[0]!.key!;

    for (const shown of [false, true]) {
      const state = createSessionState();
      markReplaying(state.extensionUi);
      applyRecord(state, error, 1);
      markLive(state.extensionUi, undefined, [], (k) => shown && k === key);
      expect(state.extensionUi.toasts).toHaveLength(shown ? 0 : 1);
      expect(state.extensionUi.notices).toHaveLength(1);
    }
  });

  it("keeps the last MAX_NOTICES, counts unread until the list is opened, and clears", () => {
    const ui = createExtensionUiState();
    for (let i = 0; i < MAX_NOTICES + 5; i++) pushToast(ui, "info", null, `n${i}`, i);
    expect(ui.notices).toHaveLength(MAX_NOTICES);
    expect(ui.notices[0]!.message).toBe("n5");
    expect(ui.toasts).toHaveLength(MAX_TOASTS);
    expect(ui.unread).toBe(MAX_NOTICES + 5);
    markNoticesRead(ui);
    expect(ui.unread).toBe(0);
    clearNotices(ui);
    expect(ui.notices).toEqual([]);
  });
});

describe("session reducer wiring", () => {
  it("applyRecord dispatches extension_ui_request into state.extensionUi, reset clears it", () => {
    const state = createSessionState();
    applyRecord(state, req("s", { method: "setStatus", statusKey: "k", statusText: "on" }));
    applyRecord(state, req("d", { method: "select", title: "Pick", options: ["a", "b"] }));
    expect(state.extensionUi.statuses).toEqual([{ key: "k", text: "on" }]);
    expect(state.extensionUi.dialogs.map((d) => d.id)).toEqual(["d"]);
    // Nothing else in the session moved.
    expect(state.messages).toEqual([]);
    resetSessionState(state);
    expect(state.extensionUi).toEqual(createExtensionUiState());
  });
});

describe("settledInReplay", () => {
  const dialog = (id: string) => req(id, { method: "confirm", title: id, message: "" });

  it("a dialog counts as settled after a later prompt response, and its run's agent_settled if it opened mid-run", () => {
    const records = [
      dialog("cmd"), // idle: an extension command's
      { type: "response", id: "p1", command: "prompt", success: true },
      { type: "agent_start" },
      dialog("hook"), // a tool_call hook's: holds the run
      { type: "response", id: "p2", command: "prompt", success: true }, // a steer mid-run: not enough
      { type: "agent_settled" },
      { type: "agent_start" },
      dialog("mid-run-cmd"), // a /command run while streaming: can outlive the run
      { type: "agent_settled" },
      { type: "response", id: "p3", command: "prompt", success: true },
      dialog("still-open"),
      { type: "response", id: "g", command: "get_state", success: true },
      { type: "agent_start" },
      { type: "agent_settled" },
    ];
    expect([...settledInReplay(records)].sort()).toEqual(["cmd", "hook", "mid-run-cmd"]);
    // Without the prompt response the mid-run command's dialog is still open.
    expect(settledInReplay(records.slice(0, 9)).has("mid-run-cmd")).toBe(false);
    expect(settledInReplay(records.slice(0, 5)).has("hook")).toBe(false);
  });

  it("markLive drops replayed dialogs the replay shows settled, keeps the open one", () => {
    const ui = createExtensionUiState();
    markReplaying(ui);
    const records = [dialog("done"), { type: "response", id: "p", command: "prompt", success: true }, dialog("open")];
    for (const record of records) applyRecordToUi(ui, record);
    markLive(ui, () => false, records);
    expect(ui.dialogs.map((d) => d.id)).toEqual(["open"]);
    expect(replayedDialogs(ui).map((d) => d.id)).toEqual(["open"]);
  });

  function applyRecordToUi(ui: ReturnType<typeof createExtensionUiState>, record: { type: string }) {
    if (record.type === "extension_ui_request") applyExtensionUiRequest(ui, record, 0);
  }
});

describe("dialogs the relay knows about (rule 7)", () => {
  const confirm = (id: string, timeout?: number) => ({ type: "extension_ui_request", id, method: "confirm", title: `Dialog ${id}`, ...(timeout ? { timeout } : {}) });

  it("in a replay, drops a dialog someone answered, and shows one still waiting as live with its countdown from when it was asked", () => {
    const ui = createExtensionUiState();
    ui.relayDialogs = relayDialogsOf({ waiting: [{ id: "w", since: 10_000 }], answered: [{ id: "a", by: "Ada", at: 9_000 }] });
    markReplaying(ui);
    applyExtensionUiRequest(ui, confirm("a"), 50_000);
    applyExtensionUiRequest(ui, confirm("w", 30_000), 50_000);
    applyExtensionUiRequest(ui, confirm("u"), 50_000);
    markLive(ui);
    expect(ui.dialogs.map((d) => [d.id, d.replayed])).toEqual([
      ["w", false],
      ["u", true],
    ]);
    const waiting = ui.dialogs[0]!;
    expect(waiting.deadline).toBe(40_000);
    expect(remainingMs(waiting, 25_000)).toBe(15_000);
  });

  it("reads hello.dialogs defensively, and changes nothing live or without it", () => {
    expect(relayDialogsOf(null)).toBeNull();
    const odd = relayDialogsOf({ waiting: [{ id: 3, since: "x" }, null, { id: "ok", since: 1 }], answered: "no" })!;
    expect([...odd.waiting]).toEqual([["ok", 1]]);
    expect(odd.answered.size).toBe(0);
    const ui = createExtensionUiState();
    ui.relayDialogs = relayDialogsOf({ waiting: [], answered: [{ id: "a", by: "Ada", at: 1 }] });
    // Live (not a replay): the relay's list is about the past; a new request with that id is shown.
    applyExtensionUiRequest(ui, confirm("a"), 5);
    expect(ui.dialogs.map((d) => d.id)).toEqual(["a"]);
  });
});
