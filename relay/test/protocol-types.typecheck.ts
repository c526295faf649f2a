// Compile-time only: proves that @pier/protocol's pi types match the
// pi 0.87.1 (the devDependency alias `pi-coding-agent-0.87`, the contract
// tests' default pi). Checked by
// `tsc -p relay/tsconfig.json`; a mismatch is a type error in this file.
// Nothing here runs.
//
// Where our types deliberately describe the wire more precisely than pi's
// TypeScript (undefined-valued keys are absent from JSON, Model<any> is
// not generic here), the check is one-way: pi's value must be assignable
// to ours, so everything pi can send type-checks in Pier.

import type {
  JsonAgentSessionEvent as PiJsonEvent,
  RpcCommand as PiRpcCommand,
  RpcExtensionUIRequest as PiExtensionUiRequest,
  RpcExtensionUIResponse as PiExtensionUiResponse,
  RpcResponse as PiRpcResponse,
  RpcSessionState as PiRpcSessionState,
} from "pi-coding-agent-0.87";
import type {
  AgentMessage,
  AssistantMessageEvent,
  ExtensionUiMethod,
  ExtensionUiRequest,
  ExtensionUiResponse,
  Model,
  PiEvent,
  PiEventType,
  ResponseData,
  RpcCommand,
  RpcCommandType,
  RpcResponse,
  RpcSessionState,
  RpcSuccessResponse,
  ThinkingLevel,
} from "@pier/protocol";
import type { RPC_COMMAND_TYPES } from "@pier/protocol";

// --- helpers ---------------------------------------------------------------

/** Exactly the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** A is assignable to B (non-distributive). */
type Extends<A, B> = [A] extends [B] ? true : false;
/** Each is assignable to the other. */
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;

// --- commands ----------------------------------------------------------------

type PiCommandType = PiRpcCommand["type"];

export type CommandChecks = [
  Expect<Equal<RpcCommandType, PiCommandType>>,
  Expect<Equal<(typeof RPC_COMMAND_TYPES)[number], PiCommandType>>,
  Expect<Mutual<RpcCommand, PiRpcCommand>>,
  // Per command, so a mismatch names the command.
  Expect<Equal<{ [K in RpcCommandType]: Mutual<Extract<RpcCommand, { type: K }>, Extract<PiRpcCommand, { type: K }>> }[RpcCommandType], true>>,
  Expect<Equal<Extract<RpcCommand, { type: "set_thinking_level" }>["level"], Extract<PiRpcCommand, { type: "set_thinking_level" }>["level"]>>,
];

// --- models and messages -------------------------------------------------------

type PiModel = NonNullable<PiRpcSessionState["model"]>;
type PiAgentMessage = Extract<PiRpcResponse, { command: "get_messages"; success: true }>["data"]["messages"][number];

export type ModelAndMessageChecks = [
  Expect<Equal<ThinkingLevel, PiRpcSessionState["thinkingLevel"]>>,
  Expect<Mutual<Model, PiModel>>,
  Expect<Equal<AgentMessage["role"], PiAgentMessage["role"]>>,
  Expect<Mutual<AgentMessage, PiAgentMessage>>,
  // Per role, pi's message is assignable to ours.
  Expect<Equal<{ [R in AgentMessage["role"]]: Extends<Extract<PiAgentMessage, { role: R }>, Extract<AgentMessage, { role: R }>> }[AgentMessage["role"]], true>>,
];

// --- responses -------------------------------------------------------------------

type PiSuccess = Extract<PiRpcResponse, { success: true }>;
type PiFailure = Extract<PiRpcResponse, { success: false }>;
/** pi's `data` for command K, or undefined when its response has none. */
type PiData<K extends PiCommandType> = Extract<PiSuccess, { command: K }> extends { data: infer D } ? D : undefined;

export type ResponseChecks = [
  Expect<Equal<PiSuccess["command"], RpcSuccessResponse["command"]>>,
  Expect<Equal<PiSuccess["command"], RpcCommandType>>,
  // Every pi response (success or failure) type-checks as ours.
  Expect<Extends<PiRpcResponse, RpcResponse>>,
  Expect<Extends<PiFailure, RpcResponse>>,
  // Commands with and without data agree.
  Expect<Equal<{ [K in RpcCommandType]: Equal<PiData<K> extends undefined ? 0 : 1, ResponseData<K> extends undefined ? 0 : 1> }[RpcCommandType], true>>,
  // Per command, pi's data is assignable to ours.
  Expect<Equal<{ [K in RpcCommandType]: Extends<PiData<K>, ResponseData<K>> }[RpcCommandType], true>>,
  Expect<Mutual<RpcSessionState, PiRpcSessionState>>,
  Expect<Equal<keyof RpcSessionState, keyof PiRpcSessionState>>,
];

// --- events ----------------------------------------------------------------------

type PiMessageUpdate = Extract<PiJsonEvent, { type: "message_update" }>;

export type EventChecks = [
  // Ours adds extension_error, which rpc-mode writes outside AgentSessionEvent.
  Expect<Equal<Exclude<PiEventType, "extension_error">, PiJsonEvent["type"]>>,
  Expect<Extends<PiJsonEvent, PiEvent>>,
  // Per event type, pi's event is assignable to ours.
  Expect<Equal<{ [T in PiJsonEvent["type"]]: Extends<Extract<PiJsonEvent, { type: T }>, Extract<PiEvent, { type: T }>> }[PiJsonEvent["type"]], true>>,
  // message_update on the wire: no message, no partial.
  Expect<Equal<keyof PiMessageUpdate, "type" | "usage" | "assistantMessageEvent">>,
  Expect<Equal<PiMessageUpdate["assistantMessageEvent"]["type"], AssistantMessageEvent["type"]>>,
  Expect<Mutual<PiMessageUpdate["assistantMessageEvent"], AssistantMessageEvent>>,
];

// --- extension UI ------------------------------------------------------------------

export type ExtensionUiChecks = [
  Expect<Equal<ExtensionUiMethod, PiExtensionUiRequest["method"]>>,
  Expect<Extends<PiExtensionUiRequest, ExtensionUiRequest>>,
  Expect<Equal<{ [M in ExtensionUiMethod]: Extends<Extract<PiExtensionUiRequest, { method: M }>, Extract<ExtensionUiRequest, { method: M }>> }[ExtensionUiMethod], true>>,
  Expect<Equal<ExtensionUiResponse, PiExtensionUiResponse>>,
];
