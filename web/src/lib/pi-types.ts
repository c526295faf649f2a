// The pi 0.87.1 protocol types the web client uses, from @pier/protocol
// (shared-protocol/src/pi). One import point for web/, so components and the
// reducer never depend on where the protocol package keeps them.

export type {
  AgentMessage,
  AssistantMessage,
  AssistantMessageEvent,
  BashExecutionMessage,
  BranchSummaryMessage,
  CompactionSummaryMessage,
  CustomMessage,
  ExtensionUiRequest,
  ImageContent,
  Model,
  PiEvent,
  PiStdoutRecord,
  RpcCommand,
  RpcResponse,
  RpcSessionState,
  StopReason,
  SystemMessage,
  TextContent,
  ThinkingContent,
  ThinkingLevel,
  ToolCall,
  ToolResultMessage,
  Usage,
  UserMessage,
} from "@pier/protocol";

/** What a tool execution reports (tool_execution_update.partialResult / _end.result). */
export type { ToolExecutionResult as ToolResultPayload } from "@pier/protocol";

import type { AgentMessage, SystemMessage } from "@pier/protocol";

/** A message of the conversation: everything but the system prompt, which is kept apart. */
export type ConversationMessage = Exclude<AgentMessage, SystemMessage>;
