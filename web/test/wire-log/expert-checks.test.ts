// Expert warnings: each check triggered by a crafted sequence, none on the
// captured real runs (pi 0.87.1 and 1.6.0), and the same checks on a replayed
// capture (CR LF seen in its bytes).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { replaySteps } from "../../src/lib/wire-log/capture-replay.ts";
import type { CaptureEvent, CaptureHeader } from "../../src/lib/wire-log/capture.ts";
import { checkEntry, createExpertChecks, endOfCapture, WARNING_DOCS, warningSeqs, warningsOf, type ExpertChecks, type WarningKind } from "../../src/lib/wire-log/expert-checks.ts";
import { createInspectorModels, feedChunk, feedEntry } from "../../src/lib/wire-log/inspector-feed.ts";
import { appendLog, createRecordLog } from "../../src/lib/pi-state/record-log.ts";
import type { WireEntry, WireSender } from "../../src/lib/wire-log/wire-entry.ts";
import { fixtureEntries, fixtureNames } from "./support.ts";

const SELF: WireSender = { clientId: "self", name: "this browser" };
const OTHER: WireSender = { clientId: "c2", name: "Ada" };
const T0 = 1_700_000_000_000;

type Item = [WireEntry["direction"], unknown, number?, WireSender?];

/** Feed [direction, value, at offset (ms, default 10 per step), sender] items; returns the entries (seq from 1). */
function feed(checks: ExpertChecks, items: Item[]): WireEntry[] {
  const entries: WireEntry[] = [];
  items.forEach(([direction, value, at, sender], i) => {
    const entry: WireEntry = { seq: i + 1, at: T0 + (at ?? i * 10), direction, raw: value === undefined ? "oops" : JSON.stringify(value), value };
    const who = sender ?? (direction === "out" ? SELF : undefined);
    if (who !== undefined) entry.sender = who;
    checkEntry(checks, entry);
    entries.push(entry);
  });
  return entries;
}

const hello = (version: string | null = "0.87.1", truncated = false) => ({
  type: "hello",
  clientId: "c1",
  ...(version === null ? {} : { pi: { version, source: "bundled", path: "/pi" } }),
  replay: { bytes: 0, truncated },
});
const live = (version?: string | null): Item[] => [
  ["relay", hello(version)],
  ["relay", { type: "replay_end" }],
];

/** kind per seq, for compact assertions. */
function kinds(checks: ExpertChecks): Record<number, WarningKind[]> {
  const out: Record<number, WarningKind[]> = {};
  for (const seq of warningSeqs(checks)) out[seq] = warningsOf(checks, seq)!.map((w) => w.kind);
  return out;
}

describe("expert checks on real runs", () => {
  it.each(fixtureNames())("flags nothing in %s", (name) => {
    const checks = createExpertChecks();
    const version = name.startsWith("pi-1.6.0/") ? "1.6.0" : "0.87.1";
    feed(checks, live(version));
    for (const entry of fixtureEntries(name, { firstSeq: 3, sender: SELF })) checkEntry(checks, entry);
    // The captures end right after their last answer: a later record finds nothing left waiting either.
    checkEntry(checks, { seq: 1_000_000, at: T0 + 3_600_000, direction: "relay", raw: "{}", value: { type: "keepalive" } });
    expect(kinds(checks)).toEqual({});
  });

  it("flags nothing when a replay repeats answers to other pages' commands and to commands of its own", () => {
    const checks = createExpertChecks();
    feed(checks, [
      ["out", { id: "c1:1", type: "get_state" }],
      ["relay", hello()],
      ["in", { id: "c0:7", type: "response", command: "prompt", success: true }],
      ["in", { id: "c0:7", type: "response", command: "prompt", success: true }],
      ["in", { id: "c1:1", type: "response", command: "get_state", success: true, data: {} }],
      ["relay", { type: "replay_end" }],
      ["in", { type: "agent_start" }, 60_000],
    ]);
    expect(kinds(checks)).toEqual({});
  });
});

describe("responses and commands", () => {
  it("flags a response whose id no command sent, unless it is another browser's or the relay board's", () => {
    const checks = createExpertChecks();
    feed(checks, [
      ...live(),
      ["in", { id: "c1:99", type: "response", command: "get_state", success: true, data: {} }],
      ["in", { id: "req-1", type: "response", command: "get_state", success: true, data: {} }],
      ["in", { id: "c2:5", type: "response", command: "prompt", success: true }],
      ["in", { id: "board-3", type: "response", command: "get_state", success: true, data: {} }],
    ]);
    expect(kinds(checks)).toEqual({ 3: ["unknown-response-id"], 4: ["unknown-response-id"] });
    expect(warningsOf(checks, 3)![0]!.text).toContain('"c1:99"');
    expect(warningsOf(checks, 3)![0]!.docs).toBe("rpc.md#correlate-commands-and-responses");
  });

  it("knows another browser's command by its id", () => {
    const checks = createExpertChecks();
    feed(checks, [...live(), ["out", { id: "c1:4", type: "prompt", message: "hi" }, 10, OTHER], ["in", { id: "c1:4", type: "response", command: "prompt", success: true }]]);
    expect(kinds(checks)).toEqual({});
  });

  it("flags a second response to one id", () => {
    const checks = createExpertChecks();
    feed(checks, [
      ...live(),
      ["out", { id: "c1:1", type: "get_state" }],
      ["in", { id: "c1:1", type: "response", command: "get_state", success: true, data: {} }],
      ["in", { id: "c1:1", type: "response", command: "get_state", success: true, data: {} }],
    ]);
    expect(kinds(checks)).toEqual({ 5: ["duplicate-response"] });
  });

  it("flags a command never answered once its bound has passed, not at once", () => {
    const checks = createExpertChecks({ quickMs: 30_000, slowMs: 600_000 });
    feed(checks, [...live(), ["out", { id: "c1:1", type: "get_state" }, 100], ["out", { id: "c1:2", type: "prompt", message: "hi" }, 100], ["relay", { type: "keepalive" }, 30_000]]);
    expect(kinds(checks)).toEqual({});
    feed(
      checks,
      [["relay", { type: "keepalive" }, 30_200]].map(([d, v, at]) => [d, v, at] as Item),
    );
    expect(kinds(checks)).toEqual({ 3: ["unanswered-command"] });
    expect(warningsOf(checks, 3)![0]!.text).toContain("get_state");
  });

  it("does not await another browser's command (its reads are answered to it alone), nor one the relay refused", () => {
    const checks = createExpertChecks({ quickMs: 1000 });
    feed(checks, [
      ...live(),
      ["out", { id: "c2:1", type: "get_state" }, 10, OTHER],
      ["out", { id: "c1:2", type: "get_state" }, 20],
      ["relay", { type: "error", code: "rate_limited", message: "slow down", command: { id: "c1:2", type: "get_state" } }, 30],
      ["relay", { type: "keepalive" }, 5000],
    ]);
    expect(kinds(checks)).toEqual({});
  });
});

describe("framing", () => {
  it("flags a line that is not JSON, and JSON that is not a record", () => {
    const checks = createExpertChecks();
    feed(checks, [...live(), ["in", undefined], ["in", [1, 2]]]);
    expect(kinds(checks)).toEqual({ 3: ["not-json"], 4: ["unknown-record-type"] });
  });

  it("flags a CR before LF, seen in the bytes of a replayed capture", () => {
    const header: CaptureHeader = { type: "pier-capture", version: 1, startedAt: new Date(T0).toISOString(), pier: "0.1.0", redacted: [] } as CaptureHeader;
    const bytes = (text: string) => new TextEncoder().encode(text);
    const events: CaptureEvent[] = [
      { kind: "frame", t: 0, text: JSON.stringify(hello()) },
      { kind: "frame", t: 1, text: JSON.stringify({ type: "replay_end" }) },
      { kind: "bytes", t: 2, bytes: bytes('{"type":"agent_start"}\r') },
      { kind: "bytes", t: 3, bytes: bytes('\n{"type":"turn_start"}\n{"type":"agent_settled"}\nnot json\n') },
    ] as CaptureEvent[];
    const log = createRecordLog(100);
    const models = createInspectorModels(log);
    for (const step of replaySteps(header, events)) {
      if (step.kind === "chunk") feedChunk(models, step.chunk.bytes, step.chunk.at);
      else {
        const entry = appendLog(log, step.entry.direction, step.entry.raw, step.entry.value, step.entry.at);
        feedEntry(models, entry, step.entry.value, null);
      }
    }
    expect(kinds(models.checks)).toEqual({ 3: ["crlf"], 6: ["not-json"] });
    expect(warningsOf(models.checks, 3)![0]!.docs).toBe("rpc.md#framing");
  });
});

describe("runs", () => {
  it("flags an event outside a run, and an agent_settled with no run", () => {
    const checks = createExpertChecks();
    feed(checks, [
      ...live(),
      ["in", { type: "message_update", usage: {}, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "x" } }],
      ["in", { type: "agent_start" }],
      ["in", { type: "message_update", usage: {}, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "x" } }],
      ["in", { type: "agent_settled" }],
      ["in", { type: "agent_settled" }],
      ["in", { type: "queue_update", steering: [], followUp: [] }],
    ]);
    expect(kinds(checks)).toEqual({ 3: ["event-outside-run"], 7: ["event-outside-run"] });
  });

  it("does not judge events before it knows where the stream started (a cut replay)", () => {
    const checks = createExpertChecks();
    feed(checks, [
      ["relay", hello("0.87.1", true)],
      ["in", { type: "message_update", usage: {}, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "x" } }],
      ["in", { type: "agent_settled" }],
      ["relay", { type: "replay_end" }],
    ]);
    expect(kinds(checks)).toEqual({});
  });

  it("flags a run that never reached agent_settled (pi exited during it), on the run's start", () => {
    const checks = createExpertChecks();
    feed(checks, [...live(), ["in", { type: "agent_start" }], ["in", { type: "agent_end", messages: [], willRetry: false }], ["relay", { type: "child_exited", child: {} }]]);
    expect(kinds(checks)).toEqual({ 3: ["run-not-settled"] });
  });
});

describe("extension dialogs", () => {
  const confirm = (id: string, timeout?: number) => ({ type: "extension_ui_request", id, method: "confirm", title: "Sure?", message: "Really?", ...(timeout ? { timeout } : {}) });

  it("flags a dialog whose timeout passed unanswered, and one its run settled without", () => {
    const checks = createExpertChecks();
    feed(checks, [
      ...live(),
      ["in", confirm("d1", 1000), 10],
      ["in", { type: "agent_start" }, 20],
      ["in", confirm("d2"), 30],
      ["in", confirm("d3"), 40],
      ["out", { type: "extension_ui_response", id: "d3", confirmed: true }, 50],
      ["in", { type: "queue_update", steering: [], followUp: [] }, 2000],
      ["in", { type: "agent_settled" }, 2010],
    ]);
    expect(kinds(checks)).toEqual({ 3: ["dialog-unanswered"], 5: ["dialog-unanswered"] });
  });

  it("flags a dialog answered twice", () => {
    const checks = createExpertChecks();
    feed(checks, [
      ...live(),
      ["in", confirm("d1")],
      ["out", { type: "extension_ui_response", id: "d1", confirmed: true }],
      ["out", { type: "extension_ui_response", id: "d1", confirmed: false }, 30, OTHER],
    ]);
    expect(kinds(checks)).toEqual({ 5: ["dialog-answered-twice"] });
  });

  it("does not count an answer the relay refused (another browser answered first) as a second one, in either order", () => {
    const refused = (id: string) => ["relay", { type: "error", code: "already_answered", message: "Ada answered this dialog first", command: { type: "extension_ui_response", id } }] as Item;
    // Ours went out after Ada's was passed on (her command_sent came first).
    const after = createExpertChecks();
    feed(after, [
      ...live(),
      ["in", confirm("d1")],
      ["out", { type: "extension_ui_response", id: "d1", confirmed: false }, 20, OTHER],
      ["out", { type: "extension_ui_response", id: "d1", confirmed: true }, 30],
      refused("d1"),
    ]);
    expect(kinds(after)).toEqual({});
    // Ours went out first on this page, yet reached the relay second: Ada's command_sent comes after it, then our refusal.
    const before = createExpertChecks();
    const countBefore = before.count;
    feed(before, [
      ...live(),
      ["in", confirm("d1")],
      ["out", { type: "extension_ui_response", id: "d1", confirmed: true }, 20],
      ["out", { type: "extension_ui_response", id: "d1", confirmed: false }, 30, OTHER],
      refused("d1"),
    ]);
    expect(kinds(before)).toEqual({});
    // The views were told to look again when the warning went.
    expect(before.count).toBeGreaterThan(countBefore + 1);
    // A refusal of something else takes back nothing.
    const other = createExpertChecks();
    feed(other, [
      ...live(),
      ["in", confirm("d1")],
      ["out", { type: "extension_ui_response", id: "d1", confirmed: true }],
      ["out", { type: "extension_ui_response", id: "d1", confirmed: false }, 30, OTHER],
      ["relay", { type: "error", code: "rate_limited", message: "slow down", command: { type: "get_state", id: "d1" } }],
    ]);
    expect(kinds(other)).toEqual({ 5: ["dialog-answered-twice"] });
  });

  it("awaits a dialog the hello says still waits, though it came in the relay's replay", () => {
    const checks = createExpertChecks();
    feed(checks, [
      ["relay", { ...hello(), dialogs: { waiting: [{ id: "d2", since: T0 }], answered: [{ id: "d1", by: "Ada", at: T0 }] } }],
      ["in", { type: "agent_start" }],
      ["in", confirm("d1")],
      ["in", confirm("d2")],
      ["relay", { type: "replay_end" }],
      ["in", { type: "agent_settled" }],
    ]);
    expect(kinds(checks)).toEqual({ 4: ["dialog-unanswered"] });
  });
});

describe("taps and replayed captures", () => {
  const TAP_CLIENT: WireSender = { clientId: "tap", name: "RPC client (tap)" };
  const confirm = (id: string) => ({ type: "extension_ui_request", id, method: "confirm", title: "Sure?", message: "Really?" });

  it("under a tap awaits the client's commands (their answers come on this stream)", () => {
    const checks = createExpertChecks({ quickMs: 1000 });
    feed(checks, [
      ["relay", { ...hello(), tap: { client: "RPC client (tap)" } }],
      ["relay", { type: "replay_end" }],
      ["out", { id: "req-1", type: "get_state" }, 10, TAP_CLIENT],
      ["out", { id: "req-2", type: "get_state" }, 20, TAP_CLIENT],
      ["in", { id: "req-1", type: "response", command: "get_state", success: true, data: {} }, 30],
      ["relay", { type: "keepalive" }, 5000],
    ]);
    expect(kinds(checks)).toEqual({ 4: ["unanswered-command"] });
  });

  it("at the end of a replayed capture flags what is still awaited, commands and dialogs, once", () => {
    const checks = createExpertChecks();
    feed(checks, [
      ...live(),
      ["out", { id: "c1:1", type: "get_state" }, 10],
      ["out", { id: "c1:2", type: "get_messages" }, 20],
      ["in", { id: "c1:1", type: "response", command: "get_state", success: true, data: {} }, 30],
      ["in", { type: "agent_start" }, 40],
      ["in", confirm("d1"), 50],
    ]);
    // Before the end nothing is judged: the bounds have not passed.
    expect(kinds(checks)).toEqual({});
    endOfCapture(checks, T0 + 2050);
    expect(kinds(checks)).toEqual({ 4: ["unanswered-command"], 7: ["dialog-unanswered"] });
    expect(warningsOf(checks, 4)![0]!.text).toContain("The capture ends 2 s after this get_messages");
    expect(warningsOf(checks, 7)![0]!.text).toContain("the capture ends without one");
    endOfCapture(checks, T0 + 3000);
    expect(kinds(checks)).toEqual({ 4: ["unanswered-command"], 7: ["dialog-unanswered"] });
  });
});

describe("what the running pi defines", () => {
  it("flags a record type and a field no pi version defines", () => {
    const checks = createExpertChecks();
    feed(checks, [...live(), ["in", { type: "agent_dreaming" }], ["in", { type: "agent_start", mood: "good" }], ["in", { id: "x", type: "response", command: "get_mood", success: true }]]);
    expect(kinds(checks)).toEqual({ 3: ["unknown-record-type"], 4: ["unknown-field"], 5: ["unknown-field", "unknown-response-id"] });
    expect(warningsOf(checks, 4)![0]!.text).toBe('pi 0.87.1 does not define a "mood" field on agent_start. A client ignores fields it does not know.');
  });

  it("flags a field newer than the running pi, by the version the hello names", () => {
    const settled = { type: "agent_settled", aborted: false };
    const run: Item[] = [
      ["in", { type: "agent_start" }],
      ["in", settled],
    ];
    const old = createExpertChecks();
    feed(old, [...live("0.87.1"), ...run]);
    expect(kinds(old)).toEqual({ 4: ["unknown-field"] });
    expect(warningsOf(old, 4)![0]!.text).toContain("pi 1.1.0 and later");
    for (const version of ["1.6.0", null]) {
      const checks = createExpertChecks();
      feed(checks, [...live(version), ...run]);
      expect(kinds(checks)).toEqual({});
    }
  });
});

describe("bounds", () => {
  it("keeps at most maxWarnings records with warnings, and at most maxPending awaited commands", () => {
    const checks = createExpertChecks({ maxWarnings: 10, maxPending: 5, quickMs: 1000 });
    const items: Item[] = [...live()];
    for (let i = 0; i < 50; i++) items.push(["in", undefined]);
    for (let i = 0; i < 20; i++) items.push(["out", { id: `c1:${i}`, type: "get_state" }, 1000]);
    items.push(["relay", { type: "keepalive" }, 10_000]);
    feed(checks, items);
    expect(checks.warnings.size).toBe(10);
    expect(checks.quick.byId.size).toBe(0);
    // Only the newest five were still awaited when their bound passed.
    expect(warningSeqs(checks).filter((seq) => warningsOf(checks, seq)![0]!.kind === "unanswered-command")).toHaveLength(5);
  });
});

describe("links to pi's docs", () => {
  const RELAY_MODULES = join(import.meta.dirname, "..", "..", "..", "relay", "node_modules");
  /** GitHub's heading slugs of a page of pi's docs. */
  const slugs = (docs: string, page: string) =>
    new Set(
      [...readFileSync(join(docs, page), "utf8").matchAll(/^#+\s+(.+)$/gm)].map((m) =>
        m[1]!
          .trim()
          .toLowerCase()
          .replace(/[^\w\- ]/g, "")
          .replace(/ /g, "-"),
      ),
    );

  it.each([
    ["0.87.1", join(RELAY_MODULES, "pi-coding-agent-0.87", "docs")],
    ["1.6.0", join(RELAY_MODULES, "@earendil-works", "pi-coding-agent", "docs")],
  ])("names only pages and sections that pi %s's docs have", (_version, docs) => {
    for (const link of Object.values(WARNING_DOCS)) {
      const [page, anchor] = link.split("#") as [string, string | undefined];
      const headings = slugs(docs, page);
      if (anchor !== undefined) expect(headings.has(anchor), link).toBe(true);
    }
  });
});
