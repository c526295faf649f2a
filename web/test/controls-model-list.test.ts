import { describe, expect, test } from "vitest";
import { filterModels, groupByProvider, isCycleModelShortcut, isCycleThinkingShortcut, modelKey, offeredLevels, thinkingLabel } from "../src/lib/controls/model-list.ts";
import { restoreQueuedText } from "../src/lib/controls/queue.ts";

const models = [
  { provider: "anthropic", id: "claude-sonnet-4", name: "Claude Sonnet 4" },
  { provider: "openai", id: "gpt-5", name: "GPT-5" },
  { provider: "pier-demo", id: "pier-demo-model", name: "Pier demo model" },
  { provider: "pier-demo", id: "pier-demo-model-fast", name: "Pier demo model (fast)" },
];

describe("models", () => {
  test("modelKey is provider/id (ids repeat across providers)", () => {
    expect(modelKey(models[0])).toBe("anthropic/claude-sonnet-4");
    expect(modelKey(null)).toBeNull();
  });

  test("filter matches every word against name, id and provider", () => {
    expect(filterModels(models, "").length).toBe(4);
    expect(filterModels(models, "sonnet").map((m) => m.id)).toEqual(["claude-sonnet-4"]);
    expect(filterModels(models, "demo fast").map((m) => m.id)).toEqual(["pier-demo-model-fast"]);
    expect(filterModels(models, "OPENAI").map((m) => m.id)).toEqual(["gpt-5"]);
    expect(filterModels(models, "nothing")).toEqual([]);
  });

  test("grouping keeps first-seen order", () => {
    expect(groupByProvider(models).map((g) => [g.provider, g.models.length])).toEqual([
      ["anthropic", 1],
      ["openai", 1],
      ["pier-demo", 2],
    ]);
  });
});

describe("thinking levels", () => {
  test("only known levels pi offered, in its order, once", () => {
    expect(offeredLevels(["off", "minimal", "low", "medium", "high"])).toEqual(["off", "minimal", "low", "medium", "high"]);
    expect(offeredLevels(["off"])).toEqual(["off"]);
    expect(offeredLevels(["off", "ultra", 3, "off", "max"])).toEqual(["off", "max"]);
    expect(offeredLevels(null)).toEqual([]);
  });

  test("labels", () => {
    expect(thinkingLabel("xhigh")).toBe("extra high");
    expect(thinkingLabel("medium")).toBe("medium");
  });
});

describe("cycle shortcut", () => {
  const key = (over: Partial<KeyboardEvent>) => ({ altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, code: "KeyM", repeat: false, ...over });
  test("Alt+M by physical key only", () => {
    expect(isCycleModelShortcut(key({ altKey: true }))).toBe(true);
    expect(isCycleModelShortcut(key({}))).toBe(false);
    expect(isCycleModelShortcut(key({ altKey: true, ctrlKey: true }))).toBe(false);
    expect(isCycleModelShortcut(key({ altKey: true, shiftKey: true }))).toBe(false);
    expect(isCycleModelShortcut(key({ altKey: true, repeat: true }))).toBe(false);
    expect(isCycleModelShortcut(key({ altKey: true, code: "KeyN" }))).toBe(false);
  });
  test("Alt+T by physical key only", () => {
    expect(isCycleThinkingShortcut(key({ altKey: true, code: "KeyT" }))).toBe(true);
    expect(isCycleThinkingShortcut(key({ altKey: true }))).toBe(false);
    expect(isCycleThinkingShortcut(key({ code: "KeyT" }))).toBe(false);
    expect(isCycleThinkingShortcut(key({ altKey: true, metaKey: true, code: "KeyT" }))).toBe(false);
  });
});

describe("restoreQueuedText", () => {
  test("queued texts go back first (steering, then follow-ups), then the draft", () => {
    expect(restoreQueuedText("", { steering: ["Change direction"], followUp: ["Summarize when finished"] })).toBe("Change direction\n\nSummarize when finished");
    expect(restoreQueuedText("half typed", { steering: [], followUp: ["later"] })).toBe("later\n\nhalf typed");
    expect(restoreQueuedText("draft", { steering: [], followUp: [] })).toBe("draft");
    expect(restoreQueuedText("draft", null)).toBe("draft");
  });
});
