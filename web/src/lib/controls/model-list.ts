// Pure helpers for the model picker and thinking-level selector.

import { THINKING_LEVELS, type Model, type ThinkingLevel } from "@pier/protocol";

/** "provider/id": a model's identity (ids are unique only within a provider). */
export function modelKey(model: Pick<Model, "provider" | "id"> | null | undefined): string | null {
  return model ? `${model.provider}/${model.id}` : null;
}

/** Models whose name, id or provider contains every word of `query` (case-insensitive), in pi's order. */
export function filterModels<M extends Pick<Model, "provider" | "id" | "name">>(models: readonly M[], query: string): M[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...models];
  return models.filter((m) => {
    const hay = `${m.name} ${m.id} ${m.provider}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

/** Group models by provider, keeping the first-seen order of providers and models. */
export function groupByProvider<M extends Pick<Model, "provider">>(models: readonly M[]): { provider: string; models: M[] }[] {
  const groups = new Map<string, M[]>();
  for (const m of models) {
    const list = groups.get(m.provider);
    if (list) list.push(m);
    else groups.set(m.provider, [m]);
  }
  return [...groups].map(([provider, list]) => ({ provider, models: list }));
}

/** Only the known thinking levels pi offered, in pi's order, without duplicates. */
export function offeredLevels(levels: readonly unknown[] | null | undefined): ThinkingLevel[] {
  if (!Array.isArray(levels)) return [];
  const known = new Set<string>(THINKING_LEVELS);
  const seen = new Set<string>();
  const out: ThinkingLevel[] = [];
  for (const level of levels) {
    if (typeof level === "string" && known.has(level) && !seen.has(level)) {
      seen.add(level);
      out.push(level as ThinkingLevel);
    }
  }
  return out;
}

/** Human label of a thinking level. */
export function thinkingLabel(level: ThinkingLevel): string {
  return level === "xhigh" ? "extra high" : level;
}

/** The key that switches to the next model (cycle_model), as shown in tooltips. */
export const CYCLE_MODEL_SHORTCUT = "Alt+M";
/** The key that switches to the model's next thinking level (cycle_thinking_level). */
export const CYCLE_THINKING_SHORTCUT = "Alt+T";

type ShortcutKey = Pick<KeyboardEvent, "altKey" | "ctrlKey" | "metaKey" | "shiftKey" | "code" | "repeat">;

/**
 * Whether a keydown is Alt+M. Matches the physical key (`code`), since on
 * macOS Option+M types "µ"; browsers bind neither Alt+M nor Option+M.
 */
export function isCycleModelShortcut(event: ShortcutKey): boolean {
  return isAltKey(event, "KeyM");
}

/** Whether a keydown is Alt+T (by physical key, as above). */
export function isCycleThinkingShortcut(event: ShortcutKey): boolean {
  return isAltKey(event, "KeyT");
}

function isAltKey(event: ShortcutKey, code: string): boolean {
  return event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey && event.code === code && !event.repeat;
}
