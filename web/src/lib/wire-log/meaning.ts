// What one pi record did to the session, in a sentence, and which part of the
// transcript it touched: the inspector's "meaning" view and the link from a
// record to the element it changed.
//
// It reads the reducer's state AFTER the record was applied (the live message
// is state.stream.messageIndex, tool executions are state.tools[id], the
// newest marker is the last of state.markers) and never scans the
// conversation: O(1) per record, apart from measuring the record's own text.
//
// Numbering: sentences count from 1, as people do ("message 8, block 2");
// targets carry 0-based indexes into state.messages and message content, as
// code does. Never throws, whatever the record holds.

import { shownCustomEntry } from "../pi-state/custom-entries.ts";
import type { SessionState } from "../pi-state/session-state.ts";
import type { LinkTarget } from "../transcript/transcript-targets.ts";
import { asRecord, numberField, recordType, stringField, type JsonRecord } from "./wire-entry.ts";

/** The transcript element a record touched, or null when it touched none. */
export type EffectTarget = LinkTarget | null;

export interface Effect {
  text: string;
  target: EffectTarget;
}

/** What `value` (one pi stdout record) did, given the reducer state after applying it. */
export function describeEffect(value: unknown, after: SessionState): Effect {
  try {
    return describe(value, after);
  } catch {
    return { text: "Pier could not describe this record.", target: null };
  }
}

// ---------------------------------------------------------------------------
// Small wording helpers
// ---------------------------------------------------------------------------

/** 1234567 → "1,234,567" (no Intl: this runs for every delta). */
export function grouped(n: number): string {
  const sign = n < 0 ? "-" : "";
  const digits = String(Math.trunc(Math.abs(n)));
  let out = "";
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ",";
    out += digits[i];
  }
  return sign + out;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${grouped(n)} ${n === 1 ? one : many}`;
}

/** First line, cut to `max` characters. */
export function firstLine(text: string, max = 80): string {
  const newline = text.search(/[\r\n]/);
  const line = newline === -1 ? text : text.slice(0, newline);
  const cut = line.length > max ? `${line.slice(0, max - 1)}…` : line;
  return newline === -1 || cut.endsWith("…") ? cut : `${cut}…`;
}

function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 11)}…` : id;
}

function seconds(ms: number): string {
  if (ms < 1000) return `${grouped(ms)} ms`;
  const s = ms / 1000;
  return `${s < 10 ? s.toFixed(1).replace(/\.0$/, "") : grouped(Math.round(s))} s`;
}

function messageTarget(index: number | null | undefined, block?: number): EffectTarget {
  if (typeof index !== "number" || index < 0) return null;
  return block === undefined ? { kind: "message", index } : { kind: "message", index, block };
}

function lastMarker(after: SessionState, kind: string): EffectTarget {
  const marker = after.markers[after.markers.length - 1];
  return marker !== undefined && marker.kind === kind ? { kind: "marker", seq: marker.seq } : null;
}

function textLength(value: unknown): number {
  return typeof value === "string" ? value.length : 0;
}

// ---------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------

function describe(value: unknown, after: SessionState): Effect {
  const record = asRecord(value);
  const type = recordType(record);
  if (record === null || type === null) return { text: "Not a pi record: nothing changed.", target: null };
  switch (type) {
    case "message_update":
      return describeStep(asRecord(record["assistantMessageEvent"]), after);
    case "message_start":
      return describeMessageStart(asRecord(record["message"]), after);
    case "message_end":
      return describeMessageEnd(asRecord(record["message"]), after);
    case "response":
      return describeResponse(record, after);
    case "extension_ui_request":
      return describeExtensionUi(record);
    case "agent_start": {
      const retry = after.retry !== null && after.retry.phase === "retrying";
      return { text: retry ? `pi starts again: retry ${after.retry!.attempt} of ${after.retry!.maxAttempts}.` : "pi starts working: a low-level run begins.", target: null };
    }
    case "agent_end":
      return {
        text:
          record["willRetry"] === true
            ? "A low-level run ended with a failed model call; pi will retry it."
            : "A low-level run ended. pi may still go on (queued follow-ups, compaction): the run is over only at agent_settled.",
        target: null,
      };
    case "agent_settled": {
      const aborted = record["aborted"] === true ? " It was aborted." : "";
      return { text: `The run is over: pi will not continue on its own.${aborted}`, target: null };
    }
    case "turn_start":
      return { text: `Turn ${grouped((after.turn?.index ?? after.run.turns - 1) + 1)} begins: one model call and the tools it asks for.`, target: null };
    case "turn_end": {
      const results = Array.isArray(record["toolResults"]) ? record["toolResults"].length : 0;
      return { text: results === 0 ? "The turn ended with no tool calls." : `The turn ended with ${plural(results, "tool result")}; another turn follows.`, target: null };
    }
    case "tool_execution_start":
    case "tool_execution_update":
    case "tool_execution_end":
      return describeTool(type, record, after);
    case "queue_update":
      return describeQueue(record);
    case "compaction_start":
      return { text: `pi is compacting the conversation (${stringField(record, "reason") ?? "?"}).`, target: null };
    case "compaction_end":
      return describeCompactionEnd(record, after);
    case "auto_retry_start": {
      const attempt = numberField(record, "attempt") ?? 0;
      const max = numberField(record, "maxAttempts") ?? 0;
      const delay = numberField(record, "delayMs") ?? 0;
      const error = firstLine(stringField(record, "errorMessage") ?? "unknown error", 60);
      return { text: `The model call failed (${error}); pi retries in ${seconds(delay)} (attempt ${attempt} of ${max}).`, target: lastMarker(after, "retry") };
    }
    case "auto_retry_end": {
      const attempt = numberField(record, "attempt") ?? 0;
      const text =
        record["success"] === true ? `Retrying worked on attempt ${attempt}.` : `pi gave up retrying after attempt ${attempt}: ${firstLine(stringField(record, "finalError") ?? "unknown error", 60)}.`;
      return { text, target: lastMarker(after, "retryEnd") };
    }
    case "summarization_retry_scheduled": {
      const delay = numberField(record, "delayMs") ?? 0;
      return {
        text: `Writing a summary failed (${firstLine(stringField(record, "errorMessage") ?? "unknown error", 60)}); pi retries in ${seconds(delay)} (attempt ${numberField(record, "attempt") ?? 0} of ${numberField(record, "maxAttempts") ?? 0}).`,
        target: lastMarker(after, "summarizationRetry"),
      };
    }
    case "summarization_retry_attempt_start":
      return { text: `pi tries again to write the ${stringField(record, "source") === "branchSummary" ? "branch summary" : "compaction summary"}.`, target: null };
    case "summarization_retry_finished":
      return { text: "pi stopped retrying the summary.", target: null };
    case "entry_appended":
      return describeEntry(asRecord(record["entry"]), after);
    case "session_info_changed": {
      const name = stringField(record, "name");
      return { text: name === null ? "The session's name was cleared." : `The session is now named "${firstLine(name, 60)}".`, target: null };
    }
    case "thinking_level_changed":
      return { text: `The thinking level is now ${stringField(record, "level") ?? "?"}.`, target: null };
    case "bash_execution_update": {
      const id = stringField(record, "id");
      return { text: `A bash command${id === null ? "" : ` (${shortId(id)})`} printed ${plural(textLength(record["delta"]), "character")}.`, target: null };
    }
    case "extension_error":
      return {
        text: `An extension failed in ${stringField(record, "event") ?? "?"}: ${firstLine(stringField(record, "error") ?? "", 80)} (${baseName(stringField(record, "extensionPath") ?? "?")}).`,
        target: null,
      };
    default:
      return { text: `A "${firstLine(type, 40)}" record, which Pier does not know: nothing changed.`, target: null };
  }
}

function baseName(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? path : path.slice(slash + 1);
}

function liveBlockToolName(after: SessionState, index: number | null, block: number): string | null {
  if (index === null) return null;
  const content = (after.messages[index] as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return null;
  const item = asRecord(content[block]);
  return stringField(item, "name");
}

/** " (message 3, block 2)": where a streaming step went. */
function stepPlace(index: number | null, block: number | undefined): string {
  return index === null ? "" : ` (message ${grouped(index + 1)}${block === undefined ? "" : `, block ${grouped(block + 1)}`})`;
}

function deltaText(kind: "text_delta" | "thinking_delta", length: number, where: string): string {
  return `Appended ${plural(length, "character")} to ${kind === "text_delta" ? "the answer being written" : "the thinking"}${where}.`;
}

/**
 * A text or thinking delta, described from what the feed noted when it came
 * (see inspector-feed.ts's DeltaMeaning): the same sentence and target as
 * describeEffect gives it.
 */
export function describeDelta(kind: "text_delta" | "thinking_delta", length: number, index: number | null, block: number | undefined): Effect {
  return { text: deltaText(kind, length, stepPlace(index, block)), target: messageTarget(index, block) };
}

/**
 * The parts of a text or thinking delta a description needs, without
 * describing it (null for any other record): the step's kind, its text's
 * length and its block. For the inspector's feed, which words these only
 * when someone reads them.
 */
export function deltaStep(value: unknown): { kind: "text_delta" | "thinking_delta"; length: number; block: number | undefined } | null {
  const record = asRecord(value);
  if (record === null || record["type"] !== "message_update") return null;
  const step = asRecord(record["assistantMessageEvent"]);
  const kind = recordType(step);
  if (kind !== "text_delta" && kind !== "thinking_delta") return null;
  const contentIndex = numberField(step, "contentIndex");
  return { kind, length: textLength(step?.["delta"]), block: contentIndex !== null && contentIndex >= 0 ? contentIndex : undefined };
}

function describeStep(step: JsonRecord | null, after: SessionState): Effect {
  const kind = recordType(step);
  const index = after.stream?.messageIndex ?? null;
  const contentIndex = numberField(step, "contentIndex");
  const block = contentIndex !== null && contentIndex >= 0 ? contentIndex : undefined;
  const where = stepPlace(index, block);
  const target = messageTarget(index, block);
  switch (kind) {
    case "text_start":
      return { text: `The answer starts a text block${where}.`, target };
    case "text_delta":
      return { text: deltaText("text_delta", textLength(step?.["delta"]), where), target };
    case "text_end":
      return { text: `A text block is final: ${plural(textLength(step?.["content"]), "character")}${where}.`, target };
    case "thinking_start":
      return { text: `The model starts thinking${where}.`, target };
    case "thinking_delta":
      return { text: deltaText("thinking_delta", textLength(step?.["delta"]), where), target };
    case "thinking_end":
      return { text: `The thinking block is final: ${plural(textLength(step?.["content"]), "character")}${where}.`, target };
    case "toolcall_start":
      return { text: `pi started writing a call to ${stringField(step, "toolName") ?? "a tool"}${where}.`, target };
    case "toolcall_delta": {
      const name = block === undefined ? null : liveBlockToolName(after, index, block);
      return { text: `Streamed ${plural(textLength(step?.["delta"]), "character")} of arguments${name === null ? "" : ` for ${name}`}${where}.`, target };
    }
    case "toolcall_end": {
      const call = asRecord(step?.["toolCall"]);
      return { text: `The call to ${stringField(call, "name") ?? "a tool"} is complete${where}; it runs after the message ends.`, target };
    }
    case "done":
    case "error":
      return { text: `The stream ${kind === "done" ? "finished" : "failed"}; message_end brings the final message${where}.`, target };
    default:
      return { text: `A streaming step Pier does not know (${kind ?? "none"}): nothing changed.`, target: null };
  }
}

/** Index of a message just started or ended; checked against its role. */
function indexOf(after: SessionState, role: string | null, preferred: number | null): number | null {
  const candidates = [preferred, after.messages.length - 1];
  for (const index of candidates) {
    if (index === null || index < 0) continue;
    if ((after.messages[index] as { role?: unknown } | undefined)?.role === role) return index;
  }
  return null;
}

function describeMessageStart(message: JsonRecord | null, after: SessionState): Effect {
  const role = stringField(message, "role");
  switch (role) {
    case "system":
      return { text: "pi sends the system prompt (kept apart from the conversation).", target: null };
    case "assistant": {
      const index = indexOf(after, role, after.stream?.messageIndex ?? null);
      return { text: `pi begins an answer${index === null ? "" : ` (message ${grouped(index + 1)})`}.`, target: messageTarget(index) };
    }
    case "user": {
      const index = indexOf(after, role, after.openMessageIndex);
      return { text: `The user's message joins the conversation${index === null ? "" : ` as message ${grouped(index + 1)}`}.`, target: messageTarget(index) };
    }
    case "toolResult": {
      const index = indexOf(after, role, after.openMessageIndex);
      return { text: `The result of ${stringField(message, "toolName") ?? "a tool"} goes back to the model${index === null ? "" : ` (message ${grouped(index + 1)})`}.`, target: messageTarget(index) };
    }
    case "custom": {
      const index = indexOf(after, role, after.openMessageIndex);
      // A message with display: false has no row in the transcript to point at.
      const target = message?.["display"] === true ? messageTarget(index) : null;
      return { text: `An ${customMessageWords(message)} joins the conversation${index === null ? "" : ` as message ${grouped(index + 1)}`}.`, target };
    }
    default: {
      const index = indexOf(after, role, after.openMessageIndex);
      return { text: `A ${role ?? "?"} message begins${index === null ? "" : ` (message ${grouped(index + 1)})`}.`, target: messageTarget(index) };
    }
  }
}

function describeMessageEnd(message: JsonRecord | null, after: SessionState): Effect {
  const role = stringField(message, "role");
  if (role === "system") {
    const sections = asRecord(message?.["sections"]);
    const count = sections === null ? 0 : Object.keys(sections).length;
    return { text: `The system prompt is in place${count > 0 ? ` (${plural(count, "section")})` : ""}.`, target: null };
  }
  const preferred = role === "toolResult" ? (after.toolResultIndex[stringField(message, "toolCallId") ?? ""] ?? null) : null;
  const index = indexOf(after, role, preferred);
  const name = index === null ? "The message" : `Message ${grouped(index + 1)}`;
  const target = messageTarget(index);
  if (role === "assistant") {
    const blocks = Array.isArray(message?.["content"]) ? message["content"].length : 0;
    const stop = stringField(message, "stopReason") ?? "?";
    if (stop === "error") return { text: `${name} failed: ${firstLine(stringField(message, "errorMessage") ?? "unknown error", 80)}.`, target };
    if (stop === "aborted") return { text: `${name} was aborted after ${plural(blocks, "block")}.`, target };
    const tokens = numberField(asRecord(message?.["usage"]), "totalTokens");
    return { text: `${name} is final: ${plural(blocks, "block")}${tokens === null ? "" : `, ${plural(tokens, "token")}`}, stop: ${stop}.`, target };
  }
  if (role === "toolResult") {
    const failed = message?.["isError"] === true;
    return { text: `${name} is final: the ${failed ? "failed " : ""}result of ${stringField(message, "toolName") ?? "a tool"}.`, target };
  }
  if (role === "custom") return { text: `${name} is final: an ${customMessageWords(message)}.`, target: message?.["display"] === true ? target : null };
  return { text: `${name} is final (${role ?? "?"}).`, target };
}

/** `extension's message "my-type" (pi.sendMessage; shown in the transcript; the model reads it)`, after "an". */
function customMessageWords(message: JsonRecord | null): string {
  const customType = firstLine(stringField(message, "customType") ?? "?", 60);
  const shown = message?.["display"] === true ? "shown in the transcript" : "display: false, so not shown in the transcript";
  return `extension's message "${customType}" (pi.sendMessage; ${shown}; the model reads it)`;
}

function resultText(result: JsonRecord | null): string {
  const content = result?.["content"];
  if (!Array.isArray(content)) return "";
  for (const item of content) {
    const text = stringField(asRecord(item), "text");
    if (text !== null) return text;
  }
  return "";
}

/** An exit code the tool reported, if it did. */
function exitCode(result: JsonRecord | null): number | null {
  for (const holder of [asRecord(result?.["structuredContent"]), asRecord(result?.["details"])]) {
    const code = numberField(holder, "exit_code") ?? numberField(holder, "exitCode");
    if (code !== null) return code;
  }
  const match = /Command exited with code (\d+)/.exec(resultText(result).slice(-200));
  return match === null ? null : Number(match[1]);
}

function describeTool(type: string, record: JsonRecord, after: SessionState): Effect {
  const id = stringField(record, "toolCallId") ?? "";
  const name = stringField(record, "toolName") ?? "a tool";
  const target: EffectTarget = id === "" ? null : { kind: "tool", toolCallId: id };
  const parentId = stringField(record, "parentToolCallId");
  const caller = parentId === null ? "" : `, called by ${after.tools[parentId]?.toolName ?? "another tool"}`;
  const label = `${name} (${shortId(id)}${caller})`;
  if (type === "tool_execution_start") return { text: `Tool ${label} started.`, target };
  if (type === "tool_execution_update") {
    const partial = resultText(asRecord(record["partialResult"]));
    return { text: `Tool ${label} reported progress: ${plural(partial.length, "character")} of output so far.`, target };
  }
  const result = asRecord(record["result"]);
  const duration = numberField(record, "durationMs");
  const took = duration === null ? "" : ` in ${seconds(duration)}`;
  if (record["isError"] === true) return { text: `Tool ${label} failed${took}: ${firstLine(resultText(result) || "no message", 80)}`, target };
  const code = exitCode(result);
  return { text: `Tool ${label} finished${took}${code === null ? "" : `, exit ${code}`}.`, target };
}

function describeQueue(record: JsonRecord): Effect {
  const steering = Array.isArray(record["steering"]) ? record["steering"].length : 0;
  const followUp = Array.isArray(record["followUp"]) ? record["followUp"].length : 0;
  const total = steering + followUp;
  if (total === 0) return { text: "The queue is empty.", target: null };
  return { text: `${plural(total, "message")} queued (${grouped(steering)} steering, ${grouped(followUp)} follow-up).`, target: null };
}

function describeCompactionEnd(record: JsonRecord, after: SessionState): Effect {
  const result = asRecord(record["result"]);
  const target = lastMarker(after, "compaction");
  const retry = record["willRetry"] === true ? " pi now retries the prompt." : "";
  if (result !== null) {
    const before = numberField(result, "tokensBefore");
    const estimate = numberField(result, "estimatedTokensAfter");
    const sizes = before === null ? "" : `: ${grouped(before)} tokens${estimate === null ? "" : ` → about ${grouped(estimate)}`}`;
    return { text: `Compaction done${sizes}. Older messages are now a summary.${retry}`, target };
  }
  if (record["aborted"] === true) return { text: "Compaction was aborted; nothing changed.", target };
  return { text: `Compaction failed: ${firstLine(stringField(record, "errorMessage") ?? "unknown error", 80)}.${retry}`, target };
}

function describeEntry(entry: JsonRecord | null, after: SessionState): Effect {
  const type = stringField(entry, "type") ?? "?";
  switch (type) {
    case "context_edit":
      return {
        text: entry?.["replacement"] === null ? "pi removed a message from the model's context (the failed attempt before a retry)." : "pi replaced a message's content in the model's context.",
        target: null,
      };
    case "custom": {
      const customType = stringField(entry, "customType") ?? "?";
      if (shownCustomEntry(entry) === null) return { text: `pi stored its own data (${firstLine(customType, 60)}) in the session; it is not sent to the model.`, target: null };
      return {
        text: `An extension saved a custom entry "${firstLine(customType, 60)}" (pi.appendEntry): kept in the session, not sent to the model; the transcript shows it collapsed.`,
        target: lastMarker(after, "customEntry"),
      };
    }
    case "custom_message":
      return { text: `An extension added a message (${stringField(entry, "customType") ?? "?"}) to the session.`, target: null };
    case "label":
      return { text: stringField(entry, "label") === null ? "A label was removed." : `An entry was labelled "${firstLine(stringField(entry, "label")!, 40)}".`, target: null };
    default:
      return { text: `A ${type} entry was written to the session.`, target: null };
  }
}

function describeResponse(record: JsonRecord, after: SessionState): Effect {
  const command = stringField(record, "command") ?? "?";
  const data = asRecord(record["data"]);
  if (command === "parse") return { text: `pi could not parse a line it was sent: ${firstLine(stringField(record, "error") ?? "", 80)}`, target: null };
  if (record["success"] !== true) return { text: `pi refused ${command}: ${firstLine(stringField(record, "error") ?? "unknown error", 80)}`, target: null };
  const disposition = stringField(data, "disposition");
  switch (command) {
    case "prompt":
      if (disposition === "started") return { text: "pi accepted the prompt; a run starts.", target: null };
      if (disposition === "queued") return { text: "pi accepted the prompt and queued it behind the run in progress.", target: null };
      if (disposition === "handled") return { text: "An extension handled the prompt: no run starts for it.", target: null };
      // pi 0.87.1 does not say; the reducer sets streaming only at agent_start.
      return { text: after.status === "streaming" ? "pi accepted the prompt; it joins the run in progress." : "pi accepted the prompt; a run starts.", target: null };
    case "steer":
    case "follow_up": {
      const what = command === "steer" ? "steering message" : "follow-up";
      return { text: disposition === "handled" ? `An extension handled the ${what}: nothing was queued.` : `pi queued the ${what}.`, target: null };
    }
    case "abort":
      return { text: "pi is idle after the abort (queued messages stay queued).", target: null };
    case "clear_queue": {
      const steering = Array.isArray(data?.["steering"]) ? data["steering"].length : 0;
      const followUp = Array.isArray(data?.["followUp"]) ? data["followUp"].length : 0;
      return { text: `pi cleared the queue and returned ${grouped(steering)} steering and ${grouped(followUp)} follow-up ${steering + followUp === 1 ? "text" : "texts"}.`, target: null };
    }
    case "new_session":
    case "switch_session":
    case "fork":
    case "clone":
      return { text: data?.["cancelled"] === true ? `An extension cancelled ${command}.` : `pi is on another session now (${command}).`, target: null };
    case "get_state": {
      const model = stringField(asRecord(data?.["model"]), "id") ?? "no model";
      return { text: `pi's state: ${model}, ${data?.["isStreaming"] === true ? "working" : "idle"}, ${plural(numberField(data, "messageCount") ?? 0, "message")}.`, target: null };
    }
    case "get_messages": {
      const count = Array.isArray(data?.["messages"]) ? data["messages"].length : 0;
      return { text: `pi sent the whole conversation: ${plural(count, "message")}, the system prompt first.`, target: null };
    }
    case "bash": {
      const code = numberField(data, "exitCode");
      const cancelled = data?.["cancelled"] === true;
      return {
        text: cancelled ? "The bash command was cancelled." : `The bash command finished${code === null ? "" : `, exit ${code}`}; its output joins the context with the next prompt.`,
        target: null,
      };
    }
    case "compact":
      return { text: `Compaction done: ${grouped(numberField(data, "tokensBefore") ?? 0)} tokens before.`, target: null };
    case "set_model":
      return { text: `The model is now ${stringField(data, "id") ?? "?"}.`, target: null };
    case "cycle_model":
      return { text: data === null ? "There is no other model to cycle to." : `The model is now ${stringField(asRecord(data["model"]), "id") ?? "?"}.`, target: null };
    case "cycle_thinking_level":
      return { text: data === null ? "This model has no thinking levels." : `The thinking level is now ${stringField(data, "level") ?? "?"}.`, target: null };
    case "get_entries":
      return { text: `pi sent ${plural(Array.isArray(data?.["entries"]) ? data["entries"].length : 0, "session entry", "session entries")}.`, target: null };
    case "export_html":
      return { text: `The session was exported to ${stringField(data, "path") ?? "?"}.`, target: null };
    default:
      return { text: `pi answered ${command}: done.`, target: null };
  }
}

function describeExtensionUi(record: JsonRecord): Effect {
  const method = stringField(record, "method") ?? "?";
  const title = firstLine(stringField(record, "title") ?? "", 60);
  switch (method) {
    case "select": {
      const options = Array.isArray(record["options"]) ? record["options"].length : 0;
      return { text: `An extension asks: ${title} (select, ${plural(options, "option")}).`, target: null };
    }
    case "confirm":
      return { text: `An extension asks: ${title} (yes or no).`, target: null };
    case "input":
      return { text: `An extension asks: ${title} (a line of text).`, target: null };
    case "editor":
      return { text: `An extension asks: ${title} (a text to edit; no timeout).`, target: null };
    case "notify":
      return { text: `An extension says: ${firstLine(stringField(record, "message") ?? "", 80)}`, target: null };
    case "setStatus": {
      const text = stringField(record, "statusText");
      return { text: text === null ? `An extension cleared its status "${stringField(record, "statusKey") ?? "?"}".` : `An extension's status: ${firstLine(text, 60)}`, target: null };
    }
    case "setWidget":
      return { text: Array.isArray(record["widgetLines"]) ? `An extension shows a widget of ${plural(record["widgetLines"].length, "line")}.` : "An extension removed a widget.", target: null };
    case "setTitle":
      return { text: `An extension set the title: ${title}`, target: null };
    case "set_editor_text":
      return { text: "An extension put text into the prompt box.", target: null };
    default:
      return { text: `An extension request Pier does not know (${firstLine(method, 40)}).`, target: null };
  }
}
