// What a board card says about one live session, read off pi's stdout as it
// passes (DESIGN: the relay may read records for "a run's state for the
// board"; the bytes the browsers get are untouched).
//
// Cheap by construction: lines are found with indexOf, a streamed delta
// (`message_update`, nearly all of a stream's lines) is recognised by its
// first bytes and never parsed, and of any other line only the first
// MAX_PARSED_LINE bytes are kept: a longer line (a whole conversation in
// `agent_end`, a big tool result) is known by its type alone.
import { PI_EVENT_TYPES, type ChildStatus, type LiveCard, type LiveRunState } from "@pier/protocol";

/** Lines longer than this are classified by their type only (not parsed). */
const MAX_PARSED_LINE = 256 * 1024;
const LF = 0x0a;
/** Enough of a line's start for its type, or a response's id and command (ids are short: MAX_COMMAND_ID_LENGTH). */
const HEAD_BYTES = 200;
/** pi writes each event as JSON.stringify({ type, … }): the type comes first. */
const TYPE_PREFIX = '{"type":"';
const SKIPPED = ['{"type":"message_update"', '{"type":"tool_execution_update"'];
/** Their types as bytes (after TYPE_PREFIX, with the closing quote): a line that starts in a chunk with one is skipped without making a string of its head. */
const SKIPPED_TYPE_BYTES = SKIPPED.map((prefix) => Buffer.from(prefix.slice(TYPE_PREFIX.length), "latin1"));
const TYPE_PREFIX_BYTES = Buffer.from(TYPE_PREFIX, "latin1");
/** How pi writes a response: JSON.stringify of { id, type: "response", … }. */
const RESPONSE_PREFIX_BYTES = Buffer.from('{"id":', "latin1");
const QUOTE = 0x22;
/**
 * The records whose fields a card reads (#record); any other line (another
 * event, a response) is known by its first bytes and never copied or
 * parsed. Parsing every record a fast stream carries (a message_start, a
 * tool result, a long answer) took the relay ~4 s of CPU per GB.
 */
/** How pi writes a message_end (JSON.stringify of { type, message: { role, … } }): its role is in the head. */
const MESSAGE_END_ROLE = '{"type":"message_end","message":{"role":"';
const MESSAGE_END_ROLE_BYTES = Buffer.from(MESSAGE_END_ROLE, "latin1");
const MESSAGE_END_ASSISTANT_BYTES = Buffer.from(`${MESSAGE_END_ROLE}assistant"`, "latin1");
const CLOSE_BRACE = 0x7d;
const PARSED = new Set(["tool_execution_start", "message_end", "auto_retry_end", "agent_settled", "session_info_changed", "extension_ui_request"]);
/**
 * How pi writes an assistant message: role, content, then api, provider,
 * model, usage, stopReason… of which none holds an "api" key, so the line's
 * last `,"api":"` starts the fields a card reads. Parsing only those, not the
 * answer's text again (a message_end is a sixth of a stream's bytes), took
 * this tracker from ~0.9 s to ~0.5 s of CPU per GB of real pi records.
 */
const MESSAGE_TAIL_BYTES = Buffer.from(',"api":"', "latin1");
/** How pi writes tool_execution_start: type, toolCallId, toolName, then args (perhaps a whole file), which a card does not read. */
const TOOL_NAME = /^\{"type":"tool_execution_start","toolCallId":"(?:[^"\\]|\\.)*","toolName":("(?:[^"\\]|\\.)*")/;

export type RunState = LiveRunState;

/** The part of a board card read off pi's records (live-sessions.ts adds the folder, branch, child and people). */
export type RunSummary = Pick<LiveCard, "state" | "since" | "tool" | "question" | "error" | "title" | "model" | "cost" | "lastActivityAt">;

const PROMPT_RESPONSE = /"type":"response","command":"prompt"/;
/** Responses after which pi may have another session file open. */
const SESSION_COMMANDS = /"type":"response","command":"(new_session|switch_session|fork|clone)"/;
/** A select's choices kept for its card at most (a longer list is answered on the session's page). */
const MAX_OPTIONS = 50;
const DIALOGS = new Set(["select", "confirm", "input", "editor"]);

export class RunTracker {
  #state: RunState = "starting";
  #since: number;
  #tool: string | null = null;
  /** Dialogs waiting, by request id, oldest first (a run may ask more than one). */
  readonly #dialogs = new Map<string, NonNullable<LiveCard["question"]>>();
  /** When each waiting dialog passed, by id. */
  readonly #dialogSince = new Map<string, number>();
  /** When pi answers a dialog with a timeout by itself (its default), by id. */
  readonly #dialogEnds = new Map<string, number>();
  #error: string | null = null;
  #name: string | null = null;
  #firstPrompt: string | null = null;
  #model: string | null = null;
  #cost = 0;
  #lastActivityAt: number;
  /** An abort was sent during the current run (pi 0.87.1's agent_settled does not say it was aborted). */
  #abortSent = false;
  #runError: string | null = null;
  /** Prompts sent that pi has not answered yet (it may still be starting): the session is not idle meanwhile. */
  #promptsUnanswered = 0;
  /** The start of the line being read (up to MAX_PARSED_LINE bytes), or null once it is known to be skipped or too long. */
  #line: Buffer[] | null = [];
  #lineBytes = 0;
  /** The first bytes of the current line, to classify a long one. */
  #head = "";
  /** The current line is a streamed update, known from its first bytes (nearly every line of a fast stream). */
  #skipping = false;
  readonly #now: () => number;
  /** When the chunk being read came: its records are stamped with one clock read, not one each. */
  #chunkTime: number | null = null;
  readonly #onChange: () => void;
  readonly #onSessionMoved: () => void;

  /** `onSessionMoved`: pi may have another session file open now (a run settled, or a session command was answered). */
  constructor(onChange: () => void, options: { now?: () => number; onSessionMoved?: () => void } = {}) {
    this.#onChange = onChange;
    this.#onSessionMoved = options.onSessionMoved ?? (() => {});
    const now = options.now ?? Date.now;
    this.#now = now;
    this.#since = now();
    this.#lastActivityAt = this.#since;
  }

  get summary(): RunSummary {
    this.#dropTimedOut();
    const question = this.#dialogs.values().next().value ?? null;
    return {
      state: question !== null && (this.#state === "working" || this.#state === "idle" || this.#state === "done") ? "needs_you" : this.#state,
      since: this.#since,
      tool: this.#tool,
      question,
      error: this.#error,
      title: this.#name ?? this.#firstPrompt,
      model: this.#model,
      cost: this.#cost,
      lastActivityAt: this.#lastActivityAt,
    };
  }

  /** Something is under way that the state alone may not show yet (a prompt pi has not answered). */
  get busy(): boolean {
    return this.#promptsUnanswered > 0 || this.#state === "working" || this.#state === "starting" || this.#dialogs.size > 0;
  }

  /** Dialogs waiting for an answer, with when each passed. */
  get waitingDialogs(): { id: string; since: number }[] {
    this.#dropTimedOut();
    return [...this.#dialogs.keys()].map((id) => ({ id, since: this.#dialogSince.get(id) ?? this.#since }));
  }

  /** pi's child changed state. */
  child(status: ChildStatus): void {
    if (status.state !== "running") this.#promptsUnanswered = 0;
    if (status.state === "starting") {
      this.#dialogs.clear();
      this.#dialogSince.clear();
      this.#dialogEnds.clear();
      this.#tool = null;
      this.#line = [];
      this.#skipping = false;
      this.#lineBytes = 0;
      this.#head = "";
      this.#set("starting");
    } else if (status.state === "running") {
      this.#set("idle");
    } else {
      this.#dialogs.clear();
      this.#dialogSince.clear();
      this.#dialogEnds.clear();
      this.#tool = null;
      const clean = status.code === 0 || status.signal === "SIGTERM";
      this.#error = status.error ?? (clean ? null : `pi exited with ${status.signal ?? `code ${status.code}`}`);
      this.#set(clean ? "exited" : "failed");
    }
  }

  /** A command a browser sent to pi (its type and record), for what the stream alone does not say. */
  command(type: string, command: Readonly<Record<string, unknown>>): void {
    this.#activity();
    if (type === "prompt") this.#promptsUnanswered++;
    if (type === "abort" && this.#state === "working") this.#abortSent = true;
    if (type === "prompt" && this.#firstPrompt === null && typeof command["message"] === "string") {
      const first = command["message"].trim().split("\n")[0]!.slice(0, 120);
      if (first !== "") this.#firstPrompt = first;
      this.#onChange();
    }
    if (type === "extension_ui_response" && typeof command["id"] === "string" && this.#dialogs.delete(command["id"])) {
      this.#dialogSince.delete(command["id"]);
      this.#onChange();
    }
  }

  /** A chunk of pi's stdout (not kept: what is needed is copied). */
  stdout(chunk: Buffer): void {
    this.#chunkTime = this.#now();
    try {
      this.#read(chunk);
    } finally {
      this.#chunkTime = null;
    }
  }

  #read(chunk: Buffer): void {
    let start = 0;
    let updates = false;
    for (let lf = chunk.indexOf(LF); lf !== -1; lf = chunk.indexOf(LF, start)) {
      // A whole line within this chunk (nearly every line): read where it lies, nothing copied.
      if (this.#atLineStart()) {
        if (this.#wholeLine(chunk, start, lf)) updates = true;
      } else {
        this.#take(chunk.subarray(start, lf));
        this.#endLine();
      }
      start = lf + 1;
    }
    if (updates) this.#activity();
    if (start < chunk.length) this.#take(chunk.subarray(start));
  }

  /**
   * A line that lies whole in one chunk, from `start` to `end` (its LF),
   * read as #take + #endLine would read it, but in place: its type from its
   * first bytes, a string made only of what a card reads, and a parse only
   * for the records in PARSED. Returns true for a streamed update (only
   * activity, noted once per chunk by the caller).
   */
  #wholeLine(chunk: Buffer, start: number, end: number): boolean {
    if (!startsWithBytes(chunk, start, end, TYPE_PREFIX_BYTES)) {
      if (startsWithBytes(chunk, start, end, RESPONSE_PREFIX_BYTES)) {
        const head = chunk.toString("latin1", start, Math.min(end, start + HEAD_BYTES));
        if (SESSION_COMMANDS.test(head)) this.#onSessionMoved();
        if (PROMPT_RESPONSE.test(head) && this.#promptsUnanswered > 0) this.#promptsUnanswered--;
      }
      return false;
    }
    const typeStart = start + TYPE_PREFIX.length;
    // A streamed update, nearly every line: its type's bytes say so, and nothing else is read.
    if (startsWithSkippedType(chunk, typeStart, end)) return true;
    const headEnd = Math.min(end, start + HEAD_BYTES);
    // A loop, not indexOf: a type is a few bytes, and a call into C++ per line cost more than reading them.
    let quote = typeStart;
    while (quote < headEnd && chunk[quote] !== QUOTE) quote++;
    // A type that does not end within the head: #endLine would read a garbled type, which counts as activity.
    if (quote === headEnd) {
      if (end - start >= HEAD_BYTES) this.#activity();
      return false;
    }
    const type = knownType(chunk, typeStart, quote) ?? chunk.toString("latin1", typeStart, quote);
    if (!PARSED.has(type) || end - start > MAX_PARSED_LINE || !this.#assistantOrUnknown(chunk, start, end, type)) {
      this.#record(type, null);
      return false;
    }
    let value: unknown;
    try {
      value = readWhatACardReads(chunk, start, end, type) ?? JSON.parse(chunk.toString("utf8", start, end));
    } catch {
      return false;
    }
    if (typeof value === "object" && value !== null) this.#record(type, value as Record<string, unknown>);
    return false;
  }

  /** #parsed's rule for a message_end, on bytes: parsed unless its head says whose message it is and that is not the assistant's. */
  #assistantOrUnknown(chunk: Buffer, start: number, end: number, type: string): boolean {
    if (type !== "message_end" || !startsWithBytes(chunk, start, end, MESSAGE_END_ROLE_BYTES)) return true;
    const roleStart = start + MESSAGE_END_ROLE.length;
    const roleEnd = chunk.indexOf(QUOTE, roleStart);
    if (roleEnd === -1 || roleEnd >= Math.min(end, start + HEAD_BYTES)) return true;
    return chunk.toString("latin1", roleStart, roleEnd) === "assistant";
  }

  /** Nothing of the current line has been read yet. */
  #atLineStart(): boolean {
    return this.#line !== null && this.#lineBytes === 0 && this.#head.length === 0 && !this.#skipping;
  }

  #take(bytes: Buffer): void {
    if (this.#skipping || bytes.length === 0) return;
    if (this.#head.length === 0 && startsWithSkipped(bytes, 0, bytes.length)) {
      this.#line = null;
      this.#skipping = true;
      return;
    }
    // The head grows to HEAD_BYTES even once the line is not kept: a response's command is read from it at its end.
    if (this.#head.length < HEAD_BYTES) this.#head += bytes.subarray(0, HEAD_BYTES - this.#head.length).toString("latin1");
    if (this.#line === null) return;
    if (this.#head.length >= 40 && SKIPPED.some((prefix) => this.#head.startsWith(prefix))) {
      this.#line = null;
      return;
    }
    if (this.#parsed(this.#head) === false) {
      this.#line = null;
      return;
    }
    if (this.#lineBytes + bytes.length > MAX_PARSED_LINE) {
      this.#line = null;
      return;
    }
    this.#line.push(Buffer.from(bytes));
    this.#lineBytes += bytes.length;
  }

  /** Whether a line starting with `head` is parsed (a record in PARSED); null while its head is too short to tell. */
  #parsed(head: string): boolean | null {
    if (head.length < TYPE_PREFIX.length) return null;
    if (!head.startsWith(TYPE_PREFIX)) return false;
    const end = head.indexOf('"', TYPE_PREFIX.length);
    if (end === -1) return head.length < HEAD_BYTES ? null : false;
    const type = head.slice(TYPE_PREFIX.length, end);
    if (type !== "message_end" || !head.startsWith(MESSAGE_END_ROLE)) return PARSED.has(type);
    // Only an assistant's message says anything to a card (a system prompt's is tens of KB).
    const roleEnd = head.indexOf('"', MESSAGE_END_ROLE.length);
    if (roleEnd === -1) return head.length < HEAD_BYTES ? null : true;
    return head.slice(MESSAGE_END_ROLE.length, roleEnd) === "assistant";
  }

  #endLine(): void {
    if (this.#skipping) {
      this.#skipping = false;
      this.#line = [];
      return this.#activity();
    }
    const parts = this.#line;
    const head = this.#head;
    this.#line = [];
    this.#lineBytes = 0;
    this.#head = "";
    if (SKIPPED.some((prefix) => head.startsWith(prefix))) return this.#activity();
    // A response: pi writes {"id":…,"type":"response","command":…}; only those that change the session file matter here.
    if (head.startsWith('{"id":')) {
      if (SESSION_COMMANDS.test(head)) this.#onSessionMoved();
      if (PROMPT_RESPONSE.test(head) && this.#promptsUnanswered > 0) this.#promptsUnanswered--;
      return;
    }
    if (!head.startsWith(TYPE_PREFIX)) return;
    const type = head.slice(TYPE_PREFIX.length, head.indexOf('"', TYPE_PREFIX.length));
    if (parts === null) return this.#record(type, null);
    let value: unknown;
    try {
      value = JSON.parse(Buffer.concat(parts).toString("utf8"));
    } catch {
      return;
    }
    if (typeof value === "object" && value !== null) this.#record(type, value as Record<string, unknown>);
  }

  /** One record: `record` is null when the line was too long to parse. */
  #record(type: string, record: Record<string, unknown> | null): void {
    switch (type) {
      case "agent_start":
        this.#abortSent = false;
        this.#runError = null;
        this.#error = null;
        return this.#set("working");
      case "tool_execution_start":
        this.#tool = typeof record?.["toolName"] === "string" ? record["toolName"] : "a tool";
        return this.#changed();
      case "tool_execution_end":
        this.#tool = null;
        return this.#changed();
      case "message_end":
        return this.#messageEnd(record);
      case "auto_retry_end":
        if (record?.["success"] === false) this.#runError ??= typeof record["finalError"] === "string" ? record["finalError"] : "pi gave up retrying";
        return this.#changed();
      case "agent_settled": {
        this.#tool = null;
        const aborted = record?.["aborted"] === true || this.#abortSent;
        this.#error = aborted ? null : this.#runError;
        this.#onSessionMoved();
        return this.#set(aborted ? "stopped" : this.#runError !== null ? "failed" : "done");
      }
      case "session_info_changed":
        if (typeof record?.["name"] === "string" && record["name"].trim() !== "") this.#name = record["name"].trim().slice(0, 120);
        return this.#changed();
      case "extension_ui_request": {
        const method = record?.["method"];
        const id = record?.["id"];
        if (typeof method !== "string" || typeof id !== "string" || !DIALOGS.has(method)) return this.#activity();
        const title = typeof record!["title"] === "string" ? record!["title"] : typeof record!["message"] === "string" ? record!["message"] : method;
        const options =
          method === "select" && Array.isArray(record!["options"])
            ? record!["options"]
                .filter((o): o is string => typeof o === "string")
                .slice(0, MAX_OPTIONS)
                .map((o) => o.slice(0, 200))
            : undefined;
        this.#dialogs.set(id, { id, method, title: title.slice(0, 300), ...(options ? { options } : {}) });
        this.#dialogSince.set(id, this.#time());
        const timeout = record!["timeout"];
        if (typeof timeout === "number" && Number.isFinite(timeout) && timeout > 0) this.#dialogEnds.set(id, this.#time() + timeout);
        return this.#changed();
      }
      default:
        return this.#activity();
    }
  }

  #messageEnd(record: Record<string, unknown> | null): void {
    const message = record?.["message"];
    if (typeof message !== "object" || message === null) return this.#activity();
    const { role, model, usage, stopReason, errorMessage } = message as Record<string, unknown>;
    if (role !== "assistant") return this.#activity();
    if (typeof model === "string") this.#model = model;
    const cost = (usage as { cost?: { total?: unknown } } | undefined)?.cost?.total;
    if (typeof cost === "number" && Number.isFinite(cost)) this.#cost += cost;
    if (stopReason === "error") this.#runError = typeof errorMessage === "string" ? errorMessage.slice(0, 500) : "the model returned an error";
    else if (stopReason !== "aborted") this.#runError = null;
    this.#changed();
  }

  /** Dialogs whose timeout passed: pi took their default, nobody can answer them any more. */
  #dropTimedOut(): void {
    if (this.#dialogEnds.size === 0) return;
    const now = this.#now();
    for (const [id, end] of this.#dialogEnds) {
      if (end > now) continue;
      this.#dialogEnds.delete(id);
      this.#dialogs.delete(id);
      this.#dialogSince.delete(id);
    }
  }

  #set(state: RunState): void {
    if (state !== this.#state) {
      this.#state = state;
      this.#since = this.#time();
    }
    this.#changed();
  }

  /** Now: the chunk's time while one is read. */
  #time(): number {
    return this.#chunkTime ?? this.#now();
  }

  #activity(): void {
    this.#lastActivityAt = this.#time();
  }

  #changed(): void {
    this.#activity();
    this.#onChange();
  }
}

/**
 * The tail of an assistant's message as pi writes it, for the fields a card
 * reads: its model, its cost's total (usage and cost hold numbers only, and
 * total comes last) and its stop reason, with no escapes in the strings.
 * Read by this one anchored match instead of a parse, which was a fifth of
 * this tracker's time; any other shape, and a failed run (whose error
 * message a card shows), is parsed.
 */
const PLAIN_MESSAGE_TAIL =
  /^"api":"[^"\\]*","provider":"[^"\\]*","model":"([^"\\]*)","usage":\{[^{}]*"cost":\{[^{}]*"total":(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)\}\},"stopReason":"([^"\\]*)"/;

/**
 * The fields #record reads of a tool_execution_start or an assistant's
 * message_end, found where pi writes them without parsing the rest of the
 * line; null when the line is not written as pi writes it (then it is
 * parsed whole, as any other).
 */
function readWhatACardReads(line: Buffer, start: number, end: number, type: string): Record<string, unknown> | null {
  if (type === "tool_execution_start") {
    const name = TOOL_NAME.exec(line.toString("utf8", start, Math.min(end, start + HEAD_BYTES)))?.[1];
    return name === undefined ? null : { type, toolName: JSON.parse(name) as string };
  }
  if (type !== "message_end" || !startsWithBytes(line, start, end, MESSAGE_END_ASSISTANT_BYTES)) return null;
  // The line ends `…}}`: the message's last field, the message's brace, the record's.
  if (line[end - 1] !== CLOSE_BRACE || line[end - 2] !== CLOSE_BRACE) return null;
  const at = line.lastIndexOf(MESSAGE_TAIL_BYTES, end - 1);
  if (at <= start) return null;
  const tail = line.toString("utf8", at + 1, end - 1);
  const plain = PLAIN_MESSAGE_TAIL.exec(tail);
  if (plain !== null && plain[3] !== "error") {
    return { type, message: { role: "assistant", model: plain[1], usage: { cost: { total: Number(plain[2]) } }, stopReason: plain[3] } };
  }
  let fields: unknown;
  try {
    // From a place inside the content (if pi ever left api out), the rest closes brackets it never opened: no JSON.
    fields = JSON.parse(`{${tail}`);
  } catch {
    return null;
  }
  return typeof fields === "object" && fields !== null ? { type, message: { ...fields, role: "assistant" } } : null;
}

/**
 * pi's event types, by length: a line's type is matched against these on its
 * bytes and the constant returned, so that nearly no line makes a string
 * (making one per line was a tenth of this tracker's time).
 */
const KNOWN_TYPES_BY_LENGTH: { name: string; bytes: Buffer }[][] = [];
for (const name of PI_EVENT_TYPES) {
  (KNOWN_TYPES_BY_LENGTH[name.length] ??= []).push({ name, bytes: Buffer.from(name, "latin1") });
}

/** The type in bytes[at, end) when it is one of KNOWN_TYPES_BY_LENGTH (the same string each time), else null. */
function knownType(bytes: Buffer, at: number, end: number): string | null {
  const candidates = KNOWN_TYPES_BY_LENGTH[end - at];
  if (candidates === undefined) return null;
  next: for (const candidate of candidates) {
    for (let i = 0; i < candidate.bytes.length; i++) if (bytes[at + i] !== candidate.bytes[i]) continue next;
    return candidate.name;
  }
  return null;
}

/** bytes[at, end) starts with a streamed update's prefix (SKIPPED). */
function startsWithSkipped(bytes: Buffer, at: number, end: number): boolean {
  return startsWithBytes(bytes, at, end, TYPE_PREFIX_BYTES) && startsWithSkippedType(bytes, at + TYPE_PREFIX.length, end);
}

/** bytes[at, end), just after TYPE_PREFIX, starts with a streamed update's type and its closing quote. */
function startsWithSkippedType(bytes: Buffer, at: number, end: number): boolean {
  for (const type of SKIPPED_TYPE_BYTES) if (startsWithBytes(bytes, at, end, type)) return true;
  return false;
}

/**
 * Whether bytes[at, end) starts with `prefix`. A loop, not Buffer.compare:
 * the prefixes are short and most lines differ within a few bytes, where a
 * call into C++ per line and prefix cost the relay ~0.3 s per GB.
 */
function startsWithBytes(bytes: Buffer, at: number, end: number, prefix: Uint8Array): boolean {
  if (end - at < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}
