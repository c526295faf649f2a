import { describe, expect, it } from "vitest";
import { thinkingLevelToApply } from "../../src/lib/settings/new-session-thinking.ts";
import { DEFAULT_SETTINGS, parseSettings, resolveScheme, serializeSettings } from "../../src/lib/settings/page-settings.ts";

describe("page settings", () => {
  it("round-trips what was saved", () => {
    const saved = { theme: "dark", newSessionThinking: "high", desktopNotifications: true } as const;
    expect(parseSettings(serializeSettings(saved))).toEqual(saved);
  });

  it("falls back to the defaults for nothing stored, broken JSON, or not an object", () => {
    expect(parseSettings(null)).toEqual(DEFAULT_SETTINGS);
    expect(parseSettings("{oops")).toEqual(DEFAULT_SETTINGS);
    expect(parseSettings("42")).toEqual(DEFAULT_SETTINGS);
  });

  it("drops an unknown value alone and keeps the rest", () => {
    expect(parseSettings(JSON.stringify({ theme: "sepia", newSessionThinking: "high", desktopNotifications: "yes" }))).toEqual({
      theme: "system",
      newSessionThinking: "high",
      desktopNotifications: false,
    });
    expect(parseSettings(JSON.stringify({ theme: "light", newSessionThinking: "ludicrous" })).newSessionThinking).toBeNull();
  });

  it("resolves the scheme: a chosen theme wins, 'system' follows the OS", () => {
    expect(resolveScheme("system", true)).toBe("dark");
    expect(resolveScheme("system", false)).toBe("light");
    expect(resolveScheme("light", true)).toBe("light");
    expect(resolveScheme("dark", false)).toBe("dark");
  });
});

describe("the thinking level of a new session", () => {
  const confirmed = { type: "response", command: "new_session", success: true, id: "c7:12", data: { cancelled: false } };

  it("is applied after this page's confirmed new session", () => {
    expect(thinkingLevelToApply(confirmed, "c7", "high")).toBe("high");
    expect(thinkingLevelToApply({ ...confirmed, data: undefined }, "c7", "low")).toBe("low");
  });

  it("is not applied without a setting, for another page's session, a cancelled or failed one, or another answer", () => {
    expect(thinkingLevelToApply(confirmed, "c7", null)).toBeNull();
    expect(thinkingLevelToApply(confirmed, "c70", "high")).toBeNull();
    expect(thinkingLevelToApply(confirmed, null, "high")).toBeNull();
    expect(thinkingLevelToApply({ ...confirmed, data: { cancelled: true } }, "c7", "high")).toBeNull();
    expect(thinkingLevelToApply({ ...confirmed, success: false }, "c7", "high")).toBeNull();
    expect(thinkingLevelToApply({ ...confirmed, command: "fork" }, "c7", "high")).toBeNull();
    expect(thinkingLevelToApply({ type: "agent_start" }, "c7", "high")).toBeNull();
    expect(thinkingLevelToApply("noise", "c7", "high")).toBeNull();
  });
});
