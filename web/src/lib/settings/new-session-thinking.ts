// The thinking level a new session starts with (a setting): once pi confirms
// a new session this page asked for, the page sends set_thinking_level. Only
// the page that asked applies its own setting, so two drivers with different
// defaults do not undo each other, and a replay applies nothing.

/** The level to send after `record`, or null: not a confirmed new session of this page's, or no default set. */
export function thinkingLevelToApply<L extends string>(record: unknown, clientId: string | null, level: L | null): L | null {
  if (level === null || clientId === null || typeof record !== "object" || record === null) return null;
  const r = record as { type?: unknown; command?: unknown; success?: unknown; id?: unknown; data?: { cancelled?: unknown } | null };
  if (r.type !== "response" || r.command !== "new_session" || r.success !== true) return null;
  // An extension kept the current session: nothing new started.
  if (r.data?.cancelled === true) return null;
  // Command ids are "<clientId>:<n>" (relay-connection): another page's new session is its own business.
  if (typeof r.id !== "string" || !r.id.startsWith(`${clientId}:`)) return null;
  return level;
}
