// A transcript element named for people ("message 3", "block 2 of message 7").
import type { LinkTarget } from "../transcript/transcript-targets.ts";

export function targetWords(target: LinkTarget): string {
  switch (target.kind) {
    case "message":
      return target.block === undefined ? `message ${target.index + 1}` : `block ${target.block + 1} of message ${target.index + 1}`;
    case "tool":
      return `tool call ${target.toolCallId.length > 14 ? `${target.toolCallId.slice(0, 13)}…` : target.toolCallId}`;
    case "marker":
      return "this marker";
  }
}
