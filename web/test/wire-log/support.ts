// Captured pi transcripts as inspector input: each stdout line becomes an
// "in" entry, and every response with an id gets the command that asked for
// it as an "out" entry just before it (the fixtures hold pi's stdout only).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { WireEntry, WireSender } from "../../src/lib/wire-log/wire-entry.ts";

export const FIXTURES = join(import.meta.dirname, "..", "fixtures");
export const FIXTURES_16 = join(FIXTURES, "pi-1.6.0");

/** Every captured transcript: 0.87.1 ones by name, 1.6.0 ones as "pi-1.6.0/<name>". */
export function fixtureNames(): string[] {
  const top = readdirSync(FIXTURES).filter((f) => f.endsWith(".jsonl"));
  const newer = readdirSync(FIXTURES_16)
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => `pi-1.6.0/${f}`);
  return [...top, ...newer].map((f) => f.replace(/\.jsonl$/, ""));
}

export function fixtureText(name: string): string {
  return readFileSync(join(FIXTURES, `${name}.jsonl`), "utf8");
}

export function fixtureLines(name: string): string[] {
  return fixtureText(name)
    .split("\n")
    .filter((line) => line.length > 0);
}

export const ME: WireSender = { clientId: "c1", name: "this browser" };

export interface EntryOptions {
  firstSeq?: number;
  startAt?: number;
  /** ms between entries. */
  step?: number;
  /** Add the commands (default true). */
  commands?: boolean;
  sender?: WireSender;
}

/** A fixture as wire entries, in order, with synthetic commands. */
export function fixtureEntries(name: string, options: EntryOptions = {}): WireEntry[] {
  let seq = (options.firstSeq ?? 1) - 1;
  let at = options.startAt ?? 1_700_000_000_000;
  const step = options.step ?? 10;
  const entries: WireEntry[] = [];
  for (const raw of fixtureLines(name)) {
    const value = JSON.parse(raw) as Record<string, unknown>;
    if ((options.commands ?? true) && value["type"] === "response" && typeof value["id"] === "string") {
      const command = { id: value["id"], type: value["command"] };
      at += step;
      entries.push({ seq: ++seq, at, direction: "out", raw: JSON.stringify(command), value: command, sender: options.sender ?? ME });
    }
    at += step;
    entries.push({ seq: ++seq, at, direction: "in", raw, value });
  }
  return entries;
}

let nextSeq = 10_000;
/** One entry, for hand-written sequences. */
export function entry(direction: WireEntry["direction"], value: unknown, at = 1_700_000_000_000, sender?: WireSender): WireEntry {
  const raw = value === undefined ? "not json" : JSON.stringify(value);
  const e: WireEntry = { seq: ++nextSeq, at, direction, raw, value };
  if (sender !== undefined) e.sender = sender;
  return e;
}

/** Entries with increasing seqs and times from a list of [direction, value] pairs. */
export function sequence(items: [WireEntry["direction"], unknown, WireSender?][], startAt = 1_700_000_000_000, step = 10): WireEntry[] {
  return items.map(([direction, value, sender], i) => entry(direction, value, startAt + i * step, sender));
}

/** A small deterministic PRNG (mulberry32) for chunking and property tests. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Split bytes into chunks of random sizes (1 … maxChunk). */
export function chunked(bytes: Uint8Array, rand: () => number, maxChunk = 97): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length;) {
    const size = 1 + Math.floor(rand() * maxChunk);
    out.push(bytes.slice(i, i + size));
    i += size;
  }
  return out;
}
