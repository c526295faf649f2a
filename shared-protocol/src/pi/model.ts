// Model descriptions as pi 0.87.1 sends them (get_state, set_model,
// cycle_model, get_available_models). Mirrors pi-ai's `Model<Api>` without
// its generic parameter: on the wire `api` is just a string.

/** Reasoning effort pi asks the model for. "off" disables thinking. */
export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/** Every ThinkingLevel, weakest first (runtime list for validation and menus). */
export const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"] as const satisfies readonly ThinkingLevel[];

/** Wire protocols pi knows how to speak. Custom providers may name others. */
export type KnownApi =
  | "openai-completions"
  | "mistral-conversations"
  | "openai-responses"
  | "azure-openai-responses"
  | "openai-codex-responses"
  | "anthropic-messages"
  | "bedrock-converse-stream"
  | "google-generative-ai"
  | "google-vertex"
  | "pi-messages";

/** A model API name: one of KnownApi or any custom string. */
export type Api = KnownApi | (string & {});

/** Price per million tokens for each token class. */
export interface ModelCostRates {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** A price tier that applies once a request's input exceeds `inputTokensAbove`. */
export interface ModelCostTier extends ModelCostRates {
  inputTokensAbove: number;
}

/** Model pricing, optionally tiered by request size. */
export interface ModelCost extends ModelCostRates {
  tiers?: ModelCostTier[];
}

/** Image preprocessing limits for a model's image input. */
export interface ModelImageResizeOptions {
  maxWidth?: number;
  maxHeight?: number;
  /** Maximum base64-encoded payload size in bytes. */
  maxBytes?: number;
  jpegQuality?: number;
}

/** Per-message / per-request image limits. */
export interface ModelImageInputLimits {
  resize?: ModelImageResizeOptions;
  maxPerMessage?: number;
  maxPerRequest?: number;
}

/** Provider input limits (request size, images). */
export interface ModelInputLimits {
  maxRequestBytes?: number;
  images?: ModelImageInputLimits;
}

/** Provider-specific thinking values per level; `null` marks a level as unsupported. */
export type ThinkingLevelMap = Partial<Record<ThinkingLevel, string | null>>;

/** Prompt cache lifetime in seconds per retention tier. */
export type ModelPromptCache = Partial<Record<"short" | "long", number>>;

/** A model pi can talk to. */
export interface Model {
  /** Provider-side model id, e.g. "deepseek-v4-pro". Unique only together with `provider`. */
  id: string;
  /** Human-readable name. */
  name: string;
  api: Api;
  /** Provider id, e.g. "anthropic", or a custom provider from models.json. */
  provider: string;
  baseUrl: string;
  /** Whether the model supports thinking levels other than "off". */
  reasoning: boolean;
  thinkingLevelMap?: ThinkingLevelMap;
  /** Accepted input kinds. */
  input: ("text" | "image")[];
  inputLimits?: ModelInputLimits;
  cost: ModelCost;
  promptCache?: ModelPromptCache;
  /** Context window in tokens. */
  contextWindow: number;
  /** Maximum output tokens. */
  maxTokens: number;
  samplingParams?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** API-specific compatibility overrides; shape depends on `api` (opaque here). */
  compat?: object;
}
