// Ids for commands written in the inspector's composer, and giving an old
// command a fresh id before it is sent again.
//
// The connection's own commands carry `${clientId}:${n}` (relay-connection);
// composer ids are `inspector-<tag>-<n>`: no colon, so they never equal one
// of those, and a random tag per page load, so two browsers composing at
// once do not reuse each other's ids (pi echoes ids to every browser).
//
// An extension_ui_response keeps its id: there the id names the dialog
// being answered, not the record.

export const INSPECTOR_ID_PREFIX = "inspector-";

export interface IdSource {
  readonly tag: string;
  next(): string;
}

export function createIdSource(tag: string = randomTag()): IdSource {
  let n = 0;
  return {
    tag,
    next: () => `${INSPECTOR_ID_PREFIX}${tag}-${++n}`,
  };
}

/** Four base-36 characters. */
export function randomTag(): string {
  const bytes = new Uint8Array(4);
  globalThis.crypto.getRandomValues(bytes);
  return [...bytes].map((b) => (b % 36).toString(36)).join("");
}

/** One source per page, shared by every composer (a remounted composer keeps counting). */
export const inspectorIds: IdSource = createIdSource();

/** Whether an id looks like one the composer made. */
export function isInspectorId(id: string): boolean {
  return id.startsWith(INSPECTOR_ID_PREFIX) && !id.includes(":");
}

type JsonObject = Record<string, unknown>;

function parseObject(text: string): JsonObject | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
  } catch {
    return null;
  }
}

/** The object with `id` set to `id`, placed right after `type` (or first) when it was not there. */
export function withId(command: JsonObject, id: string): JsonObject {
  if (Object.hasOwn(command, "id")) return { ...command, id };
  const out: JsonObject = {};
  if (!Object.hasOwn(command, "type")) out["id"] = id;
  for (const [key, value] of Object.entries(command)) {
    out[key] = value;
    if (key === "type") out["id"] = id;
  }
  return out;
}

/** Whether a command's id should be replaced before sending it again. */
export function takesFreshId(command: JsonObject): boolean {
  return command["type"] !== "extension_ui_response";
}

/**
 * An earlier command (or any record) made ready to edit and send again:
 * pretty-printed, and with a fresh id unless it is an extension_ui_response.
 * Text that is not a JSON object comes back as it was.
 */
export function prepareForResend(text: string, freshId: () => string): { text: string; id: string | null } {
  const command = parseObject(text);
  if (command === null) return { text, id: null };
  if (!takesFreshId(command)) return { text: JSON.stringify(command, null, 2), id: null };
  const id = freshId();
  return { text: JSON.stringify(withId(command, id), null, 2), id };
}

/** Where the top-level `"id"` value is in a JSON text: [start, end) offsets, or null. */
export function findTopLevelId(text: string): { start: number; end: number; value: unknown } | null {
  let i = 0;
  const n = text.length;
  const skipSpace = () => {
    while (i < n && (text[i] === " " || text[i] === "\n" || text[i] === "\r" || text[i] === "\t")) i++;
  };
  const skipString = (): boolean => {
    // at a quote
    i++;
    while (i < n) {
      const c = text[i];
      if (c === "\\") i += 2;
      else if (c === '"') {
        i++;
        return true;
      } else i++;
    }
    return false;
  };
  /** Skip one JSON value of any kind; false when the text ends first. */
  const skipValue = (): boolean => {
    skipSpace();
    if (i >= n) return false;
    const c = text[i];
    if (c === '"') return skipString();
    if (c === "{" || c === "[") {
      let depth = 0;
      while (i < n) {
        const d = text[i];
        if (d === '"') {
          if (!skipString()) return false;
          continue;
        }
        if (d === "{" || d === "[") depth++;
        else if (d === "}" || d === "]") {
          depth--;
          if (depth === 0) {
            i++;
            return true;
          }
        }
        i++;
      }
      return false;
    }
    while (i < n && !/[\s,}\]]/.test(text[i]!)) i++;
    return true;
  };

  skipSpace();
  if (text[i] !== "{") return null;
  i++;
  for (;;) {
    skipSpace();
    if (i >= n || text[i] === "}") return null;
    if (text[i] !== '"') return null;
    const keyStart = i;
    if (!skipString()) return null;
    let key: unknown;
    try {
      key = JSON.parse(text.slice(keyStart, i));
    } catch {
      return null;
    }
    skipSpace();
    if (text[i] !== ":") return null;
    i++;
    skipSpace();
    const valueStart = i;
    if (!skipValue()) return null;
    if (key === "id") {
      let value: unknown;
      try {
        value = JSON.parse(text.slice(valueStart, i));
      } catch {
        value = undefined;
      }
      return { start: valueStart, end: i, value };
    }
    skipSpace();
    if (text[i] === ",") i++;
    else return null;
  }
}

/**
 * Replace the top-level id's value in place (keeping the rest of the text
 * exactly as written), or add one after `type` when the text is a JSON
 * object without it. Null when the text is not a JSON object.
 */
export function replaceTopLevelId(text: string, id: string): string | null {
  const command = parseObject(text);
  if (command === null) return null;
  const at = findTopLevelId(text);
  if (at !== null) return text.slice(0, at.start) + JSON.stringify(id) + text.slice(at.end);
  return JSON.stringify(withId(command, id), null, 2);
}
