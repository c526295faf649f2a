// The scenario format played by the scripted model server, and its validator.
//
// A scenario is a list of rules. For each chat-completions request the server
// looks at the LAST user message: the first rule whose `when` matches owns the
// request, and the number of tool results that follow that user message picks
// the turn (0 = the first answer, 1 = the answer after the first tool round…).
// That keeps selection a pure function of the request body, so a retried or
// replayed request gets the same answer instead of "the next one in a queue".

import { readRegularTextFile } from "../regular-file.ts";

/** One thing the model does while answering, in order. */
export type Step =
  /** Streamed as `delta.reasoning_content` (pi shows it as thinking). */
  | { kind: "reasoning"; text: string; chunkChars?: number; delayMs?: number }
  /** Streamed as `delta.content`. */
  | { kind: "text"; text: string; chunkChars?: number; delayMs?: number }
  /** One tool call; its JSON arguments are streamed in pieces. pi runs it. */
  | { kind: "toolCall"; name: string; arguments: Record<string, unknown>; id?: string }
  /** Silence on the wire for `ms` milliseconds. */
  | { kind: "pause"; ms: number }
  /** Overrides the usage reported in the final chunk (otherwise estimated). */
  | { kind: "usage"; promptTokens: number; completionTokens: number; reasoningTokens?: number }
  /** Overrides the finish_reason (otherwise `tool_calls` if a tool was called, else `stop`). */
  | { kind: "finish"; reason: FinishReason }
  /** Answer with an HTTP error instead of a stream. Must be the only step. */
  | { kind: "httpError"; status: number; message: string; errorType?: string; headers?: Record<string, string> }
  /** Destroy the socket here, mid-stream, with no finish_reason and no [DONE]. */
  | { kind: "cut" }
  /** Stop here and keep the stream open until the client aborts (or the server closes). */
  | { kind: "hang" };

export type FinishReason = "stop" | "tool_calls" | "length";

/** One model answer. `failFirst` replies are played by the first requests for this turn (one each) so a retry then gets `steps`. */
export interface Turn {
  steps: Step[];
  failFirst?: Step[][];
}

/** All given conditions must hold. With none, the rule matches every prompt. */
export interface Match {
  /** The user text, trimmed, equals this. */
  text?: string;
  /** The user text matches this regular expression. */
  regex?: string;
  flags?: string;
  /** 1-based position of that user message among the conversation's user messages. */
  promptNumber?: number;
}

export interface Rule {
  when: Match;
  turns: Turn[];
}

export interface Scenario {
  name: string;
  description?: string;
  /** Default streaming pace for text and reasoning steps. */
  pace?: { chunkChars: number; delayMs: number };
  rules: Rule[];
  /** Played when no rule matches, or a rule has no turn for this many tool results. */
  fallback?: Turn;
  /**
   * pi settings for a run of this scenario (merged into the demo agent dir's
   * settings.json), e.g. `{ "compaction": { "keepRecentTokens": 50 } }` so a
   * short scripted session has something to compact.
   */
  piSettings?: Record<string, unknown>;
}

export class ScenarioError extends Error {
  override name = "ScenarioError";
}

const MAX_SCENARIO_BYTES = 64 * 1024 * 1024;
const FINISH_REASONS: readonly string[] = ["stop", "tool_calls", "length"];

/** Reads and validates a scenario JSON file; throws ScenarioError naming the file and the bad field. */
export async function loadScenario(path: string): Promise<Scenario> {
  // Never waits on a named pipe: a file that is not a regular one is named for what it is.
  const read = await readRegularTextFile(path, { what: "a scenario file", maxBytes: MAX_SCENARIO_BYTES });
  if (!read.ok) throw new ScenarioError(`${path}: cannot read scenario file (${read.message})`);
  const raw = read.text;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new ScenarioError(`${path}: not valid JSON (${(error as Error).message})`);
  }
  return validateScenario(value, path);
}

/** Checks an unknown value against the Scenario shape; returns it typed or throws ScenarioError. */
export function validateScenario(value: unknown, source = "scenario"): Scenario {
  const fail = (where: string, problem: string): never => {
    throw new ScenarioError(`${source}: ${where}: ${problem}`);
  };
  const scenario = expectObject(value, "scenario", fail);
  expectString(scenario.name, "scenario.name", fail);
  if (scenario.description !== undefined) expectString(scenario.description, "scenario.description", fail);
  if (scenario.pace !== undefined) {
    const pace = expectObject(scenario.pace, "scenario.pace", fail);
    expectCount(pace.chunkChars, "scenario.pace.chunkChars", fail, 1);
    expectCount(pace.delayMs, "scenario.pace.delayMs", fail, 0);
  }
  if (!Array.isArray(scenario.rules)) fail("scenario.rules", "must be an array of rules");
  (scenario.rules as unknown[]).forEach((rule, i) => checkRule(rule, `scenario.rules[${i}]`, fail));
  if (scenario.fallback !== undefined) checkTurn(scenario.fallback, "scenario.fallback", fail);
  if (scenario.piSettings !== undefined) expectObject(scenario.piSettings, "scenario.piSettings", fail);
  return value as Scenario;
}

type Fail = (where: string, problem: string) => never;

function checkRule(value: unknown, where: string, fail: Fail): void {
  const rule = expectObject(value, where, fail);
  const when = expectObject(rule.when, `${where}.when`, fail);
  for (const key of Object.keys(when)) {
    if (!["text", "regex", "flags", "promptNumber"].includes(key)) fail(`${where}.when.${key}`, "unknown condition");
  }
  if (when.text !== undefined) expectString(when.text, `${where}.when.text`, fail);
  if (when.flags !== undefined) expectString(when.flags, `${where}.when.flags`, fail);
  if (when.regex !== undefined) {
    expectString(when.regex, `${where}.when.regex`, fail);
    try {
      new RegExp(when.regex as string, (when.flags as string | undefined) ?? "");
    } catch (error) {
      fail(`${where}.when.regex`, `invalid regular expression (${(error as Error).message})`);
    }
  }
  if (when.promptNumber !== undefined) expectCount(when.promptNumber, `${where}.when.promptNumber`, fail, 1);
  if (!Array.isArray(rule.turns) || rule.turns.length === 0) fail(`${where}.turns`, "must be a non-empty array of turns");
  (rule.turns as unknown[]).forEach((turn, i) => checkTurn(turn, `${where}.turns[${i}]`, fail));
}

function checkTurn(value: unknown, where: string, fail: Fail): void {
  const turn = expectObject(value, where, fail);
  checkSteps(turn.steps, `${where}.steps`, fail);
  if (turn.failFirst !== undefined) {
    if (!Array.isArray(turn.failFirst)) fail(`${where}.failFirst`, "must be an array of step lists");
    (turn.failFirst as unknown[]).forEach((steps, i) => checkSteps(steps, `${where}.failFirst[${i}]`, fail));
  }
}

function checkSteps(value: unknown, where: string, fail: Fail): void {
  if (!Array.isArray(value) || value.length === 0) fail(where, "must be a non-empty array of steps");
  const steps = value as unknown[];
  steps.forEach((step, i) => checkStep(step, `${where}[${i}]`, fail));
  const errorAt = steps.findIndex((step) => (step as { kind: string }).kind === "httpError");
  if (errorAt !== -1 && steps.length !== 1) fail(`${where}[${errorAt}]`, "an httpError step must be the only step of its reply");
}

function checkStep(value: unknown, where: string, fail: Fail): void {
  const step = expectObject(value, where, fail);
  switch (step.kind) {
    case "reasoning":
    case "text":
      expectString(step.text, `${where}.text`, fail);
      if (step.chunkChars !== undefined) expectCount(step.chunkChars, `${where}.chunkChars`, fail, 1);
      if (step.delayMs !== undefined) expectCount(step.delayMs, `${where}.delayMs`, fail, 0);
      return;
    case "toolCall":
      expectString(step.name, `${where}.name`, fail);
      expectObject(step.arguments, `${where}.arguments`, fail);
      if (step.id !== undefined) expectString(step.id, `${where}.id`, fail);
      return;
    case "pause":
      expectCount(step.ms, `${where}.ms`, fail, 0);
      return;
    case "usage":
      expectCount(step.promptTokens, `${where}.promptTokens`, fail, 0);
      expectCount(step.completionTokens, `${where}.completionTokens`, fail, 0);
      if (step.reasoningTokens !== undefined) expectCount(step.reasoningTokens, `${where}.reasoningTokens`, fail, 0);
      return;
    case "finish":
      if (!FINISH_REASONS.includes(step.reason as string)) fail(`${where}.reason`, `must be one of ${FINISH_REASONS.join(", ")}`);
      return;
    case "httpError":
      if (!Number.isInteger(step.status) || (step.status as number) < 400 || (step.status as number) > 599) {
        fail(`${where}.status`, "must be an HTTP error status (400-599)");
      }
      expectString(step.message, `${where}.message`, fail);
      if (step.errorType !== undefined) expectString(step.errorType, `${where}.errorType`, fail);
      if (step.headers !== undefined) {
        const headers = expectObject(step.headers, `${where}.headers`, fail);
        for (const [name, header] of Object.entries(headers)) expectString(header, `${where}.headers.${name}`, fail);
      }
      return;
    case "cut":
    case "hang":
      return;
    default:
      fail(`${where}.kind`, `unknown step kind ${JSON.stringify(step.kind)} (expected reasoning, text, toolCall, pause, usage, finish, httpError, cut or hang)`);
  }
}

function expectObject(value: unknown, where: string, fail: Fail): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail(where, "must be an object");
  return value as Record<string, unknown>;
}

function expectString(value: unknown, where: string, fail: Fail): void {
  if (typeof value !== "string") fail(where, "must be a string");
}

function expectCount(value: unknown, where: string, fail: Fail, min: number): void {
  if (!Number.isInteger(value) || (value as number) < min) fail(where, `must be an integer >= ${min}`);
}
