export * from "./jsonl-decoder.ts";
export * from "./relay-frames.ts";
