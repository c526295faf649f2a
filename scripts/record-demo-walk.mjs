// Records the demo tour as a guided walk: web/public/walks/demo-tour.jsonl.
//
//   node scripts/record-demo-walk.mjs        (after `pnpm build`: it plays the built page)
//
// The real thing, end to end: `pier --demo` (the real relay, real pi, Pier's
// scripted demo model), and real Chromium driving the page the way a person
// does: open the inspector, "Record the wire", "Start the tour", wait for
// the run to settle, "Stop recording". The downloaded capture then gets its
// notes, pinned where the records they explain are found (by record type,
// not by number), so running this again after pi changes keeps the walk
// true. Machine paths (this checkout, the home folder, the demo's scratch
// folders) are replaced before anything is written; the script fails if one
// is left.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync } from "node:fs";
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readCapture } from "../web/src/lib/wire-log/capture.ts";
import { captureWithNotes, recordEnds } from "../web/src/lib/wire-log/capture-notes.ts";
import { decodeBase64, encodeBase64 } from "../web/src/lib/wire-log/base64.ts";
import { JsonlDecoder } from "../shared-protocol/src/jsonl-decoder.ts";

const ROOT = realpathSync(fileURLToPath(new URL("..", import.meta.url)));
const OUT = join(ROOT, "web/public/walks/demo-tour.jsonl");
const CHROMIUM = process.env["PIER_CHROMIUM"] ?? "/usr/bin/chromium";

if (!existsSync(join(ROOT, "web/dist/index.html"))) {
  console.error("record-demo-walk: the web app is not built: run `pnpm build` first.");
  process.exit(1);
}

const { chromium } = createRequire(join(ROOT, "e2e/package.json"))("@playwright/test");

// ── 1. Record the tour ─────────────────────────────────────────────────────

/** The tour, recorded by the page: the capture's text. */
async function recordTour() {
  const pier = spawn(process.execPath, [join(ROOT, "relay/bin/pier.js"), "--demo", "--port", "0"], {
    cwd: ROOT,
    env: { ...process.env, XDG_STATE_HOME: mkdtempSync(join(tmpdir(), "pier-walk-state-")) },
    stdio: ["pipe", "pipe", "inherit"],
    detached: true,
  });
  const stopPier = () => {
    try {
      process.kill(-pier.pid, "SIGTERM");
    } catch {
      // Gone already.
    }
  };
  process.on("exit", stopPier);

  const url = await new Promise((resolve, reject) => {
    let out = "";
    pier.stdout.on("data", (chunk) => {
      out += chunk;
      const found = /https?:\/\/\S+\?token=\S+/.exec(out);
      if (found) resolve(found[0]);
    });
    pier.once("exit", (code) => reject(new Error(`pier exited (${code}) before printing its link:\n${out}`)));
    setTimeout(() => reject(new Error(`pier printed no link in 30 s:\n${out}`)), 30_000);
  });

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    await page.goto(url);
    const connected = page.getByRole("status", { name: "Connection: Connected" });
    await connected.waitFor();
    await page.getByRole("button", { name: "Protocol inspector" }).click();
    const inspector = page.getByRole("complementary", { name: "Protocol inspector" });
    await inspector.getByRole("button", { name: "Record the wire" }).click();
    await inspector.getByRole("button", { name: "Stop recording" }).waitFor();
    await connected.waitFor();
    const start = page.getByRole("list", { name: "Ways to start" }).getByRole("button", { name: "Start the tour", exact: true });
    await start.waitFor();
    await page.waitForFunction(() => !document.querySelector('[aria-label="Ways to start"] button')?.hasAttribute("disabled"));
    await start.click();
    await page.getByRole("log", { name: "Conversation" }).getByText("That's the tour.").waitFor({ timeout: 60_000 });
    await page.getByRole("status", { name: "Agent: Idle" }).waitFor({ timeout: 30_000 });
    // The page asks for the state after agent_settled: let its answer in.
    await page.waitForTimeout(1000);
    const download = page.waitForEvent("download");
    await inspector.getByRole("button", { name: "Stop recording" }).click();
    return await readFile(await (await download).path(), "utf8");
  } finally {
    await browser.close();
    stopPier();
  }
}

// PIER_WALK_RAW=<file>: keep the capture as recorded (before redaction) there, or take it from there if it exists.
const rawFile = process.env["PIER_WALK_RAW"];
const captured = rawFile && existsSync(rawFile) ? await readFile(rawFile, "utf8") : await recordTour();
if (rawFile && !existsSync(rawFile)) await writeFile(rawFile, captured);

// ── 2. Redact machine paths ────────────────────────────────────────────────

/**
 * [pattern, replacement]. `latin1`: for pi's bytes seen one char per byte
 * (a path with non-ASCII letters is then its UTF-8 bytes).
 */
function replacements(latin1) {
  const literal = (text) => new RegExp(escapeRegExp(latin1 ? Buffer.from(text).toString("latin1") : text), "g");
  // mkdtemp's folders: the given prefix and six letters or digits.
  const temp = (prefix) => new RegExp(`${escapeRegExp(tmpdir())}/${prefix}[A-Za-z0-9]{6}`, "g");
  return [
    [temp("pier-demo-agent-"), "/tmp/pier-demo-agent"],
    [temp("pier-demo-project-"), "/tmp/pier-demo-project"],
    [temp("pier-walk-state-"), "/tmp/pier-state"],
    // The session folder pi names after the cwd: --tmp-pier-demo-project-AbC123-tiny-greeter--
    [/-pier-demo-project-[A-Za-z0-9]{6}-/g, "-pier-demo-project-"],
    [literal(ROOT), "/pier"],
    [literal(homedir()), "~"],
  ];
}
/** What must not be left anywhere in the walk. */
const LEFT = [ROOT, homedir(), /pier-(demo-project|demo-agent|walk-state)-[A-Za-z0-9]{6}/];

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function redactText(text, latin1 = false) {
  for (const [pattern, replacement] of replacements(latin1)) text = text.replace(pattern, replacement);
  return text;
}

/**
 * pi's bytes, redacted as one stream (a path may cross a chunk boundary) and
 * cut again where the chunks were; a boundary inside a replaced path moves
 * to its end. Every replaced text is ASCII-safe JSON string content.
 */
function redactCapture(text) {
  const lines = text.split("\n");
  const out = [redactText(lines[0])];
  const events = lines
    .slice(1)
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
  const chunks = events.filter((e) => e.k === "bytes").map((e) => Buffer.from(decodeBase64(e.b)));
  const stream = Buffer.concat(chunks).toString("latin1");
  // Boundaries as offsets in the stream, mapped through the replacements.
  const bounds = [];
  let offset = 0;
  for (const chunk of chunks) bounds.push((offset += chunk.length));
  let redacted = "";
  let last = 0;
  const edits = [];
  const all = new RegExp(
    replacements(true)
      .map(([p]) => `(?:${p.source})`)
      .join("|"),
    "g",
  );
  for (const match of stream.matchAll(all)) {
    const replaced = redactText(match[0], true);
    redacted += stream.slice(last, match.index) + replaced;
    edits.push({ start: match.index, end: match.index + match[0].length, replaced: replaced.length });
    last = match.index + match[0].length;
  }
  redacted += stream.slice(last);
  const map = (x) => {
    let shift = 0;
    for (const e of edits) {
      if (x <= e.start) break;
      if (x < e.end) return e.start + shift + e.replaced;
      shift += e.replaced - (e.end - e.start);
    }
    return x + shift;
  };
  let from = 0;
  let chunkIndex = 0;
  for (const event of events) {
    if (event.k === "bytes") {
      const to = map(bounds[chunkIndex++]);
      event.b = encodeBase64(Buffer.from(redacted.slice(from, to), "latin1"));
      from = to;
    } else if (event.k === "frame") {
      event.f = typeof event.f === "string" ? redactText(event.f) : JSON.parse(redactText(JSON.stringify(event.f)));
    } else if (event.k === "sent") {
      event.c = redactText(event.c);
    }
    out.push(JSON.stringify(event));
  }
  return `${out.join("\n")}\n`;
}

const redacted = redactCapture(captured);
{
  // Looked for in the text and in pi's bytes (base64 in the text).
  const lines = redacted
    .trimEnd()
    .split("\n")
    .slice(1)
    .map((l) => JSON.parse(l));
  const piBytes = Buffer.concat(lines.filter((e) => e.k === "bytes").map((e) => Buffer.from(e.b, "base64"))).toString("utf8");
  for (const left of LEFT) {
    const found = (text) => (typeof left === "string" ? text.includes(left) : left.test(text));
    if (found(redacted) || found(piBytes)) throw new Error(`record-demo-walk: ${left} is still in the capture`);
  }
}

// ── 3. Pin the notes ───────────────────────────────────────────────────────

const read = readCapture(redacted);
if (!read.ok) throw new Error(`record-demo-walk: the capture does not read back: ${read.error.message}`);
const { events } = read;
const ends = recordEnds(events);

/** Every record of the capture, numbered as the page numbers them, with the event that brought it. */
const records = [];
{
  let decoder = new JsonlDecoder();
  events.forEach((event, i) => {
    const add = (value) => records.push({ seq: records.length + 1, event: i + 1, value });
    if (event.kind === "bytes") for (const line of decoder.push(event.bytes)) add(line.kind === "record" ? line.value : undefined);
    else if (event.kind === "sent") add(safeParse(event.text));
    else {
      const frame = safeParse(event.text);
      add(frame);
      if (frame?.type === "hello" || frame?.type === "child_started") decoder = new JsonlDecoder();
      else if (frame?.type === "child_exited") for (const line of decoder.end()) add(line.kind === "record" ? line.value : undefined);
    }
  });
  if (records.length !== ends[ends.length - 1]) throw new Error(`record-demo-walk: ${records.length} records framed, the reader counts ${ends[ends.length - 1]}`);
}

function safeParse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The first record after `after` (a seq) that `test` accepts. */
function find(test, after = 0, what = "a record") {
  const found = records.find((r) => r.seq > after && r.value !== undefined && test(r.value));
  if (found === undefined) throw new Error(`record-demo-walk: no ${what} in the tour's capture (did pi or the tour change?)`);
  return found;
}

const hello = find((v) => v.type === "hello", 0, "hello frame");
const prompt = find((v) => v.type === "prompt" && v.message === "Show me around", 0, "prompt command");
const accepted = find((v) => v.type === "response" && v.id === prompt.value.id, prompt.seq, "prompt response");
const agentStart = find((v) => v.type === "agent_start", prompt.seq, "agent_start");
const thinking = find((v) => v.type === "message_update" && v.assistantMessageEvent?.type === "thinking_delta", agentStart.seq, "thinking_delta");
const textDelta = find((v) => v.type === "message_update" && v.assistantMessageEvent?.type === "text_delta", thinking.seq, "text_delta");
const toolcallStart = find((v) => v.type === "message_update" && v.assistantMessageEvent?.type === "toolcall_start", textDelta.seq, "toolcall_start");
const firstEnd = find((v) => v.type === "message_end" && v.message?.role === "assistant", toolcallStart.seq, "assistant message_end");
const readStart = find((v) => v.type === "tool_execution_start" && v.toolName === "read", firstEnd.seq, "read's tool_execution_start");
const readEnd = find((v) => v.type === "tool_execution_end" && v.toolCallId === readStart.value.toolCallId, readStart.seq, "read's tool_execution_end");
const toolResult = find((v) => v.type === "message_end" && v.message?.role === "toolResult", readEnd.seq, "toolResult message_end");
const bashStart = find((v) => v.type === "tool_execution_start" && v.toolName === "bash", toolResult.seq, "bash's tool_execution_start");
const bashUpdate = records.find((r) => r.seq > bashStart.seq && r.value?.type === "tool_execution_update" && r.value.toolCallId === bashStart.value.toolCallId);
const bashEnd = find((v) => v.type === "tool_execution_end" && v.toolCallId === bashStart.value.toolCallId, bashStart.seq, "bash's tool_execution_end");
const editEnd = find((v) => v.type === "tool_execution_end" && v.toolName === "edit", bashEnd.seq, "edit's tool_execution_end");
const agentEnd = find((v) => v.type === "agent_end", editEnd.seq, "agent_end");
const settled = find((v) => v.type === "agent_settled", agentEnd.seq, "agent_settled");

/** A note at the event that brought the last of its records (the page shows them all there). */
const note = (text, ...about) => ({ at: Math.max(...about.map((r) => r.event)), records: about.map((r) => r.seq), text });

const notes = [
  note(
    "**A guided walk through Pier's demo tour**, recorded from a real `pi --mode rpc` and its relay. Each note stops the player where something happens on the wire and selects the records it is about in the inspector.\n\n" +
      "It starts where every page starts: the relay's `hello` frame (◆), with the page's id, pi's command line and what pi printed so far. Step with **Next** (or the N key).",
    hello,
  ),
  note(
    "The page sends its first command: `prompt` (↑), one JSON line on pi's stdin, with an `id` the page chose. pi answers with a `response` carrying the same `id`.\n\n" +
      "`success: true` only means pi **accepted** the prompt, not that it is done: the work comes as events.",
    prompt,
    accepted,
  ),
  note("`agent_start`: a run begins. From here until `agent_settled`, pi's events belong to this run.", agentStart),
  note(
    "The model thinks aloud: each `message_update` carries one `thinking_delta`. There is no whole message in these records: the page rebuilds the text from the deltas, keyed by `contentIndex`.",
    thinking,
  ),
  note("Then the answer itself, as `text_delta`s: the words appear in the transcript a few characters at a time.", textDelta),
  note(
    "`toolcall_start` names the tool (`read`) and the call's `id`; `toolcall_delta`s stream its arguments as JSON text. When the message ends, `message_end` carries the **whole** message, which replaces what the page rebuilt.",
    toolcallStart,
    firstEnd,
  ),
  note("pi runs the call: `tool_execution_start` … `tool_execution_end`, paired by `toolCallId`. The file's text comes back to the model as a `toolResult` message.", readStart, readEnd, toolResult),
  note(
    bashUpdate
      ? "A `bash` call: its output can stream as `tool_execution_update` events before `tool_execution_end` brings the full result (and `isError`)."
      : "A `bash` call: `tool_execution_end` brings its whole output (and `isError`); a longer command would stream `tool_execution_update`s first.",
    bashStart,
    ...(bashUpdate ? [bashUpdate] : []),
    bashEnd,
  ),
  note("The edit: its `tool_execution_end` carries a unified diff in `result.details`, which is what the page shows as the edit's diff.", editEnd),
  note("Here `agent_end` arrives, but the run is **not over**: pi may still retry, compact or run queued follow-ups after it. Watch for `agent_settled`.", agentEnd),
  note(
    "`agent_settled`: now the run is finished. The page asks `get_state` once more to bring its header up to date.\n\n" +
      "That's the walk. Play the capture from any point, or open the records around a note in the inspector.",
    settled,
  ),
];

const walk = captureWithNotes(redacted, read.layout, notes);
const check = readCapture(walk);
if (!check.ok) throw new Error(`record-demo-walk: the walk does not read back: ${check.error.message}`);
await mkdir(dirname(OUT), { recursive: true });
await writeFile(OUT, walk);
console.log(`record-demo-walk: ${OUT.slice(ROOT.length + 1)}: ${events.length} events, ${records.length} records, ${notes.length} notes, ${(walk.length / 1024).toFixed(0)} KiB`);
process.exit(0);
