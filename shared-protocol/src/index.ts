export * from "./jsonl-decoder.ts";
export * from "./relay-frames.ts";
export * from "./pi/index.ts";
export * from "./command-guard.ts";
export * from "./workspace-api.ts";
export * from "./sessions-api.ts";
export * from "./presence.ts";
export * from "./secrets.ts";
