// A short lesson for every kind of record on the wire: what it means, when it
// is sent, what a client should do with it. The inspector links each record to
// its lesson. The texts live in lessons-*.ts, one file per part of the
// protocol; this module names them with keys and picks the one for an entry.
//
// Keys (stable, for links and tests):
//   event:<type>     a pi event          delta:<step>      a message_update step
//   ui:<method>      an extension UI request
//   response:<cmd>   pi's answer         command:<type>    a command to pi
//   request:<type>   a pier.* request    relay:<type>      a relay frame
// plus the fallbacks event:unknown, delta:unknown, ui:unknown, response:parse,
// response:failed, response:unknown, command:unknown, command:invalid,
// request:unknown, relay:unknown and line:invalid.

import { RPC_COMMAND_TYPES, RELAY_REQUEST_PREFIX } from "@pier/protocol";
import { COMMAND_LESSONS, OTHER_RESPONSE_LESSONS } from "./lessons-commands.ts";
import { DELTA_LESSONS, EVENT_LESSONS, OTHER_STDOUT_LESSONS } from "./lessons-events.ts";
import { EXTENSION_UI_LESSONS, OTHER_EXTENSION_UI_LESSONS } from "./lessons-extension-ui.ts";
import { OTHER_RELAY_LESSONS, RELAY_FRAME_LESSONS, RELAY_REQUEST_LESSONS } from "./lessons-relay.ts";
import { asRecord, recordType, stringField, type WireEntry } from "./wire-entry.ts";

export interface LessonText {
  title: string;
  /** One sentence. */
  summary: string;
  /** Two to six sentences: meaning, when it is sent, what to do, pitfalls. */
  body: string;
  /**
   * Where pi documents it: a page of pi's docs folder and an anchor, e.g.
   * "json.md#agent-and-turn-events" (relative to
   * node_modules/@earendil-works/pi-coding-agent/docs/ or the same folder on
   * GitHub). Absent for Pier's own relay frames.
   */
  docs?: string;
}

export interface Lesson extends LessonText {
  key: string;
}

function build(): Map<string, Lesson> {
  const all = new Map<string, Lesson>();
  const add = (prefix: string, texts: Record<string, LessonText>): void => {
    for (const [name, text] of Object.entries(texts)) all.set(`${prefix}${name}`, { key: `${prefix}${name}`, ...text });
  };
  add("event:", EVENT_LESSONS);
  add("delta:", DELTA_LESSONS);
  add("ui:", EXTENSION_UI_LESSONS);
  for (const type of RPC_COMMAND_TYPES) {
    add("command:", { [type]: COMMAND_LESSONS[type].command });
    add("response:", { [type]: COMMAND_LESSONS[type].response });
  }
  add("request:", RELAY_REQUEST_LESSONS);
  add("relay:", RELAY_FRAME_LESSONS);
  add("", OTHER_STDOUT_LESSONS);
  add("", OTHER_EXTENSION_UI_LESSONS);
  add("", OTHER_RESPONSE_LESSONS);
  add("", OTHER_RELAY_LESSONS);
  return all;
}

const LESSONS: ReadonlyMap<string, Lesson> = build();

/** Every lesson by key. */
export function allLessons(): ReadonlyMap<string, Lesson> {
  return LESSONS;
}

/** The lesson with this key, if any. */
export function lessonByKey(key: string): Lesson | undefined {
  return LESSONS.get(key);
}

function pick(key: string, fallback: string): string {
  return LESSONS.has(key) ? key : fallback;
}

/** The key of the lesson that explains `value` arriving from pi. */
function stdoutKey(value: unknown): string {
  const record = asRecord(value);
  const type = recordType(record);
  if (record === null || type === null) return "line:invalid";
  if (type === "response") {
    const command = stringField(record, "command");
    if (command === "parse") return "response:parse";
    if (record["success"] === false) return "response:failed";
    return command === null ? "response:unknown" : pick(`response:${command}`, "response:unknown");
  }
  if (type === "extension_ui_request") return pick(`ui:${stringField(record, "method") ?? ""}`, "ui:unknown");
  if (type === "message_update") {
    const step = recordType(record["assistantMessageEvent"]);
    return step === null ? "event:message_update" : pick(`delta:${step}`, "delta:unknown");
  }
  return pick(`event:${type}`, "event:unknown");
}

/** The key of the lesson that explains what a browser sent. */
function sentKey(value: unknown): string {
  const type = recordType(value);
  if (type === null) return "command:invalid";
  if (type.startsWith(RELAY_REQUEST_PREFIX)) return pick(`request:${type}`, "request:unknown");
  return pick(`command:${type}`, "command:unknown");
}

/** The key of the lesson for an entry (see the key scheme at the top). */
export function lessonKeyFor(entry: Pick<WireEntry, "direction" | "value">): string {
  if (entry.direction === "out") return sentKey(entry.value);
  if (entry.direction === "relay") return pick(`relay:${recordType(entry.value) ?? ""}`, "relay:unknown");
  return stdoutKey(entry.value);
}

/** The lesson that explains an entry. Always returns one (a fallback for anything unknown). */
export function lessonFor(entry: Pick<WireEntry, "direction" | "value">): Lesson {
  return LESSONS.get(lessonKeyFor(entry))!;
}
