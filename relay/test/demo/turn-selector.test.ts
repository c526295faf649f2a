import { describe, expect, it } from "vitest";
import type { Scenario } from "../../src/demo/scenario.ts";
import { selectTurn } from "../../src/demo/turn-selector.ts";

const say = (text: string) => ({ steps: [{ kind: "text" as const, text }] });
const firstText = (scenario: Scenario, messages: unknown[]) => {
  const step = selectTurn(scenario, messages).turn.steps[0];
  return step?.kind === "text" ? step.text : step?.kind;
};

const system = { role: "developer", content: "You are pi." };
const user = (text: string) => ({ role: "user", content: [{ type: "text", text }] });
const assistantCall = { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: "{}" } }] };
const toolResult = { role: "tool", tool_call_id: "c1", content: "file text" };

const scenario: Scenario = {
  name: "t",
  rules: [
    { when: { text: "exact please" }, turns: [say("exact")] },
    { when: { regex: "^tools?", flags: "i" }, turns: [say("turn 0"), say("turn 1")] },
    { when: { promptNumber: 1 }, turns: [say("first prompt")] },
  ],
  fallback: say("fallback"),
};

describe("selectTurn", () => {
  it("matches the last user message by exact text, regex, then prompt number", () => {
    expect(firstText(scenario, [system, user("  exact please ")])).toBe("exact");
    expect(firstText(scenario, [system, user("Tools now")])).toBe("turn 0");
    expect(firstText(scenario, [system, user("anything")])).toBe("first prompt");
    expect(firstText(scenario, [system, user("anything"), { role: "assistant", content: "hi" }, user("more")])).toBe("fallback");
  });

  it("accepts plain string content", () => {
    expect(firstText(scenario, [{ role: "user", content: "exact please" }])).toBe("exact");
  });

  it("advances by the number of tool results since that user message", () => {
    const afterOne = [system, user("tools"), assistantCall, toolResult];
    expect(firstText(scenario, afterOne)).toBe("turn 1");
    expect(selectTurn(scenario, afterOne).label).toBe("rule 1 turn 1");
    // Tool results before the last user message do not count.
    expect(firstText(scenario, [...afterOne, { role: "assistant", content: "ok" }, user("tools")])).toBe("turn 0");
  });

  it("answers with a clear built-in reply instead of hanging", () => {
    const tooFar = [system, user("tools"), assistantCall, toolResult, assistantCall, toolResult];
    expect(firstText(scenario, tooFar)).toBe("The scripted model has no reply for “tools” after 2 tool result(s).");
    const noFallback: Scenario = { name: "t", rules: [] };
    expect(firstText(noFallback, [user("hello\nworld")])).toBe("The scripted model has no reply for “hello world”.");
    expect(firstText(noFallback, [system])).toBe("The scripted model has no reply for no user message in the request.");
  });

  it("gives a retried request the same key, and the next position a new one", () => {
    const messages = [system, user("tools")];
    expect(selectTurn(scenario, messages).key).toBe(selectTurn(scenario, [...messages]).key);
    expect(selectTurn(scenario, [...messages, assistantCall, toolResult]).key).not.toBe(selectTurn(scenario, messages).key);
  });
});
