// The Terminal dock's state: the pure BashPanelStore fed by every pi record
// the connection reduces, the sessionStorage memory of command lines, and the
// dock's view preferences. Components read `panels` (snapshots, refreshed when
// any record touches a panel); only this module sends `bash` / `abort_bash`.

import type { BashExecutionMessage } from "@pier/protocol";
import type { RelayConnection } from "../relay/relay-connection.svelte.ts";
import { readableMessages } from "../pi-state/loaded-messages.ts";
import { BashPanelStore, type BashPanel } from "./bash-panel-store.ts";
import { browserSessionStorage, CommandMemory } from "./command-memory.ts";

const VIEW_KEY = "pier.terminal.view.v1";
export const MIN_DOCK_HEIGHT = 140;
const DEFAULT_DOCK_HEIGHT = 300;

interface ViewPrefs {
  open: boolean;
  height: number;
}

function loadView(): ViewPrefs {
  try {
    const raw = typeof localStorage === "undefined" ? null : localStorage.getItem(VIEW_KEY);
    const saved = raw ? (JSON.parse(raw) as Partial<ViewPrefs>) : {};
    return {
      open: saved.open === true,
      height: typeof saved.height === "number" && saved.height >= MIN_DOCK_HEIGHT ? saved.height : DEFAULT_DOCK_HEIGHT,
    };
  } catch {
    return { open: false, height: DEFAULT_DOCK_HEIGHT };
  }
}

/** A panel as components see it: a snapshot plus the command line resolved. */
export type PanelView = BashPanel & {
  /** The command line to show: known here, or recovered from pi's transcript. */
  commandText: string | null;
};

export class TerminalPanels {
  #conn: RelayConnection;
  #memory = new CommandMemory(browserSessionStorage());
  #store = new BashPanelStore({
    lookup: (id) => this.#memory.lookup(id),
    isClosed: (id) => this.#memory.isClosed(id),
    onFinished: (panel) => {
      if (panel.endedAt !== null) this.#memory.finished(panel.id, panel.endedAt);
    },
  });
  /** Bumped whenever the store changed; `panels` re-derives from it. */
  #version = $state(0);

  open = $state(false);
  height = $state(DEFAULT_DOCK_HEIGHT);
  /** The id of the last command this tab started: the dock scrolls it into view. */
  lastStarted = $state<string | null>(null);

  readonly panels: PanelView[] = $derived.by(() => {
    void this.#version;
    // Not through the state's proxy: a signal for each message searched (loaded-messages.ts).
    const transcript = readableMessages(this.#conn.session.messages);
    return this.#store.panels.map((panel) => ({ ...panel, commandText: panel.command ?? recoverCommand(panel, transcript) }));
  });

  readonly runningCount: number = $derived(this.panels.filter((p) => p.status === "running").length);

  constructor(conn: RelayConnection) {
    this.#conn = conn;
    const view = loadView();
    this.open = view.open;
    this.height = view.height;
    conn.onRecord((event) => {
      if (event.kind === "reset") {
        this.#store.reset();
        this.#version++;
      } else if (this.#store.apply(event.record, !event.replaying)) {
        this.#version++;
      }
    });
  }

  /** Runs `command` with pi's RPC bash. Returns false when it could not be sent. */
  run(command: string, excludeFromContext: boolean): boolean {
    const trimmed = command.trim();
    if (trimmed === "") return false;
    const id = this.#conn.send(excludeFromContext ? { type: "bash", command: trimmed, excludeFromContext: true } : { type: "bash", command: trimmed });
    if (id === null) return false;
    const sentAt = Date.now();
    this.#memory.remember(id, excludeFromContext ? { command: trimmed, excludeFromContext: true, sentAt } : { command: trimmed, sentAt });
    this.#store.started(id, trimmed, excludeFromContext, sentAt);
    this.lastStarted = id;
    this.#version++;
    return true;
  }

  /** pi's abort_bash has no target: it cancels every running RPC bash command. */
  abortAll(): void {
    this.#conn.send({ type: "abort_bash" });
  }

  /** The relay refused a command this tab sent (it never reached pi). */
  refused(id: string, message: string): void {
    if (this.#store.get(id) === undefined) return;
    this.#store.failed(id, message);
    this.#version++;
  }

  close(id: string): void {
    this.#memory.markClosed(id);
    this.#store.close(id);
    this.#version++;
  }

  closeFinished(): void {
    for (const panel of this.#store.panels) if (panel.status !== "running") this.close(panel.id);
  }

  setOpen(open: boolean): void {
    this.open = open;
    this.#saveView();
  }

  setHeight(height: number): void {
    this.height = Math.max(MIN_DOCK_HEIGHT, Math.round(height));
    this.#saveView();
  }

  /** Commands run from this tab, newest last (for ↑/↓ in the input). */
  get history(): string[] {
    return this.panels.map((p) => p.commandText).filter((c): c is string => c !== null);
  }

  #saveView(): void {
    try {
      localStorage.setItem(VIEW_KEY, JSON.stringify({ open: this.open, height: this.height } satisfies ViewPrefs));
    } catch {
      // Not persisted; fine.
    }
  }
}

/**
 * Another window ran it (or this tab's memory is gone): pi's transcript has
 * the command once the reducer fetched messages. Match on the recorded result.
 */
function recoverCommand(panel: BashPanel, transcript: readonly { role: string }[]): string | null {
  const result = panel.result;
  if (result === null) return null;
  for (let i = transcript.length - 1; i >= 0; i--) {
    const message = transcript[i] as BashExecutionMessage;
    if (message.role !== "bashExecution") continue;
    if (message.output === result.output && message.exitCode === result.exitCode && message.cancelled === result.cancelled) return message.command;
  }
  return null;
}
