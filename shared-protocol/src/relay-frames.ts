// The relay's own messages. pi's stdout travels relay → browser as binary
// WebSocket frames, byte for byte; everything the relay says itself travels as
// a text frame holding one of the `RelayFrame` objects below. A browser sends
// text frames only: a pi command (one JSON object, no raw newline) or one of
// the `RelayRequest` objects, whose types all start with "pier.".

import type { Focus, LinkInfo, Person, Role, Suggestion } from "./presence.ts";
import type { SessionsInfo } from "./sessions-api.ts";
import type { PiOrigin } from "./pi-origin.ts";

export const RELAY_PROTOCOL_VERSION = 1;

/** Path of the WebSocket endpoint (the secret never appears in it). */
export const RELAY_SOCKET_PATH = "/ws";

/** Largest text frame a browser may send (a prompt with a few images fits). */
export const MAX_COMMAND_BYTES = 16 * 1024 * 1024;

/** Prefix of the browser → relay control requests. */
export const RELAY_REQUEST_PREFIX = "pier.";

/** What the relay knows about the pi child process. */
export type ChildStatus =
  | { state: "starting"; epoch: number }
  | { state: "running"; epoch: number; pid: number; startedAt: number }
  | {
      state: "exited";
      epoch: number;
      code: number | null;
      signal: string | null;
      exitedAt: number;
      /** Set when pi could not be started at all (e.g. ENOENT for --pi). */
      error?: string;
    };

/** Why the relay runs pi against the built-in scripted demo model. */
export type DemoInfo = {
  reason: "requested" | "no_model";
  /** Scratch copy of the sample project pi works in. */
  projectDir: string;
  /** The scripted model plays the built-in tour (false: a scenario file given with --demo-scenario; absent from older relays). */
  tour?: boolean;
};

/**
 * A prompt, steer or follow-up the relay wrote to pi, as its command_sent
 * frame announced it (images' data left out), for a page that joins later.
 */
export type SentPrompt = {
  sender: Person;
  line: string;
  at: number;
  /** Bytes into the replay that follows the hello where the command went to pi: its echo comes after this. */
  offset: number;
  /** Sent by this browser (the same cookie) before it reloaded. */
  mine?: true;
};

/**
 * Whether the workspace is trusted: one decision shared with pi (its
 * `<agentDir>/trust.json` and `defaultProjectTrust` setting, see pi's
 * docs/security.md). Untrusted, nothing the folder configures runs: git runs
 * with the repository's own commands (filters, diff drivers, fsmonitor,
 * submodules' config, lazy fetches) switched off, and pi is started with
 * `--no-approve` (no `.pi/` extensions, prompts, skills or settings).
 */
export type WorkspaceTrustInfo = {
  trusted: boolean;
  /**
   * Where the decision comes from: a saved decision for this folder or for
   * a parent folder (`path` names it), pi's `defaultProjectTrust` setting, or
   * pi's own `--approve` / `--no-approve` given after pier's `--` (fixed for
   * this run: the page cannot change it).
   */
  source: "folder" | "parent" | "default" | "pi_args";
  /** The folder whose saved decision applies (source "folder" or "parent"). */
  path?: string;
  /** Set when pi's trust store cannot be read (the folder then counts as untrusted): what is wrong. */
  problem?: string;
};

export type RelayErrorCode =
  | "frame_too_large"
  | "binary_frame"
  | "invalid_json"
  | "raw_newline"
  | "invalid_command"
  | "unknown_request"
  | "pi_not_running"
  | "too_slow"
  /** A command names a file the relay does not let pi open or write (switch_session, export_html). */
  | "path_refused"
  /** A viewer tried something only a driver may do (send pi a command, answer a dialog, change a file…). */
  | "forbidden"
  /** Another browser answered this extension dialog first. */
  | "already_answered"
  /** A relay request could not be carried out (e.g. restarting pi on a session file that is not allowed). */
  | "request_failed"
  /**
   * Too much asked too fast: a read-only command past its page's or link's
   * budget (or the same read as one still waiting, or an id already in use),
   * or a pier.* request past its page's budget. pi never saw it; ask again later.
   */
  | "rate_limited";

export type RelayFrame =
  | {
      type: "hello";
      protocolVersion: typeof RELAY_PROTOCOL_VERSION;
      /** Unique per connection; prefix your command ids with it. */
      clientId: string;
      relayVersion: string;
      cwd: string;
      /** pi's command line as spawned (program and arguments). */
      piCommand: string[];
      /** Which pi runs (version, and whether from PATH, bundled or --pi). Absent from older relays and captures. */
      pi?: PiOrigin;
      demo: DemoInfo | null;
      child: ChildStatus;
      /** The binary frames that follow, up to `replay_end`, replay pi's stdout of this epoch. */
      replay: { bytes: number; truncated: boolean };
      /** Last stderr lines of the current child, oldest first. */
      recentStderr: string[];
      peers: number;
      limits: { maxCommandBytes: number };
      /** pi's session folder and the relay's export folder; null when sessions are not saved (`--no-session`). */
      sessions: SessionsInfo | null;
      /** This browser, as the others see it (its role decides what the relay lets it do). */
      you: Person;
      /** Everyone connected, this browser included. */
      people: Person[];
      /**
       * The relay sends something at least this often (a `keepalive` when
       * nothing else): a page that hears nothing for several of these is on
       * a connection that died without closing, and reconnects.
       */
      heartbeatMs: number;
      /** Whether the workspace is trusted (absent from older relays and captures: then treat it as untrusted). */
      trust?: WorkspaceTrustInfo;
      /**
       * Recent prompts, steers and follow-ups whose user message may still be
       * in the replay, oldest first, so that this page can say who sent them
       * (as it would have from their command_sent frames). Absent from older
       * relays and captures.
       */
      sent?: SentPrompt[];
      /**
       * What the relay knows of pi's dialogs (extension_ui_request select,
       * confirm, input, editor) of this child: those still waiting for an
       * answer, with when the relay passed them on (pi's clock, near enough:
       * a countdown goes on from there after a reload), and those already
       * answered, by whom. A late page shows only what still waits. Absent
       * from older relays and captures.
       */
      dialogs?: { waiting: { id: string; since: number }[]; answered: { id: string; by: string; at: number }[] };
      /**
       * Set by `pier tap`: this is a read-only view of another program's
       * conversation with pi (`client` names it, the sender of its
       * command_sent frames). The relay refuses everything a page sends,
       * reads included, so a page asks pi nothing. Absent otherwise.
       */
      tap?: { client: string };
    }
  | { type: "replay_end" }
  /** Nothing else went to this browser for `heartbeatMs`: the relay is still here. */
  | { type: "keepalive" }
  | { type: "child_started"; child: ChildStatus }
  | { type: "child_exited"; child: ChildStatus }
  | { type: "stderr"; line: string }
  | { type: "peers"; count: number }
  | { type: "notice"; level: "info" | "warning"; message: string }
  /**
   * Files under the workspace changed on disk (any cause); paths are
   * workspace-relative, "/"-separated. `git: true` (with `paths` maybe empty):
   * the repository moved (commit, checkout, `git add`…), so its status and
   * HEAD contents may differ even where no file did.
   */
  | { type: "workspace_changed"; paths: string[]; git?: true }
  /** Session files appeared, grew or went away: a session list on screen should be fetched again. */
  | { type: "sessions_changed" }
  /**
   * The session's real shells changed: one was opened, closed, ended, shared
   * or unshared. A shell list on screen should be fetched again (a viewer's
   * lists only the shared ones). Every browser of the session gets it.
   */
  | { type: "terminals_changed" }
  /**
   * Another browser's command, as the relay wrote it to pi's stdin (every
   * browser but the sender gets it): who sent what, for the inspector and
   * for saying "Ada stopped the run".
   */
  | { type: "command_sent"; sender: Person; line: string; at: number }
  /**
   * Who is here changed: someone came, renamed themselves, or went. Only the
   * change (the hello carries everyone), so a classroom of N browsers costs
   * each join a small frame, not N copies of everyone.
   */
  | { type: "presence"; event: "joined" | "changed"; person: Person }
  | { type: "presence"; event: "left"; clientId: string }
  /**
   * Several came at once: a lone joiner is told at once ("joined"); those
   * who come in the next moments (a class opening its link) are told
   * together, in the order they came, so the pages already open redraw
   * their people once, not once per joiner.
   */
  | { type: "presence"; event: "arrived"; people: Person[] }
  /** Something a person did outside pi's commands (a file saved, created, renamed or deleted), for attribution. */
  | { type: "activity"; by: Person | null; action: "saved" | "created" | "renamed" | "deleted"; path: string; to?: string; at: number }
  /** To drivers: the links made so far (secrets left out). */
  | { type: "links"; links: LinkInfo[] }
  /** To the driver who asked: a new link's secret (the page builds the URL from its own address). */
  | { type: "link_created"; link: LinkInfo; token: string }
  /** To everyone following `clientId`: what that driver looks at now. */
  | { type: "focus"; clientId: string; focus: Focus }
  /** A viewer's suggested prompt (to drivers, and back to its author). */
  | { type: "suggestion"; suggestion: Suggestion }
  /** A suggestion was taken or dismissed (by a driver), or withdrawn (by its author). */
  | { type: "suggestion_resolved"; id: string; by: Person; accepted: boolean }
  /** The workspace's trust changed (a driver decided here, or pi's trust store changed): to everyone. */
  | { type: "workspace_trust"; trust: WorkspaceTrustInfo }
  | {
      type: "error";
      code: RelayErrorCode;
      message: string;
      /** The refused command's type and id, when they could be read. */
      command?: { type?: string; id?: string };
    };

export type RelayFrameType = RelayFrame["type"];

export type RelayRequest =
  /**
   * Start pi again (ends the running child first, if any). With
   * `sessionFile` (the session the browser was on, from get_state) pi
   * reopens that session, so nothing is stranded by a crash. Drivers only.
   */
  | { type: "pier.restart_pi"; sessionFile?: string }
  /** Tell the others what to call this browser's person (any role). */
  | { type: "pier.introduce"; name: string }
  /**
   * Make a link for another browser (drivers only): the relay answers with
   * link_created. A viewer link opens this live session only unless `scope`
   * is "board" (every session); a driver link always reaches them all.
   */
  | { type: "pier.create_link"; role: Role; scope?: "session" | "board" }
  /** Revoke a link: its secret stops working and its browsers are disconnected at once (drivers only). */
  | { type: "pier.revoke_link"; linkId: string }
  /** What this driver looks at (for viewers who follow them). */
  | { type: "pier.focus"; focus: Focus }
  /** Suggest a prompt to the drivers (any role). */
  | { type: "pier.suggest"; text: string }
  /** Take a suggestion into the prompt box or dismiss it (drivers), or withdraw one's own. */
  | { type: "pier.resolve_suggestion"; id: string; accepted: boolean }
  /**
   * Trust or distrust the workspace (drivers only; viewers and revoked links
   * never): saved in pi's trust.json as pi's /trust saves it, then pi is
   * restarted with or without the project's resources, reopening
   * `sessionFile` (the session the page is on) as pier.restart_pi does.
   */
  | { type: "pier.trust_workspace"; trusted: boolean; sessionFile?: string };

export const RELAY_REQUEST_TYPES: readonly RelayRequest["type"][] = [
  "pier.restart_pi",
  "pier.introduce",
  "pier.create_link",
  "pier.revoke_link",
  "pier.focus",
  "pier.suggest",
  "pier.resolve_suggestion",
  "pier.trust_workspace",
];

/** Close code for a browser whose link was revoked. */
export const CLOSE_REVOKED = 4403;

export function isRelayFrame(value: unknown): value is RelayFrame {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}
