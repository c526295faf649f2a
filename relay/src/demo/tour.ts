// The default scenario of `pnpm demo`: a guided tour played on the first
// prompt, whatever it says. It runs against the tiny-greeter copy made by
// demo-project.ts: read -> run the tests -> edit -> run them again, and after
// each tool step it says what that step looked like on the wire. Later prompts
// get a short note on how to use a real model. Paced to last ~15 seconds.

import type { Scenario, Turn } from "./scenario.ts";

/** The exact edit the tour makes to src/greetings.js (tests check the file changed). */
export const TOUR_EDIT = {
  path: "src/greetings.js",
  oldText: '  de: "Hallo, {name}!",\n',
  newText: '  de: "Hallo, {name}!",\n  es: "¡Hola, {name}!",\n',
} as const;

// A beat after each tool result, so a newcomer can glance at the tool card.
const LOOK_AT_THE_RESULT = { kind: "pause", ms: 600 } as const;

const welcome: Turn = {
  steps: [
    {
      kind: "reasoning",
      text:
        "Someone just opened Pier's demo. I'm not a real model, I'm a script, so I won't pretend to understand " +
        "their message. Plan: show a file read, a command, and an edit on the sample project, and point out " +
        "what each one looks like in pi's RPC stream.",
    },
    { kind: "pause", ms: 300 },
    {
      kind: "text",
      text:
        "👋 **Welcome to Pier!** I'm Pier's *offline demo model*: a short script played by a tiny server on " +
        "your machine, not a real AI. Whatever you typed, you get this tour.\n\n" +
        "Everything here arrives from `pi --mode rpc` as JSON lines. These words are `message_update` events " +
        "carrying `text_delta`s; the thinking above came as `thinking_delta`s.\n\n" +
        "This folder is a scratch copy of **tiny-greeter**, a very small project. Let's see which languages it speaks:",
    },
    { kind: "toolCall", name: "read", arguments: { path: "src/greetings.js" } },
  ],
};

const afterRead: Turn = {
  steps: [
    LOOK_AT_THE_RESULT,
    {
      kind: "text",
      text:
        "While I wrote that call you saw `toolcall_delta` events; then pi ran it, which is a " +
        "`tool_execution_start` … `tool_execution_end` pair, and the file came back to me as a `toolResult` message.\n\n" +
        "Three languages: English, French and German. Let's run the tests with plain Node:",
    },
    { kind: "toolCall", name: "bash", arguments: { command: "node test.js" } },
  ],
};

const afterTests: Turn = {
  steps: [
    LOOK_AT_THE_RESULT,
    { kind: "reasoning", text: "All green. Time for a real change: Spanish is one line in the table." },
    {
      kind: "text",
      text:
        "All 5 tests pass. A `bash` step can stream its output as `tool_execution_update` events before " +
        "`tool_execution_end` arrives with the full result and `isError: false`.\n\n" +
        "Now a real change. I'll teach it Spanish with an `edit`, which swaps one exact snippet of the file for another:",
    },
    {
      kind: "toolCall",
      name: "edit",
      arguments: { path: TOUR_EDIT.path, edits: [{ oldText: TOUR_EDIT.oldText, newText: TOUR_EDIT.newText }] },
    },
  ],
};

const afterEdit: Turn = {
  steps: [
    LOOK_AT_THE_RESULT,
    {
      kind: "text",
      text:
        "Done: the edit's `tool_execution_end` carries a unified diff in `result.details`, so you can review " +
        "exactly what changed (open the file to see it). One more run to prove the tests agree:",
    },
    { kind: "toolCall", name: "bash", arguments: { command: "node test.js && node src/cli.js Ada --lang es" } },
  ],
};

const summary: Turn = {
  steps: [
    LOOK_AT_THE_RESULT,
    {
      kind: "text",
      text:
        "Four languages, tests still green, and `¡Hola, Ada!` ✅\n\n" +
        "**That's the tour.** What you just watched:\n\n" +
        "- **Chat**: `message_start`, a stream of `message_update` deltas, then `message_end`, which is authoritative.\n" +
        "- **Tool cards**: each tool call became a `tool_execution_start` … `tool_execution_end` pair and a `toolResult` message.\n" +
        "- **The end of a run** is `agent_settled`, not `agent_end`: pi may still retry or run queued follow-ups in between.\n\n" +
        "The protocol inspector shows every record. Ask me anything else and I'll tell you how to connect a real model.",
    },
  ],
};

const laterPrompts: Turn = {
  steps: [
    { kind: "reasoning", text: "The tour is over; I can't really answer, so I'll say how to get a real model." },
    {
      kind: "text",
      text:
        "I'm Pier's **scripted demo model**, so I can't really answer that. I only know the tour you just saw.\n\n" +
        "To work with a real model:\n\n" +
        "1. Set pi up with a provider: run `pi` once and use `/login`, or add your endpoint to `~/.pi/agent/models.json`.\n" +
        "2. Start Pier with `pnpm start` (instead of `pnpm demo`) in your own project.\n\n" +
        "Everything you saw here works the same way, just with real answers.",
    },
  ],
};

export const tourScenario: Scenario = {
  name: "pier-tour",
  description: "Pier's offline demo: a guided tour on the first prompt, then a note on real models.",
  pace: { chunkChars: 5, delayMs: 25 },
  rules: [{ when: { promptNumber: 1 }, turns: [welcome, afterRead, afterTests, afterEdit, summary] }],
  fallback: laterPrompts,
};
