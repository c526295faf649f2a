// Lessons for the 33 commands a client writes to pi's stdin and for pi's
// response to each. From rpc-commands.md and rpc.md, corrected by what real
// pi 0.87.1 and 1.6 do on the wire (DESIGN.md, responses.ts).

import type { RpcCommandType } from "@pier/protocol";
import type { LessonText } from "./lessons.ts";

const doc = (anchor: string): string => `rpc-commands.md#${anchor}`;

interface CommandLessons {
  command: LessonText;
  response: LessonText;
}

export const COMMAND_LESSONS: Record<RpcCommandType, CommandLessons> = {
  prompt: {
    command: {
      title: "prompt: send a user message",
      summary: "Asks pi to work on a message (with optional images), or queues it if pi is busy.",
      body:
        "While pi is streaming, prompt needs streamingBehavior (steer or followUp), otherwise pi refuses it. " +
        "A message starting with / can be an extension command (runs at once, even mid-run), a skill (/skill:name) or a prompt template; the latter two are expanded first. " +
        "Give every command an id: responses can arrive out of order.",
      docs: doc("prompt"),
    },
    response: {
      title: "response to prompt: accepted, not finished",
      summary: "pi accepted the prompt; success only means accepted, queued or handled, never 'done'.",
      body:
        "Keep reading events after it: the run is over at agent_settled, not at this response and not at agent_end. " +
        "pi 1.x (0.99+) adds data.disposition: started (a run starts), queued (joined the run in progress) or handled (an extension command or input handler consumed it: no run, so do not wait for agent_settled). pi 0.87.1 sends no data. " +
        "For an extension command the response comes only after the handler returned, so its dialogs must be answered first. Later failures (provider errors, aborts) arrive as events, never as a second response.",
      docs: doc("prompt"),
    },
  },
  steer: {
    command: {
      title: "steer: redirect pi mid-run",
      summary: "Queues a message delivered after the current turn's tool calls, before the next model call.",
      body:
        "Use it while pi works to change direction without stopping it. Skills and prompt templates are expanded; extension commands are refused (use prompt). " +
        "set_steering_mode decides whether queued steering messages go one at a time or all together.",
      docs: doc("steer"),
    },
    response: {
      title: "response to steer: queued",
      summary: "pi queued the steering message (queue_update shows it).",
      body:
        "The message waits in the steering queue until the current turn's tools are done. Sent while pi is idle, it just waits for the next run. " +
        "pi 1.x adds data.disposition: queued, or handled when an input handler consumed it.",
      docs: doc("steer"),
    },
  },
  follow_up: {
    command: {
      title: "follow_up: more work for later",
      summary: "Queues a message delivered only when pi would otherwise stop.",
      body:
        "The follow-up runs after pi has no tool calls or steering messages left, inside the same run: agent_settled comes only after it. " +
        "Skills and prompt templates are expanded; extension commands are refused (use prompt).",
      docs: doc("follow_up"),
    },
    response: {
      title: "response to follow_up: queued",
      summary: "pi queued the follow-up (queue_update shows it).",
      body: "Sent while pi is idle, it waits for the next run. pi 1.x adds data.disposition: queued, or handled when an input handler consumed it.",
      docs: doc("follow_up"),
    },
  },
  abort: {
    command: {
      title: "abort: stop the run",
      summary: "Stops the current model call and tools.",
      body:
        "abort does not clear the queues (send clear_queue first to take queued messages back) and does not stop an RPC bash (abort_bash does). " +
        "Queued messages still in the session continue after the abort.",
      docs: doc("abort"),
    },
    response: {
      title: "response to abort: pi is idle",
      summary: "pi answers only once the session is idle.",
      body:
        "The aborted message ends with stopReason aborted, and agent_settled (aborted: true from pi 1.1) usually arrives before this response. " +
        "Sent while idle, abort answers at once and changes nothing.",
      docs: doc("abort"),
    },
  },
  clear_queue: {
    command: {
      title: "clear_queue: empty the queues",
      summary: "Removes queued steering and follow-up messages and returns their texts.",
      body: "Send it before abort to stop for good and put the returned texts back into the prompt box, as pi's own Esc does. A queue_update with empty lists follows.",
      docs: doc("clear_queue"),
    },
    response: {
      title: "response to clear_queue: the cleared texts",
      summary: "data.steering and data.followUp are the messages that were taken out of the queues.",
      body: "A queue_update with empty lists goes with it. Restore the texts in the editor so nothing the user typed is lost.",
      docs: doc("clear_queue"),
    },
  },
  new_session: {
    command: {
      title: "new_session: start a fresh session",
      summary: "Starts a new, empty session (optionally recording a parent session).",
      body: "An extension's session_before_switch handler may cancel it. After it the old conversation really leaves the model's context.",
      docs: doc("new_session"),
    },
    response: {
      title: "response to new_session",
      summary: "data.cancelled says whether an extension stopped the switch.",
      body: "data.cancelled says whether an extension stopped the switch; the response is a success either way. When not cancelled, drop the old transcript and ask get_state for the new session's id and file: no event announces the switch.",
      docs: doc("new_session"),
    },
  },
  get_state: {
    command: {
      title: "get_state: what pi is doing",
      summary: "Asks for the session's current state: model, thinking level, streaming, session, queue mode.",
      body: "A cheap way to resynchronise after connecting or reloading. Pier sends it at start and after session changes.",
      docs: doc("get_state"),
    },
    response: {
      title: "response to get_state",
      summary: "A snapshot: model, thinkingLevel, isStreaming, isCompacting, session id/file/name, queue modes, counts.",
      body: "model, sessionFile and sessionName are absent when unset (not null). " + "isStreaming can be false between agent_end and agent_settled, so do not take it as 'the run is over'.",
      docs: doc("get_state"),
    },
  },
  set_model: {
    command: {
      title: "set_model: choose a model",
      summary: "Switches to the model with this provider and modelId.",
      body: "provider and modelId must name a model from get_available_models. The thinking level may be clamped to what the new model supports (thinking_level_changed says so).",
      docs: doc("set_model"),
    },
    response: {
      title: "response to set_model",
      summary: "data is the full model object now selected; an unknown model fails.",
      body: "An unknown model fails with success: false and an error naming it. Update the model picker from data rather than from what was asked.",
      docs: doc("set_model"),
    },
  },
  cycle_model: {
    command: {
      title: "cycle_model: next model",
      summary: "Moves to the next available model (within the --models scope, if any).",
      body: "Handy for a keyboard shortcut. The thinking level comes along in the answer.",
      docs: doc("cycle_model"),
    },
    response: {
      title: "response to cycle_model",
      summary: "data is {model, thinkingLevel, isScoped}, or null when there is nothing to cycle to.",
      body: "null data is a success, not an error: there is only one model. Otherwise update both the model and the thinking level from data.",
      docs: doc("cycle_model"),
    },
  },
  get_available_models: {
    command: {
      title: "get_available_models: list models",
      summary: "Asks for every configured model pi can use.",
      body: "Use it to fill a model picker; each entry is a full model object with provider, id, context window and costs. The list changes only when pi's configuration does, so ask once and after a restart.",
      docs: doc("get_available_models"),
    },
    response: {
      title: "response to get_available_models",
      summary: "data.models is the list of full model objects.",
      body: "These are the models pi considers available (normally those with credentials configured). pi with no usable model reports the provider as unknown.",
      docs: doc("get_available_models"),
    },
  },
  set_thinking_level: {
    command: {
      title: "set_thinking_level: how hard the model reasons",
      summary: "Sets the reasoning level (off, minimal, low, medium, high, xhigh, max).",
      body: "Only levels the model offers apply (get_available_thinking_levels); pi clamps others. xhigh and max exist only on some models.",
      docs: doc("set_thinking_level"),
    },
    response: {
      title: "response to set_thinking_level",
      summary: "pi accepted the level; the response has no data.",
      body: "The response carries no data. thinking_level_changed carries the level actually in force.",
      docs: doc("set_thinking_level"),
    },
  },
  cycle_thinking_level: {
    command: {
      title: "cycle_thinking_level: next thinking level",
      summary: "Moves to the next thinking level the model offers.",
      body: "Handy for a keyboard shortcut. Only the levels the current model offers are visited.",
      docs: doc("cycle_thinking_level"),
    },
    response: {
      title: "response to cycle_thinking_level",
      summary: "data.level is the new level, or data is null when the model has no thinking levels.",
      body: "null data is a success: the model does not reason. Otherwise data.level is the level now in force.",
      docs: doc("cycle_thinking_level"),
    },
  },
  get_available_thinking_levels: {
    command: {
      title: "get_available_thinking_levels",
      summary: "Asks which thinking levels the current model supports.",
      body: "Offer only these levels in a picker. Ask again after a model change: each model has its own.",
      docs: doc("get_available_thinking_levels"),
    },
    response: {
      title: "response to get_available_thinking_levels",
      summary: 'data.levels lists the levels; ["off"] for a model without reasoning.',
      body: 'xhigh and max appear only for models that support them. A model without reasoning answers ["off"], not an empty list.',
      docs: doc("get_available_thinking_levels"),
    },
  },
  set_steering_mode: {
    command: {
      title: "set_steering_mode: how steering is delivered",
      summary: "one-at-a-time (the default) or all queued steering messages per turn.",
      body: "It affects only how queued steering messages are handed to the model. one-at-a-time delivers one per completed turn, all delivers every queued one at once.",
      docs: doc("set_steering_mode"),
    },
    response: {
      title: "response to set_steering_mode",
      summary: "pi accepted the mode; no data.",
      body: "The response carries no data. get_state shows the mode in force.",
      docs: doc("set_steering_mode"),
    },
  },
  set_follow_up_mode: {
    command: {
      title: "set_follow_up_mode: how follow-ups are delivered",
      summary: "one-at-a-time (the default) or all queued follow-ups when pi would stop.",
      body: "It affects only how queued follow-ups are handed to the model. one-at-a-time delivers one each time pi would stop, all delivers every queued one at once.",
      docs: doc("set_follow_up_mode"),
    },
    response: {
      title: "response to set_follow_up_mode",
      summary: "pi accepted the mode; no data.",
      body: "The response carries no data. get_state shows the mode in force.",
      docs: doc("set_follow_up_mode"),
    },
  },
  compact: {
    command: {
      title: "compact: summarise history now",
      summary: "Compacts the conversation by hand, with optional custom instructions.",
      body: "compaction_start (reason manual) and compaction_end bracket the work. It takes as long as a model call, so do not time it out like a quick command.",
      docs: doc("compact"),
    },
    response: {
      title: "response to compact",
      summary: "data is the compaction result: summary, firstKeptEntryId, tokensBefore, estimatedTokensAfter.",
      body: "It arrives after compaction_end. estimatedTokensAfter is a heuristic, not the provider's count. " + "The transcript now starts with a compactionSummary: ask get_messages for it.",
      docs: doc("compact"),
    },
  },
  set_auto_compaction: {
    command: {
      title: "set_auto_compaction: compact automatically",
      summary: "Turns automatic compaction near a full context on or off.",
      body: "It controls the threshold compaction pi runs when the context is nearly full. With it off, a context overflow can still trigger overflow recovery compaction.",
      docs: doc("set_auto_compaction"),
    },
    response: {
      title: "response to set_auto_compaction",
      summary: "pi accepted the setting; no data.",
      body: "The response carries no data. get_state's autoCompactionEnabled shows the setting in force.",
      docs: doc("set_auto_compaction"),
    },
  },
  set_auto_retry: {
    command: {
      title: "set_auto_retry: retry transient errors",
      summary: "Turns automatic retry of overloaded, rate-limit and 5xx errors on or off.",
      body: "Transient means overloaded, rate limits and server errors; pi 0.87.1 recognises a 529 only by 'overloaded' in its message. With retry off, a failed model call ends the run with an error message instead of auto_retry_start.",
      docs: doc("set_auto_retry"),
    },
    response: {
      title: "response to set_auto_retry",
      summary: "pi accepted the setting; no data.",
      body: "The response carries no data. Nothing else is sent: the setting shows only in how later failures are handled.",
      docs: doc("set_auto_retry"),
    },
  },
  abort_retry: {
    command: {
      title: "abort_retry: stop waiting to retry",
      summary: "Cancels the delay before an automatic retry and stops retrying.",
      body: "Use it while pi waits between auto_retry_start and the retried agent_start. auto_retry_end (success false, finalError 'Retry cancelled') and agent_settled follow, with no agent_end.",
      docs: doc("abort_retry"),
    },
    response: {
      title: "response to abort_retry",
      summary: "pi accepted the cancellation; no data.",
      body: "The response carries no data. It succeeds even when no retry was waiting.",
      docs: doc("abort_retry"),
    },
  },
  bash: {
    command: {
      title: "bash: run a shell command yourself",
      summary: "Runs a shell command outside the model's tool calls; its output joins the context with the next prompt.",
      body:
        "Give it an id: bash_execution_update events carry it. excludeFromContext keeps the output out of the model's context. " +
        "Several can run at once; abort_bash cancels all of them, abort does not. ANSI codes and \\r are stripped from the output.",
      docs: doc("bash"),
    },
    response: {
      title: "response to bash",
      summary: "data is {output, exitCode, cancelled, truncated, fullOutputPath?}.",
      body:
        "exitCode is absent when the process was killed or cancelled; output may be truncated (the events carried all of it). " +
        "No message event announces the bashExecution message pi stored: get_messages shows it (held back until a run in progress settles).",
      docs: doc("bash"),
    },
  },
  abort_bash: {
    command: {
      title: "abort_bash: stop RPC bash commands",
      summary: "Cancels running bash commands started with the bash command (all of them).",
      body: "It stops every RPC bash command still running. It does not touch the model's bash tool calls; abort stops those.",
      docs: doc("abort_bash"),
    },
    response: {
      title: "response to abort_bash",
      summary: "pi accepted; no data.",
      body: "The response carries no data. Each cancelled bash command still gets its own response, with cancelled: true.",
      docs: doc("abort_bash"),
    },
  },
  get_session_stats: {
    command: {
      title: "get_session_stats: tokens and cost",
      summary: "Asks for message counts, token totals, cost and context-window usage.",
      body: "Good for a usage meter. Ask after runs rather than on every delta: it walks the whole session.",
      docs: doc("get_session_stats"),
    },
    response: {
      title: "response to get_session_stats",
      summary: "data has counts, tokens, cost (USD) and contextUsage.",
      body: "tokens and cost cover assistant messages, tool usage and summaries over the whole session. contextUsage.tokens and percent are null right after a compaction, until the next answer reports usage.",
      docs: doc("get_session_stats"),
    },
  },
  export_html: {
    command: {
      title: "export_html: save the session as HTML",
      summary: "Writes the session to an HTML file, at outputPath or a default place.",
      body: "Without outputPath pi picks the file name. The relay checks outputPath and refuses paths outside what it allows (a path_refused error frame instead of a response).",
      docs: doc("export_html"),
    },
    response: {
      title: "response to export_html",
      summary: "data.path is the file written.",
      body: "data.path is where pi wrote the file. Pier serves files from its export folder for download.",
      docs: doc("export_html"),
    },
  },
  switch_session: {
    command: {
      title: "switch_session: open another session",
      summary: "Loads another session file.",
      body: "An extension may cancel it. The relay refuses session paths outside pi's session folders.",
      docs: doc("switch_session"),
    },
    response: {
      title: "response to switch_session",
      summary: "data.cancelled says whether an extension stopped the switch.",
      body: "The response is a success even when an extension cancelled. When it switched, load the new transcript (get_entries or get_messages): no message events replay the old conversation.",
      docs: doc("switch_session"),
    },
  },
  fork: {
    command: {
      title: "fork: branch from an earlier message",
      summary: "Starts a new session from a previous user message (entryId).",
      body: "get_fork_messages lists the messages you can fork from. An extension may cancel it.",
      docs: doc("fork"),
    },
    response: {
      title: "response to fork",
      summary: "data is {text, cancelled}: text is the forked message, for the prompt box.",
      body: "text is absent when nothing was selected or it was cancelled. After a fork pi is on a new session: load its transcript.",
      docs: doc("fork"),
    },
  },
  clone: {
    command: {
      title: "clone: duplicate the session",
      summary: "Copies the current branch into a new session at the current position.",
      body: "The new session starts with the same messages and becomes the active one. An extension may cancel it.",
      docs: doc("clone"),
    },
    response: {
      title: "response to clone",
      summary: "data.cancelled says whether an extension stopped it.",
      body: "The response is a success even when an extension cancelled. When it went through, pi is on the new session: ask get_state for its file.",
      docs: doc("clone"),
    },
  },
  get_fork_messages: {
    command: {
      title: "get_fork_messages: where you can fork",
      summary: "Asks for the user messages of the active branch that can be forked from.",
      body: "Each has the entryId to pass to fork. Only user messages of the branch you are on are listed.",
      docs: doc("get_fork_messages"),
    },
    response: {
      title: "response to get_fork_messages",
      summary: "data.messages is a list of {entryId, text}.",
      body: "Texts are the user messages as sent (templates already expanded). The list is in conversation order.",
      docs: doc("get_fork_messages"),
    },
  },
  get_entries: {
    command: {
      title: "get_entries: the session's entries",
      summary: "Asks for the session's entries in append order, optionally only those after a cursor (since).",
      body: "Unlike get_messages this includes pre-compaction history and abandoned branches. Entry ids are durable cursors, even across restarts.",
      docs: doc("get_entries"),
    },
    response: {
      title: "response to get_entries",
      summary: "data is {entries, leafId}; leafId is the current position in the tree.",
      body: "An unknown since fails (success false): fetch everything again. The answer can be megabytes for a long session.",
      docs: doc("get_entries"),
    },
  },
  get_tree: {
    command: {
      title: "get_tree: the session as a tree",
      summary: "Asks for all entries as a tree of branches, with labels.",
      body: "Use it to draw the session tree; forks and tree navigation create branches. leafId marks where the session is now.",
      docs: doc("get_tree"),
    },
    response: {
      title: "response to get_tree",
      summary: "data is {tree, leafId}: nodes are {entry, children, label?}.",
      body: "tree is an array: there can be several roots, and entries with a broken parent chain appear as roots too. Labels come with the nodes they are on.",
      docs: doc("get_tree"),
    },
  },
  get_last_assistant_text: {
    command: {
      title: "get_last_assistant_text",
      summary: "Asks for the text of the last assistant message.",
      body: "Handy for a copy button. pi 1.6 skips messages without text (tool-only, failed or aborted).",
      docs: doc("get_last_assistant_text"),
    },
    response: {
      title: "response to get_last_assistant_text",
      summary: "data.text is the text; with no text pi 0.87.1 answers data: {} (documented as null).",
      body: "Treat a missing text like null. The text is the message's text blocks, without thinking or tool calls.",
      docs: doc("get_last_assistant_text"),
    },
  },
  set_session_name: {
    command: {
      title: "set_session_name: name the session",
      summary: "Sets the session's display name.",
      body: "The name shows in session lists. session_info_changed announces it to every client.",
      docs: doc("set_session_name"),
    },
    response: {
      title: "response to set_session_name",
      summary: "pi accepted the name; no data.",
      body: "The response carries no data. get_state's sessionName shows the name.",
      docs: doc("set_session_name"),
    },
  },
  get_messages: {
    command: {
      title: "get_messages: the whole conversation",
      summary: "Asks for every message in the model's context.",
      body: "The way to resynchronise after compaction, an RPC bash, a session switch or a truncated replay. It can be large.",
      docs: doc("get_messages"),
    },
    response: {
      title: "response to get_messages",
      summary: "data.messages is the conversation, with the system message first (pi 0.87.1).",
      body:
        "Element 0 is the system prompt (role system), not a conversation message. Only finished messages are included: a message still streaming is not. " +
        "After compaction it starts with the compactionSummary. Pier's strongest test: what the reducer rebuilt from the stream equals this list.",
      docs: doc("get_messages"),
    },
  },
  get_commands: {
    command: {
      title: "get_commands: slash commands",
      summary: "Asks for the extension commands, prompt templates and skills a prompt can invoke with /name.",
      body: "Run one by sending a prompt that starts with /name. pi's own interactive commands (/settings …) are not included: they do nothing in RPC mode.",
      docs: doc("get_commands"),
    },
    response: {
      title: "response to get_commands",
      summary: "data.commands lists {name, description?, source, sourceInfo}.",
      body: "source is extension, prompt or skill (named skill:<name>). Project prompt templates load in RPC mode only with defaultProjectTrust.",
      docs: doc("get_commands"),
    },
  },
};

export const OTHER_RESPONSE_LESSONS = {
  "response:parse": {
    title: "response parse: pi could not read a line",
    summary: "pi received a line that is not valid JSON; this answer has no id.",
    body:
      "Without an id it cannot be matched to a command: any client may have sent the bad line. " +
      "Pier's relay refuses non-JSON frames itself (an invalid_json error), so this usually comes from another client of the same pi. " +
      "pi does not survive every well-formed but wrong input gracefully either: never rely on it to.",
    docs: "rpc.md#errors",
  },
  "response:failed": {
    title: "response with success: false",
    summary: "pi rejected or failed a command; error says why.",
    body:
      "A failure answers the command once, before any work: for prompt, for instance, pi streaming without streamingBehavior, no model or API key, or a compaction in progress. " +
      "An unknown command type gets 'Unknown command: …'. " +
      "Failures after a prompt was accepted arrive as events and messages, never as a second response.",
    docs: "rpc.md#errors",
  },
  "response:unknown": {
    title: "A response to a command Pier does not know",
    summary: "pi answered a command type that is not among the 33 Pier knows.",
    body: "A newer pi may accept more commands. Match it to its command by id, as always.",
    docs: "rpc-commands.md",
  },
  "command:unknown": {
    title: "A command Pier does not know",
    summary: "A client sent something that is not one of pi's 33 commands.",
    body: "pi answers an unknown type with success: false and 'Unknown command'. Another client, or a newer protocol, may send these.",
    docs: "rpc-commands.md",
  },
  "command:invalid": {
    title: "An outgoing frame that is not JSON",
    summary: "A frame sent towards pi that is not a JSON object.",
    body: "The relay refuses it with an invalid_json error frame. pi never sees it.",
    docs: "rpc.md#framing",
  },
} satisfies Record<string, LessonText>;
