// Lessons for the events pi writes to stdout, and for each kind of streaming
// step inside message_update. Written for Pier from pi's docs (json.md,
// rpc.md) and from what captured transcripts of pi 0.87.1 and 1.6 showed
// (see DESIGN.md): where the two differ, the lesson says what the wire does.

import type { AssistantMessageEventType, PiEventType } from "@pier/protocol";
import type { LessonText } from "./lessons.ts";

const RUN = "json.md#agent-and-turn-events";
const MESSAGES = "json.md#message-events";
const STREAM = "json.md#reconstruct-streaming-messages";
const TOOLS = "json.md#tool-execution-events";
const QUEUE = "json.md#queue-and-state-events";
const COMPACTION = "json.md#compaction-events";
const RETRY = "json.md#retry-events";
const RPC_ONLY = "json.md#rpc-only-events";

export const EVENT_LESSONS: Record<PiEventType, LessonText> = {
  agent_start: {
    title: "agent_start: pi starts working",
    summary: "A low-level agent run began: model calls and tool executions follow.",
    body:
      "pi sends agent_start when it begins working on input: a prompt that started a run, a queued follow-up, or an automatic retry after a failed model call. " +
      "One run as a person sees it can hold several agent_start … agent_end pairs (each retry and each follow-up starts another). " +
      "Treat the first agent_start after idle as 'pi is busy', but never treat agent_end as 'done': only agent_settled says that.",
    docs: RUN,
  },
  agent_end: {
    title: "agent_end: one low-level run ended",
    summary: "One low-level run ended; pi may still go on by itself.",
    body:
      "agent_end closes one agent_start … agent_end pair and lists the messages it produced (in pi 0.87.1 the first run's list starts with the system message). " +
      "willRetry: true means a model call failed and pi will retry it: auto_retry_start follows. " +
      "Even with willRetry false, a queued follow-up, overflow compaction or an extension can start another run. " +
      "Wait for agent_settled before you call the run finished or re-enable anything that needs pi idle.",
    docs: RUN,
  },
  agent_settled: {
    title: "agent_settled: the run is really over",
    summary: "pi is idle and will not continue on its own.",
    body:
      "agent_settled follows the last agent_end of a run, once retries, overflow recovery and queued follow-ups are done: it is the event to wait for after a prompt's success response. " +
      "From pi 1.1 it carries aborted: true when the run ended because of abort; pi 0.87.1 sends no field, which means unknown, not false. " +
      "A cancelled retry (abort_retry) ends with auto_retry_end and agent_settled with no agent_end in between. " +
      "A tool still marked running at this point will never send its tool_execution_end.",
    docs: RUN,
  },
  turn_start: {
    title: "turn_start: one model call begins",
    summary: "A turn began: one model call plus the tool calls it asks for.",
    body:
      "A turn is one assistant response and the tools it calls. After the tools ran, pi starts another turn with their results, until the model answers without calling a tool. " +
      "In the first turn of a run pi also sends the system prompt (role system) and the user's message as message_start/message_end pairs.",
    docs: RUN,
  },
  turn_end: {
    title: "turn_end: a turn finished",
    summary: "A turn finished: its assistant message and the tool results it produced.",
    body:
      "turn_end repeats the turn's assistant message (as in its message_end) and carries toolResults, the toolResult messages of this turn. " +
      "It adds nothing a client that followed message_end and tool_execution_end does not already have. " +
      "When the assistant message stopped with toolUse, another turn_start follows.",
    docs: RUN,
  },
  message_start: {
    title: "message_start: a message begins",
    summary: "A message began: the system prompt, a user message, an assistant answer, a tool result or another role.",
    body:
      'For an assistant message it is an empty snapshot (content [], stopReason "pending"): the content then streams in message_update deltas. ' +
      "Other roles (user, toolResult, custom …) arrive complete here and again in message_end. " +
      "The system prompt arrives as role system, with named sections, at the start of a run: it is the model's instructions, not assistant output, and Pier keeps it apart from the conversation.",
    docs: MESSAGES,
  },
  message_update: {
    title: "message_update: one streaming step",
    summary: "One streaming step of the assistant message being written.",
    body:
      "On the wire message_update carries only {type, usage, assistantMessageEvent}: no accumulated message and no partial snapshot. " +
      "Rebuild each content block from contentIndex and the deltas; a *_end step gives a block's final content, and message_end replaces the whole message. " +
      "usage is cumulative and often zero until late. These records are most of the traffic: a long answer sends thousands, so handle each in constant time.",
    docs: STREAM,
  },
  message_end: {
    title: "message_end: a message is complete",
    summary: "A message is complete, and this copy is the authoritative one.",
    body:
      "Replace whatever was rebuilt from deltas with message_end.message. " +
      "An assistant message ends with a stopReason: stop (finished), toolUse (tool calls follow), length (hit the output limit), error (with errorMessage; an automatic retry may follow) or aborted. " +
      "pi 1.x adds durationMs, the time the model call took. For role system this is the system prompt now in force.",
    docs: MESSAGES,
  },
  tool_execution_start: {
    title: "tool_execution_start: a tool runs",
    summary: "A tool call started executing.",
    body:
      "Correlate everything about one call by toolCallId: it is the id of the toolCall block in the assistant message and of the toolResult that follows, and several calls can run in parallel. " +
      "args are the validated arguments. " +
      "From pi 0.99 a tool can call other tools: those nested executions carry parentToolCallId (their own id is <parent>/<n>) and never appear in the transcript as tool calls of their own.",
    docs: TOOLS,
  },
  tool_execution_update: {
    title: "tool_execution_update: a tool's progress",
    summary: "A running tool reported a partial result, such as bash output so far.",
    body:
      "partialResult is the tool's latest partial result. For pi's built-in tools each update replaces the previous one (bash sends the whole output so far, not just the new part). " +
      "Show it live and replace it with tool_execution_end's result. A chatty command can send many of these.",
    docs: TOOLS,
  },
  tool_execution_end: {
    title: "tool_execution_end: a tool finished",
    summary: "A tool call finished, successfully or not.",
    body:
      "result holds the content sent back to the model and tool-specific details (an edit's diff, for instance); isError says whether it failed. pi's bash tool fails on a non-zero exit, with 'Command exited with code N' in the text. " +
      "pi 1.1 adds durationMs, how long execute() took. The toolResult message (message_start/message_end) follows. " +
      "An aborted tool may never send this record: agent_settled ends it.",
    docs: TOOLS,
  },
  queue_update: {
    title: "queue_update: the queues changed",
    summary: "The steering or follow-up queue changed; both lists are the complete current contents.",
    body:
      "pi sends it when a steer or follow-up is queued, when queued messages are delivered to the model, and when clear_queue empties them. " +
      "Replace what you show with these lists; do not merge. " +
      "Steering messages are delivered after the current turn's tools have run, follow-ups only when the agent would otherwise stop. abort does not empty the queues.",
    docs: QUEUE,
  },
  compaction_start: {
    title: "compaction_start: summarising older history",
    summary: "pi started replacing older history with a summary to free context.",
    body:
      "reason is manual (the compact command), threshold (automatic, the context is nearly full) or overflow (the model refused a context that was too long: pi compacts, then retries). " +
      "pi refuses prompts while it compacts. compaction_end follows.",
    docs: COMPACTION,
  },
  compaction_end: {
    title: "compaction_end: compaction finished",
    summary: "Compaction finished, was aborted, or failed.",
    body:
      "With a result, messages before firstKeptEntryId were replaced by a summary; the event does not say which messages remain, so ask get_messages for the new transcript. " +
      "Without a result, aborted tells an abort from a failure (errorMessage). " +
      "willRetry: true (overflow recovery) means pi now retries the prompt, so the run goes on.",
    docs: COMPACTION,
  },
  auto_retry_start: {
    title: "auto_retry_start: a model call will be retried",
    summary: "A model call failed with a transient error; pi waits delayMs, then tries again.",
    body:
      "It follows the failed attempt's agent_end (willRetry: true). attempt counts from 1 to maxAttempts and errorMessage is the provider's error; pi 0.87.1 retries a 529 only because its message says overloaded. " +
      "Right after it, an entry_appended context_edit removes the failed assistant message from the model's context. " +
      "The retry begins with a new agent_start; abort_retry cancels the wait.",
    docs: RETRY,
  },
  auto_retry_end: {
    title: "auto_retry_end: retrying is over",
    summary: "Retrying ended: a retried attempt worked, or pi gave up.",
    body:
      "success: true arrives once a retried attempt worked (often just before that attempt's turn_end). " +
      "success: false carries finalError: the attempts ran out, or 'Retry cancelled' after abort_retry, in which case agent_settled follows with no agent_end in between.",
    docs: RETRY,
  },
  summarization_retry_scheduled: {
    title: "summarization_retry_scheduled: a summary will be retried",
    summary: "The model call writing a compaction or branch summary failed; pi retries it after delayMs.",
    body:
      "Like auto_retry_start, but for summaries. attempt and maxAttempts count the tries and errorMessage says what failed. " +
      "summarization_retry_attempt_start marks each new try and summarization_retry_finished the end of retrying.",
    docs: RETRY,
  },
  summarization_retry_attempt_start: {
    title: "summarization_retry_attempt_start: a summary retry begins",
    summary: "A new attempt at writing a summary started.",
    body: "source says which summary: compaction (with the compaction's reason) or branchSummary. " + "It follows summarization_retry_scheduled once the delay is over.",
    docs: RETRY,
  },
  summarization_retry_finished: {
    title: "summarization_retry_finished: summary retries are over",
    summary: "pi stopped retrying a summary, whether the last try worked or not.",
    body: "For a compaction, compaction_end tells the outcome. Clear any 'retrying the summary' indicator here.",
    docs: RETRY,
  },
  entry_appended: {
    title: "entry_appended: a session entry was written",
    summary: "An entry was appended to the session (an event beyond pi's documented table in 0.87.1).",
    body:
      "entry is a session entry (see session-format.md): most often an extension's custom entry (type custom, from pi.appendEntry: kept in the session, never sent to the model; Pier shows it collapsed in the transcript as \"Extension entry · customType\"), or pi's own bookkeeping such as a context_edit or a label. " +
      "An extension's message (pi.sendMessage) arrives as message_start/message_end with role custom instead; display: false keeps it out of the transcript, not out of the model's context. " +
      "pi 0.87.1 appends a context_edit with replacement null right after auto_retry_start, which drops the failed assistant message from the model's context. " +
      "Do not expect every entry the session file gets to show up here: get_entries is the complete record.",
    docs: QUEUE,
  },
  session_info_changed: {
    title: "session_info_changed: the session was renamed",
    summary: "The session's display name changed (an event beyond pi's documented table in 0.87.1).",
    body: "Wire quirk: when the name was cleared, name is absent rather than null. " + "It follows set_session_name, from any client, or a rename by an extension.",
    docs: QUEUE,
  },
  thinking_level_changed: {
    title: "thinking_level_changed: a new thinking level",
    summary: "The effective thinking level changed (an event beyond pi's documented table in 0.87.1).",
    body: "Sent after set_thinking_level or cycle_thinking_level, and when a model switch clamps the level to what the new model offers. " + "Show this level rather than the one you asked for.",
    docs: QUEUE,
  },
  bash_execution_update: {
    title: "bash_execution_update: output of an RPC bash",
    summary: "A chunk of output of a bash command a client ran (not a tool call).",
    body:
      "id is the bash command's id (absent if it had none) and delta the new output; these stream all of it, while the final bash response may be truncated. " +
      "RPC bash sends no message events: its bashExecution message shows up in get_messages (held back while a run goes on) and reaches the model with the next prompt unless excludeFromContext was set.",
    docs: RPC_ONLY,
  },
  extension_error: {
    title: "extension_error: an extension failed",
    summary: "An extension's handler threw an error.",
    body:
      "RPC mode only. extensionPath names the extension, event the hook it was handling (tool_call, for instance) and error the message. " +
      "pi carries on; show it as a warning, since the extension may have been meant to block or change something.",
    docs: RPC_ONLY,
  },
};

export const DELTA_LESSONS: Record<AssistantMessageEventType, LessonText> = {
  start: {
    title: "start: stream began (never on the wire)",
    summary: "pi's in-process stream start, which RPC mode does not send.",
    body: "pi types this step but sends message_start for an assistant message instead. If a newer pi sends it, there is nothing to do: the content arrives in the steps that follow.",
    docs: STREAM,
  },
  text_start: {
    title: "text_start: a text block begins",
    summary: "A text block of the answer opened at contentIndex.",
    body: "contentIndex is the block's position in the assistant message's content. " + "Create an empty text block there; text_delta steps fill it and text_end gives its final text.",
    docs: STREAM,
  },
  text_delta: {
    title: "text_delta: answer text",
    summary: "A piece of answer text to append to the block at contentIndex.",
    body:
      "Append delta to the text block at contentIndex of the live assistant message. " +
      "Deltas are a few characters each and there are thousands, so append in constant time and re-render sparingly. " +
      "text_end and then message_end replace what was accumulated.",
    docs: STREAM,
  },
  text_end: {
    title: "text_end: a text block is final",
    summary: "The text block at contentIndex is complete; content is its final text.",
    body: "Replace the accumulated text with content: it is authoritative. message_end will replace the whole message anyway.",
    docs: STREAM,
  },
  thinking_start: {
    title: "thinking_start: reasoning begins",
    summary: "A thinking (reasoning) block opened at contentIndex.",
    body: "Models with reasoning write thinking blocks before or between text and tool calls. " + "Show them apart from the answer: they are the model's working, not a reply.",
    docs: STREAM,
  },
  thinking_delta: {
    title: "thinking_delta: reasoning text",
    summary: "A piece of reasoning to append to the thinking block at contentIndex.",
    body: "Append delta to the thinking block at contentIndex, in constant time. thinking_end gives the final text; a provider may redact it, leaving only a signature.",
    docs: STREAM,
  },
  thinking_end: {
    title: "thinking_end: reasoning block is final",
    summary: "The thinking block at contentIndex is complete; content is its final text.",
    body: "Replace the accumulated reasoning with content. A redacted block has empty text and its payload in a signature that is not for display.",
    docs: STREAM,
  },
  toolcall_start: {
    title: "toolcall_start: the model starts a tool call",
    summary: "The model started writing a tool call; its id and toolName arrive first.",
    body:
      "Unlike pi's in-process event, the wire version carries id and toolName so a card can open before the arguments stream in. " +
      "The id is the toolCallId of the tool_execution_* events that follow once the message has ended.",
    docs: STREAM,
  },
  toolcall_delta: {
    title: "toolcall_delta: tool arguments, as JSON text",
    summary: "A fragment of the tool call's arguments, as raw JSON text.",
    body:
      "Concatenate the fragments per contentIndex. The text is incomplete JSON until toolcall_end, so parse it tolerantly, or not at all, while it streams. " +
      "For write and edit these fragments are file contents.",
    docs: STREAM,
  },
  toolcall_end: {
    title: "toolcall_end: the tool call is complete",
    summary: "The tool call is written out, with its parsed arguments.",
    body: "toolCall replaces the fragments. The tool does not run yet: execution (tool_execution_start) begins after the message's message_end.",
    docs: STREAM,
  },
  done: {
    title: "done: stream finished (never on the wire)",
    summary: "pi's in-process end of stream, which RPC mode replaces with message_end.",
    body: "pi types this step but sends message_end instead. If a newer pi sends it, take its message as final, as message_end would be.",
    docs: STREAM,
  },
  error: {
    title: "error: stream failed (never on the wire)",
    summary: "pi's in-process stream error, which RPC mode replaces with message_end.",
    body: "pi types this step but sends message_end with stopReason error or aborted instead. If a newer pi sends it, treat its message as final.",
    docs: STREAM,
  },
};

export const OTHER_STDOUT_LESSONS = {
  "event:unknown": {
    title: "An event Pier does not know",
    summary: "pi sent a record type that is not in Pier's protocol types.",
    body:
      "A newer pi may add events. Pier ignores records it does not know (the reducer changes nothing) and shows them here, so you can see what is new. " +
      "If it keeps coming, Pier may need updating for this pi version.",
    docs: "json.md",
  },
  "delta:unknown": {
    title: "A streaming step Pier does not know",
    summary: "A message_update with a kind of step Pier does not know.",
    body: "A newer pi may add kinds of streaming step. Pier skips it; message_end will still bring the complete message.",
    docs: STREAM,
  },
  "line:invalid": {
    title: "A stdout line that is not JSON",
    summary: "pi wrote a line to stdout that is not valid JSON.",
    body:
      "stdout is reserved for protocol records, so this usually means something inside pi (an extension, a library) printed to stdout. " +
      "Pier keeps going: framing is per line, so the next line is read normally. Diagnostics belong on stderr, which Pier shows in its own lane.",
    docs: "rpc.md#framing",
  },
} satisfies Record<string, LessonText>;
