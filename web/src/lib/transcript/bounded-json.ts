// Data pretty-printed as JSON, up to a size: an extension's custom entry can
// hold anything, and JSON.stringify of a huge object (or a cycle, which
// cannot come from pi's JSON but can from a test) would freeze the page or
// throw. This walk stops writing once it has `max` characters, so its cost
// is bounded by `max` and the depth, not by the data.

export interface BoundedJson {
  text: string;
  /** The data did not fit: `text` is its beginning. */
  cut: boolean;
}

/** Deeper than this is shown as "…" (pi's JSON is never this deep in practice). */
const MAX_DEPTH = 40;

class Full extends Error {}

/** `value` as 2-space-indented JSON, at most about `max` characters. */
export function boundedJson(value: unknown, max = 20_000): BoundedJson {
  let out = "";
  const write = (text: string) => {
    out += text;
    if (out.length > max) throw new Full();
  };
  const walk = (v: unknown, indent: string, depth: number, seen: Set<object>): void => {
    if (v === null || typeof v === "boolean") return write(String(v));
    if (typeof v === "number") return write(Number.isFinite(v) ? String(v) : "null");
    if (typeof v === "string") return write(JSON.stringify(v.length > max ? v.slice(0, max + 1) : v));
    if (typeof v !== "object") return write("null"); // undefined, functions, bigint: not JSON
    if (depth >= MAX_DEPTH || seen.has(v)) return write('"…"');
    seen.add(v);
    const inner = `${indent}  `;
    if (Array.isArray(v)) {
      if (v.length === 0) write("[]");
      else {
        write("[");
        v.forEach((item, i) => {
          write(`${i === 0 ? "" : ","}\n${inner}`);
          walk(item, inner, depth + 1, seen);
        });
        write(`\n${indent}]`);
      }
    } else {
      let first = true;
      write("{");
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        const item = (v as Record<string, unknown>)[key];
        if (item === undefined || typeof item === "function") continue;
        write(`${first ? "" : ","}\n${inner}${JSON.stringify(key)}: `);
        first = false;
        walk(item, inner, depth + 1, seen);
      }
      write(first ? "}" : `\n${indent}}`);
    }
    seen.delete(v);
  };
  try {
    if (value === undefined) return { text: "(no data)", cut: false };
    walk(value, "", 0, new Set());
    return { text: out, cut: false };
  } catch (error) {
    if (!(error instanceof Full)) throw error;
    return { text: out.slice(0, max), cut: true };
  }
}
