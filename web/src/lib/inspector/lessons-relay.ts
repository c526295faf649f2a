// Lessons for what Pier's relay says itself (text frames, relay-frames.ts)
// and for the relay requests a browser sends. These are Pier's protocol, not
// pi's: no pi docs anchor.

import type { RelayFrameType, RelayRequest } from "@pier/protocol";
import type { LessonText } from "./lessons.ts";

/**
 * Every relay frame type. relay-frames.ts has no runtime list, so this one is
 * checked against the RelayFrame union at compile time (below and in the
 * lessons test).
 */
export const RELAY_FRAME_TYPES = [
  "hello",
  "replay_end",
  "child_started",
  "child_exited",
  "stderr",
  "peers",
  "notice",
  "workspace_changed",
  "sessions_changed",
  "command_sent",
  "error",
] as const satisfies readonly RelayFrameType[];

type AssertTrue<T extends true> = T;
// Compile-time proof that RELAY_FRAME_TYPES names every frame type.
export type RelayFrameTypesListIsComplete = AssertTrue<
  [Exclude<RelayFrameType, (typeof RELAY_FRAME_TYPES)[number]>] extends [never] ? true : false
>;

export const RELAY_FRAME_LESSONS: Record<RelayFrameType, LessonText> = {
  hello: {
    title: "hello: the relay greets this browser",
    summary: "The first frame on a connection: who you are, how pi was started, and what replay follows.",
    body:
      "clientId is unique to this connection (Pier prefixes its command ids with it). child says whether pi is starting, running or has exited; piCommand is pi's command line. " +
      "The binary frames that follow, up to replay_end, replay pi's stdout of the current child (bounded: replay.truncated says the start is missing), so a page that connects late or reloads rebuilds the session. " +
      "recentStderr holds the last stderr lines.",
  },
  replay_end: {
    title: "replay_end: the replay is over",
    summary: "Everything before this was pi's earlier output replayed; everything after is live.",
    body:
      "Records in the replay already happened: one-shot effects (a notification, set_editor_text) must not fire again, and responses in it answer commands sent before this page connected. " +
      "A dialog read from the replay may already be answered elsewhere.",
  },
  child_started: {
    title: "child_started: a new pi process",
    summary: "The relay started pi (again); a new epoch of pi's output begins.",
    body:
      "The new pi knows nothing of commands sent to the old one: they will never be answered. " +
      "Framing starts afresh, and the session state should be rebuilt (get_state, then the transcript).",
  },
  child_exited: {
    title: "child_exited: pi stopped",
    summary: "The pi process exited, with an exit code or a signal.",
    body:
      "error is set when pi could not be started at all (a wrong --pi path, for instance). Anything pending is lost; a run in progress did not finish. " +
      "stderr usually says why; a browser can ask the relay to start pi again (pier.restart_pi).",
  },
  stderr: {
    title: "stderr: a line pi wrote to stderr",
    summary: "One line of pi's diagnostics, which are never protocol data.",
    body: "pi reserves stdout for records; warnings, stack traces and extension logs go to stderr. Do not parse them; read them when something went wrong.",
  },
  peers: {
    title: "peers: how many browsers are connected",
    summary: "The number of browsers connected to this relay changed.",
    body: "Every connected browser sees the same pi and can send commands. Responses and events reach everyone, so a response may answer another browser's command.",
  },
  notice: {
    title: "notice: the relay has something to say",
    summary: "An informational message or warning from the relay itself.",
    body: "For example that pi runs against the offline demo model. Show it to the user.",
  },
  workspace_changed: {
    title: "workspace_changed: files changed on disk",
    summary: "Files under the workspace changed, whatever changed them.",
    body: "paths are workspace-relative. git: true means the repository moved (a commit, a checkout, git add…), so status and HEAD contents may differ even where no file did. Reload open editors and the file tree.",
  },
  sessions_changed: {
    title: "sessions_changed: session files changed",
    summary: "Session files appeared, grew or went away.",
    body: "A session list on screen should be fetched again. The frame does not say which files changed.",
  },
  command_sent: {
    title: "command_sent: another browser sent pi a command",
    summary: "Who sent what to pi, as the relay wrote it to pi's stdin.",
    body:
      "Several browsers can drive one pi. Each sees pi's answers to everyone, but only its own commands: the relay therefore tells every other browser what it forwarded, with the sender. " +
      "line is the command exactly as written to pi (one JSON record), so its id pairs with the response that follows on the byte stream.",
  },
  error: {
    title: "error: the relay refused something",
    summary: "The relay refused a frame this browser sent, or a request failed.",
    body:
      "code says why: invalid_json, raw_newline, frame_too_large, invalid_command, path_refused, pi_not_running, too_slow and others. " +
      "When command names the refused command's type and id, pi never saw it: no response will come for that id.",
  },
};

export const RELAY_REQUEST_LESSONS: Record<RelayRequest["type"], LessonText> = {
  "pier.restart_pi": {
    title: "pier.restart_pi: start pi again",
    summary: "A browser asked the relay to restart pi, optionally on the session it was showing.",
    body: "The relay ends the running child, if any, and starts a new one: child_exited and child_started follow. With sessionFile pi reopens that session, so nothing is stranded by a crash.",
  },
};

export const OTHER_RELAY_LESSONS = {
  "relay:unknown": {
    title: "A relay frame Pier does not know",
    summary: "A text frame from the relay of a type this page does not know.",
    body: "The relay may be newer than this page. Reloading the page fetches the matching version.",
  },
  "request:unknown": {
    title: "A relay request Pier does not know",
    summary: "A pier.* request the relay does not offer.",
    body: "A request whose type starts with \"pier.\" goes to the relay, not to pi. The relay answers an unknown one with an unknown_request error frame.",
  },
} satisfies Record<string, LessonText>;
