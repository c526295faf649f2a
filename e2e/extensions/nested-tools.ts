// Test extension for what pi ≥ 1.x adds to the RPC wire, loaded with
// `pier … -- -e <this file>` (or the `extensions` setting in contract tests):
//
// - `nested_probe`, a tool that runs two other tools through
//   `ctx.executeTool()`: a bash loop that streams three lines (succeeds) and
//   a read of a missing file (fails). pi emits their tool_execution_* events
//   with `parentToolCallId` and records them as `nestedCalls` on
//   nested_probe's toolResult. pi 0.87.1 has no executeTool: the tool then
//   says so and succeeds without nested calls.
// - `/probe-handled`, an extension command: its `prompt` is consumed, so pi
//   ≥ 0.99 answers it with `disposition: "handled"` and starts no run.
// - an input handler that consumes the text "probe: handled" (the way a
//   steer or follow-up can be "handled" too).
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

/** What the nested calls need from a tool's context; typed here because pi 0.87.1's types lack it. */
interface NestedCallContext {
  executeTool?: (
    name: string,
    args: Record<string, unknown>,
    options?: { signal?: AbortSignal },
  ) => Promise<{ isError: boolean; durationMs?: number; result: { content: { type: string; text?: string }[] } }>;
}

/** The nested bash call: three lines, `pause` seconds apart, so its output streams. */
const nestedBashCommand = (pause: number) => `for i in 1 2 3; do echo step $i; sleep ${pause}; done`;
/** The nested read that fails. */
const NESTED_MISSING_PATH = "no-such-file.txt";

const firstText = (result: { content: { type: string; text?: string }[] }) => result.content.find((block) => block.type === "text")?.text ?? "";

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "nested_probe",
    label: "Nested probe",
    description: "Runs bash and read through ctx.executeTool (a test tool for nested tool calls).",
    parameters: Type.Object({
      label: Type.Optional(Type.String({ description: "Echoed in the result." })),
      pause: Type.Optional(Type.Number({ description: "Seconds between the nested bash call's lines (default 0.1), to watch it stream." })),
    }),
    async execute(_toolCallId, params, signal, _onUpdate, ctx) {
      const executeTool = (ctx as unknown as NestedCallContext).executeTool;
      if (typeof executeTool !== "function") {
        return { content: [{ type: "text", text: "This pi cannot call tools from a tool (no ctx.executeTool)." }], details: { nested: false } };
      }
      const pause = typeof params.pause === "number" && params.pause >= 0 && params.pause <= 10 ? params.pause : 0.1;
      const counted = await executeTool("bash", { command: nestedBashCommand(pause) }, { signal });
      const missing = await executeTool("read", { path: NESTED_MISSING_PATH }, { signal });
      const label = typeof params.label === "string" ? `${params.label}: ` : "";
      return {
        content: [
          {
            type: "text",
            text: `${label}bash ${counted.isError ? "failed" : "ok"} (${firstText(counted.result).trim().split("\n").length} lines), read ${missing.isError ? "failed" : "ok"}.`,
          },
        ],
        details: { nested: true },
      };
    },
  });

  pi.registerCommand("probe-handled", {
    description: 'Does nothing but consume its input (pi answers the prompt with disposition "handled")',
    handler: async (_args, ctx) => {
      ctx.ui.notify("probe-handled: consumed, no run", "info");
    },
  });

  pi.on("input", async (event) => {
    if (event.text === "probe: handled") return { action: "handled" };
    return { action: "continue" };
  });
}
