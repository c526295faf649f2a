// The page settings as a rune store, saved to localStorage on every change,
// and what they do that is not a component's: the colour scheme on <html>
// (data-scheme, which app.css and the code colours read) and the thinking
// level a new session from this page starts with.
import { connections } from "../app-context.svelte.ts";
import { PerSession } from "../session-scope.svelte.ts";
import { setScheme } from "./color-scheme.ts";
import { thinkingLevelToApply } from "./new-session-thinking.ts";
import { parseSettings, resolveScheme, serializeSettings, SETTINGS_KEY, type PageSettings } from "./page-settings.ts";

function load(): PageSettings {
  try {
    return parseSettings(localStorage.getItem(SETTINGS_KEY));
  } catch {
    // Storage blocked (a privacy setting): the defaults, for this visit.
    return parseSettings(null);
  }
}

export const settings: PageSettings = $state(load());

export function saveSettings(): void {
  try {
    localStorage.setItem(SETTINGS_KEY, serializeSettings(settings));
  } catch {
    // Not remembered, but applied for this visit.
  }
}

const DARK_QUERY = "(prefers-color-scheme: dark)";

function applyScheme(): void {
  setScheme(resolveScheme(settings.theme, matchMedia(DARK_QUERY).matches));
}

let started = false;

/**
 * Applies the settings for the life of the page: call once, before the first
 * paint (main.ts), so a dark page does not flash light.
 */
export function startSettings(): void {
  if (started) return;
  started = true;
  applyScheme();
  matchMedia(DARK_QUERY).addEventListener("change", applyScheme);
  $effect.root(() => {
    $effect(() => {
      void settings.theme;
      applyScheme();
    });
  });
  // In every live session the page holds: a new pi session there gets the thinking level chosen for new sessions.
  new PerSession((base) => {
    const connection = connections.of(base);
    return connection.onRecord((event) => {
      if (event.kind !== "record" || event.replaying) return;
      const level = thinkingLevelToApply(event.record, connection.clientId, settings.newSessionThinking);
      if (level !== null) connection.send({ type: "set_thinking_level", level });
    });
  });
}
