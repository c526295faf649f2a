// The page's own settings, kept per browser (localStorage): the colour theme,
// the thinking level new sessions start with, and desktop notifications.
// Parsing is strict about values and forgiving about the whole: a stored
// value this version does not know falls back to its default, alone.
import { THINKING_LEVELS, type ThinkingLevel } from "@pier/protocol";

export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

export interface PageSettings {
  /** "system" follows the OS (prefers-color-scheme). */
  theme: Theme;
  /** Sent as set_thinking_level when a new session starts from this page; null leaves pi's own default. */
  newSessionThinking: ThinkingLevel | null;
  /** Whether this browser may show desktop notifications (the browser's permission is asked separately). */
  desktopNotifications: boolean;
}

export const SETTINGS_KEY = "pier.settings";

export const DEFAULT_SETTINGS: PageSettings = { theme: "system", newSessionThinking: null, desktopNotifications: false };

export function parseSettings(raw: string | null): PageSettings {
  if (raw === null) return { ...DEFAULT_SETTINGS };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
  const stored = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  return {
    theme: (THEMES as readonly unknown[]).includes(stored["theme"]) ? (stored["theme"] as Theme) : DEFAULT_SETTINGS.theme,
    newSessionThinking: (THINKING_LEVELS as readonly unknown[]).includes(stored["newSessionThinking"]) ? (stored["newSessionThinking"] as ThinkingLevel) : null,
    desktopNotifications: stored["desktopNotifications"] === true,
  };
}

export function serializeSettings(settings: PageSettings): string {
  return JSON.stringify(settings);
}

/** The scheme a theme shows, given whether the OS prefers dark. */
export function resolveScheme(theme: Theme, osPrefersDark: boolean): "light" | "dark" {
  return theme === "system" ? (osPrefersDark ? "dark" : "light") : theme;
}
