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
  "keepalive",
  "child_started",
  "child_exited",
  "stderr",
  "peers",
  "notice",
  "workspace_changed",
  "sessions_changed",
  "terminals_changed",
  "command_sent",
  "presence",
  "activity",
  "links",
  "link_created",
  "focus",
  "suggestion",
  "suggestion_resolved",
  "workspace_trust",
  "error",
] as const satisfies readonly RelayFrameType[];

type AssertTrue<T extends true> = T;
// Compile-time proof that RELAY_FRAME_TYPES names every frame type.
export type RelayFrameTypesListIsComplete = AssertTrue<[Exclude<RelayFrameType, (typeof RELAY_FRAME_TYPES)[number]>] extends [never] ? true : false>;

export const RELAY_FRAME_LESSONS: Record<RelayFrameType, LessonText> = {
  hello: {
    title: "hello: the relay greets this browser",
    summary: "The first frame on a connection: who you are, how pi was started, and what replay follows.",
    body:
      "clientId is unique to this connection (Pier prefixes its command ids with it). child says whether pi is starting, running or has exited; piCommand is pi's command line. " +
      "The binary frames that follow, up to replay_end, replay pi's stdout of the current child (bounded: replay.truncated says the start is missing), so a page that connects late or reloads rebuilds the session. " +
      "recentStderr holds the last stderr lines. heartbeatMs says how often, at the least, the relay will send something.",
  },
  replay_end: {
    title: "replay_end: the replay is over",
    summary: "Everything before this was pi's earlier output replayed; everything after is live.",
    body:
      "Records in the replay already happened: one-shot effects (a notification, set_editor_text) must not fire again, and responses in it answer commands sent before this page connected. " +
      "A dialog read from the replay may already be answered elsewhere.",
  },
  keepalive: {
    title: "keepalive: the relay is still there",
    summary: "Nothing else went to this browser for a while (heartbeatMs, from the hello).",
    body:
      "A connection whose other end vanished without closing it (a laptop that slept, a lost network) looks open for many minutes. " +
      "Because the relay sends something at least every heartbeatMs, a page that hears nothing for several of those knows its connection is dead, and reconnects. " +
      "The relay checks the browser the other way, with WebSocket pings, which the browser answers by itself (pages never see them).",
  },
  child_started: {
    title: "child_started: a new pi process",
    summary: "The relay started pi (again); a new epoch of pi's output begins.",
    body:
      "The new pi knows nothing of commands sent to the old one: they will never be answered. " + "Framing starts afresh, and the session state should be rebuilt (get_state, then the transcript).",
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
    body: "Every connected browser sees the same pi and can send commands. Events and the answers to commands that change something reach everyone, so such a response may answer another browser's command; the answer to a query (get_state, get_messages…) goes only to the browser that asked.",
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
  terminals_changed: {
    title: "terminals_changed: the real shells changed",
    summary: "A shell of this session was opened, closed, ended, shared or unshared.",
    body: "The terminal dock lists the shells again (GET /api/terminals): a driver gets every shell, a viewer only those a driver shares. A viewer watching a shell that stops being shared has its terminal socket closed with code 4003.",
  },
  command_sent: {
    title: "command_sent: another browser sent pi a command",
    summary: "Who sent what to pi, as the relay wrote it to pi's stdin.",
    body:
      "Several browsers can drive one pi. Each sees pi's answers to everyone's commands that change something, but only its own commands: the relay therefore tells every other browser what it forwarded, with the sender. Queries (get_state, get_messages…) are not told: their answers go only to the browser that asked. " +
      "line is the command exactly as written to pi (one JSON record), so its id pairs with the response that follows on the byte stream.",
  },
  presence: {
    title: "presence: who is here",
    summary: "Someone connected, renamed themselves or left; several who connected at once arrive in one frame.",
    body:
      "The hello lists everyone already here; each presence frame then tells only what changed, so a class of hundreds costs little. A lone newcomer is told at once (joined); those who come in the next moments, as a class opening its link, are told together (arrived, with people in the order they came). A driver may do anything; a viewer sees everything live but the relay refuses every pi command, dialog answer and file change from it. " +
      "Names are what people typed: show them as text, never as markup.",
  },
  activity: {
    title: "activity: someone changed a file",
    summary: "A file saved, created, renamed or deleted through Pier's file service, and by whom.",
    body: "pi never hears of these changes, so the relay tells everyone who made them. The watcher's workspace_changed follows for the files themselves.",
  },
  links: {
    title: "links: the links drivers have made",
    summary: "To drivers only: every link made so far, with its role, uses and whether it was revoked.",
    body: "Secrets are never in this list: only the driver who made a link receives its secret, once, in link_created. Viewers never get this frame.",
  },
  link_created: {
    title: "link_created: a new link's secret",
    summary: "To the driver who asked: the secret of the link just made.",
    body: "The page builds the URL from its own address, so a link made on a phone-friendly address works there. A driver link works once; a viewer link lets any number of browsers watch until it expires or is revoked.",
  },
  focus: {
    title: "focus: what a driver looks at",
    summary: "The file and line a driver has on screen, for viewers who follow them.",
    body: "Drivers report it as they move around. The relay passes it on and keeps the last one for browsers that join later.",
  },
  suggestion: {
    title: "suggestion: a prompt someone proposes",
    summary: "A viewer (or a driver) suggested a prompt; drivers may take it into their prompt box.",
    body: "Viewers cannot send pi anything themselves: suggesting is how they take part. The relay sends it to the drivers and back to its author.",
  },
  suggestion_resolved: {
    title: "suggestion_resolved: a suggestion was taken or dismissed",
    summary: "A driver took a suggestion into the prompt box or dismissed it, or its author withdrew it.",
    body: "Every browser that showed the suggestion drops it. accepted says which it was, and by says who did it.",
  },
  workspace_trust: {
    title: "workspace_trust: the folder was trusted or distrusted",
    summary: "Whether the workspace is trusted changed: a driver decided here, or pi's trust store (trust.json) changed.",
    body: "One decision serves pi and Pier. Untrusted, git runs with the repository's own commands (filters, diff drivers, submodules, lazy fetches) off and pi starts with --no-approve; trusted, both are on. source says where the decision comes from.",
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
    body: "The relay ends the running child, if any, and starts a new one: child_exited and child_started follow. With sessionFile pi reopens that session, so nothing is stranded by a crash. Drivers only.",
  },
  "pier.introduce": {
    title: "pier.introduce: say who you are",
    summary: "A browser tells the relay what to call its person.",
    body: "The relay removes control and formatting characters, keeps at most 40 characters and tells everyone in a presence frame. Any role may do it: a name is not a command to pi.",
  },
  "pier.create_link": {
    title: "pier.create_link: make a link",
    summary: "A driver asks for a new driver or viewer link; the secret comes back in link_created.",
    body: "A driver link works once, for one browser. A viewer link works for any number of browsers until it expires or is revoked.",
  },
  "pier.revoke_link": {
    title: "pier.revoke_link: take a link back",
    summary: "A driver revokes a link: its secret stops working and every browser it let in is disconnected at once.",
    body: "Their sessions end too: a page opened with that link is told to ask for a new one. Only drivers can revoke links.",
  },
  "pier.focus": {
    title: "pier.focus: what this driver looks at",
    summary: "A driver reports the file and line on screen, for viewers who follow.",
    body: "Only drivers are followed. The relay passes the focus to everyone else and keeps the last one for browsers that join later.",
  },
  "pier.suggest": {
    title: "pier.suggest: propose a prompt",
    summary: "Anyone may suggest a prompt; the drivers see it and may take it.",
    body: "It is how viewers take part: they cannot send pi anything themselves. The relay keeps at most 100 open suggestions.",
  },
  "pier.resolve_suggestion": {
    title: "pier.resolve_suggestion: take or dismiss a suggestion",
    summary: "A driver takes a suggestion into the prompt box or dismisses it; its author may withdraw it.",
    body: "Taking it does not send anything to pi: the driver reads, edits and sends it like any prompt. Every browser that showed the suggestion then drops it.",
  },
  "pier.trust_workspace": {
    title: "pier.trust_workspace: trust or distrust this folder",
    summary: "A driver trusts (or distrusts) the workspace: saved in pi's trust.json, as pi's /trust saves it.",
    body: "The relay tells everyone in workspace_trust and restarts pi with --approve (or --no-approve), on the session the page was showing. Drivers only: a viewer's request is refused.",
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
    body: 'A request whose type starts with "pier." goes to the relay, not to pi. The relay answers an unknown one with an unknown_request error frame.',
  },
} satisfies Record<string, LessonText>;
