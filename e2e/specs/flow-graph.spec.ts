// The inspector's Flow tab (issue #36 item 3): the wire as a sequence
// diagram, against a real relay and a real pi (the scripted model), a replay
// of a crafted capture, and a `pier tap` page. Each response arrow is linked
// to its command's (pairing), a click selects the record in the records list,
// the export is a standalone SVG that parses (and keeps a crafted
// `</text><script>` as text) and draws what the view draws, pi's activation
// bars included; what the inspector dropped is said in the file and on the
// page; an expert warning marks its arrow, and the tab passes axe in light
// and dark.
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import { createDemoAgentDir } from "../../relay/src/demo/agent-dir.ts";
import { startModelServer } from "../../relay/src/demo/model-server.ts";
import { PIER_BIN, startPierReplay } from "../../relay/test/support/pier-process.ts";
import { streamedCapture } from "../../bench/support/streamed-capture.ts";
import { piCliPathFor } from "../../relay/test/support/pi-under-test.ts";
import { expectAccessible } from "../support/accessible.ts";
import { expect, test } from "../support/pier.ts";

const inspector = (page: Page) => page.getByRole("complementary", { name: "Protocol inspector" });
const flow = (page: Page) => inspector(page).getByRole("listbox", { name: "Flow graph" });
const records = (page: Page) => inspector(page).getByRole("listbox", { name: "Records" });
const details = (page: Page) => inspector(page).getByRole("region", { name: "Record details" });
const lanes = (page: Page) => inspector(page).locator(".flow .lanes .lane");

interface Arrow {
  row: number;
  kind: string;
  pair: string | null;
  name: string;
}

/**
 * Every arrow of the graph (it is virtualized: scrolled through from the top,
 * a view at a time). The graph follows its live end until a person scrolls
 * up, so the wheel is turned up first, as a person would; and a view that a
 * late record moved anyway is read again, not skipped.
 */
async function allArrows(list: Locator): Promise<Arrow[]> {
  await leaveLiveEnd(list);
  return list.evaluate(async (viewport) => {
    const seen = new Map<string, { row: number; kind: string; pair: string | null; name: string }>();
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    for (let top = 0, moved = 0; ; top += viewport.clientHeight / 2) {
      viewport.scrollTop = top;
      viewport.dispatchEvent(new Event("scroll"));
      await frame();
      const wanted = Math.max(0, Math.min(top, viewport.scrollHeight - viewport.clientHeight));
      if (Math.abs(viewport.scrollTop - wanted) > 1 && moved++ < 20) {
        top -= viewport.clientHeight / 2;
        continue;
      }
      for (const row of viewport.querySelectorAll<HTMLElement>("[role=option]")) {
        seen.set(row.dataset["row"]!, {
          row: Number(row.dataset["row"]),
          kind: row.dataset["kind"]!,
          pair: row.dataset["pair"] ?? null,
          name: row.querySelector(".visually-hidden")?.textContent ?? "",
        });
      }
      if (top + viewport.clientHeight >= viewport.scrollHeight) break;
    }
    return [...seen.entries()].sort((a, b) => Number(a[0]) - Number(b[0])).map(([, arrow]) => arrow);
  });
}

/** Turns the wheel up over the graph: it stops following the live end (records arriving no longer move it). */
async function leaveLiveEnd(list: Locator): Promise<void> {
  await list.hover();
  await list.page().mouse.wheel(0, -200);
}

interface ExportedSvg {
  error: boolean;
  root: string;
  texts: string[];
  scripts: number;
  titles: string[];
  /** The centre of pi's lane (its header's text). */
  piX: number;
  /** Each row: its kind, its pair, the y of its arrow. */
  rows: { kind: string; pair: string | null; y: number }[];
  /** The activation bars on pi's lane. */
  bars: { pair: string | null; x: number; width: number; y: number; height: number; waiting: boolean }[];
  leftOut: string | null;
}

/** The SVG a click on Export SVG downloads, parsed by the browser: its texts, rows and bars, and whether it parsed. */
async function exportedSvg(page: Page, saveAs?: string): Promise<{ text: string; parsed: ExportedSvg }> {
  const [download] = await Promise.all([page.waitForEvent("download"), inspector(page).getByRole("button", { name: "Export SVG" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^pier-flow-.*\.svg$/);
  const text = await readFile((await download.path())!, "utf8");
  // Kept with the test's results, to be opened and looked at beside the view.
  if (saveAs !== undefined) await writeFile(saveAs, text);
  const parsed = await page.evaluate((svg) => {
    const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
    return {
      error: doc.querySelector("parsererror") !== null,
      root: doc.documentElement.localName,
      texts: [...doc.querySelectorAll("text")].map((t) => t.textContent ?? ""),
      scripts: doc.querySelectorAll("script").length,
      titles: [...doc.querySelectorAll("title")].map((t) => t.textContent ?? ""),
      piX: Number([...doc.querySelectorAll("text[text-anchor=middle]")].find((t) => t.textContent === "pi")?.getAttribute("x")),
      rows: [...doc.querySelectorAll("g[data-kind]")].map((g) => ({
        kind: g.getAttribute("data-kind")!,
        pair: g.getAttribute("data-pair"),
        y: Number(g.querySelector("line:not(.gap)")?.getAttribute("y1") ?? g.querySelector("path")?.getAttribute("d")?.split(" ")[1]),
      })),
      bars: [...doc.querySelectorAll("rect.activation")].map((r) => ({
        pair: r.getAttribute("data-pair"),
        x: Number(r.getAttribute("x")),
        width: Number(r.getAttribute("width")),
        y: Number(r.getAttribute("y")),
        height: Number(r.getAttribute("height")),
        waiting: r.classList.contains("waiting"),
      })),
      leftOut: doc.querySelector("text.left-out")?.textContent ?? null,
    };
  }, text);
  return { text, parsed };
}

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

test("live: a prompt's arrows, each response linked to its command; a click selects the record everywhere; the SVG export parses", async ({ page, pier }, testInfo) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await page.getByRole("button", { name: "Protocol inspector" }).click();
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("Hello there");
  await prompt.press("Enter");
  await expect(page.getByRole("log", { name: "Conversation" }).getByRole("article", { name: "pi" }).last()).toContainText("Hello from the scripted model!");
  await expect(page.getByRole("status", { name: /^Agent:/ })).toHaveAccessibleName("Agent: Idle");

  await inspector(page).getByRole("tab", { name: "Flow" }).click();
  await expect(flow(page)).toBeVisible();
  await expect(lanes(page)).toHaveText(["this browser", "relay", "pi"]);
  // The run ends at agent_settled: wait for its arrow before reading the graph.
  await expect(flow(page).getByRole("option", { name: /^agent_settled: pi → every browser/ })).toHaveCount(1);

  const arrows = await allArrows(flow(page));
  const commands = arrows.filter((a) => a.kind === "command");
  const responses = arrows.filter((a) => a.kind === "response");
  expect(commands.map((a) => a.name)).toContainEqual(expect.stringMatching(/^prompt: this browser → pi$/));
  expect(responses.length).toBeGreaterThan(0);
  // Each response arrow is linked to the arrow of the command it answers (the pairing's pair), going back to that browser.
  for (const response of responses) {
    expect(response.pair, response.name).not.toBeNull();
    const command = commands.find((c) => c.pair === response.pair);
    expect(command, `the command of ${response.name}`).toBeDefined();
    const answered = /^response \(([a-z_]+) [✓✗]\): pi → this browser$/.exec(response.name);
    expect(answered, response.name).not.toBeNull();
    expect(command!.name).toBe(`${answered![1]}: this browser → pi`);
  }
  // The answer's deltas: one arrow with a count.
  expect(arrows.some((a) => a.kind === "deltas" && /^\d+ × message_update/.test(a.name))).toBe(true);
  expect(arrows.some((a) => a.kind === "relay" && a.name.startsWith("hello: relay → this browser"))).toBe(true);

  // Hovering the prompt's response highlights its command; a click selects the command everywhere.
  // (Scrolled to them first: only the rows near the view are drawn.)
  const promptAt = commands.find((a) => a.name === "prompt: this browser → pi")!.row;
  await leaveLiveEnd(flow(page));
  await flow(page).evaluate((viewport, top) => (viewport.scrollTop = top), Math.max(0, promptAt * 28 - 60));
  const promptArrow = flow(page).getByRole("option", { name: "prompt: this browser → pi" });
  const promptAnswer = flow(page).getByRole("option", { name: /^response \(prompt ✓\)/ });
  await promptAnswer.hover();
  await expect(promptArrow).toHaveClass(/\blinked\b/);
  await promptArrow.click();
  await expect(promptArrow).toHaveAttribute("aria-selected", "true");
  await expect(details(page)).toContainText(/prompt \(id [^)]+\) from this browser: pi answered success in/);
  await page.screenshot({ path: testInfo.outputPath("flow-1440x900.png") });
  // Keyboard: Down selects the next arrow (what came between the prompt and its answer depends on timing), Up comes back.
  const promptRow = Number(await promptArrow.getAttribute("data-row"));
  await flow(page).focus();
  await page.keyboard.press("ArrowDown");
  await expect(flow(page).locator(`[data-row="${promptRow + 1}"]`)).toHaveAttribute("aria-selected", "true");
  await expect(promptArrow).toHaveAttribute("aria-selected", "false");
  await page.keyboard.press("ArrowUp");
  await expect(promptArrow).toHaveAttribute("aria-selected", "true");
  await inspector(page).getByRole("tab", { name: "Records" }).click();
  await expect(records(page).getByRole("option", { selected: true })).toContainText("prompt");

  // A run of deltas opens in place: a row per delta.
  await inspector(page).getByRole("tab", { name: "Flow" }).click();
  // The answer's deltas are below the prompt: at the graph's end (only the rows near the view are drawn).
  await flow(page).evaluate((viewport) => (viewport.scrollTop = viewport.scrollHeight));
  const run = flow(page)
    .getByRole("option", { name: /^\d+ × message_update/ })
    .last();
  const count = Number((await run.locator(".visually-hidden").textContent())!.match(/^([\d,]+)/)![1]!.replace(/,/g, ""));
  await run.click();
  await expect(flow(page).getByRole("option", { name: new RegExp(`^message_update \\w+, delta 1 of ${count}$`) })).toHaveCount(1);
  await expect(details(page)).toContainText("message_update");

  const { parsed } = await exportedSvg(page, testInfo.outputPath("flow.svg"));
  expect(parsed.error).toBe(false);
  expect(parsed.root).toBe("svg");
  expect(parsed.scripts).toBe(0);
  expect(parsed.texts).toEqual(expect.arrayContaining(["this browser", "relay", "pi", "prompt", "response prompt ✓", "agent_settled"]));
  // Every arrow the view showed is in the file, in the same order (the run the view opened is folded there; the page may have asked pi more since).
  expect(parsed.rows.slice(0, arrows.length).map((r) => r.kind)).toEqual(arrows.map((a) => a.kind));
  // pi's activation bars: one per command answered, on pi's lane, from the command's arrow to its answer's (the prompt's among them).
  const promptPair = commands.find((a) => a.name === "prompt: this browser → pi")!.pair;
  expect(parsed.bars.map((b) => b.pair)).toContain(promptPair);
  const answered = parsed.rows.filter((r) => r.kind === "response");
  expect(parsed.bars.filter((b) => !b.waiting)).toHaveLength(answered.length);
  for (const response of answered) {
    const command = parsed.rows.find((r) => r.kind === "command" && r.pair === response.pair)!;
    const bar = parsed.bars.find((b) => b.pair === response.pair)!;
    expect(bar, `the bar of pair ${response.pair}`).toBeDefined();
    expect(bar.y).toBe(command.y);
    expect(bar.y + bar.height).toBe(response.y);
    expect(bar.height).toBeGreaterThan(0);
    expect(Math.abs(bar.x + bar.width / 2 - parsed.piX)).toBeLessThanOrEqual(7);
  }
  await expect(
    inspector(page)
      .getByRole("status")
      .filter({ hasText: /^Exported/ }),
  ).toHaveText(`Exported ${parsed.rows.length} arrows`);

  // The graph itself (the details pane is the records list's, checked there).
  await flow(page).press("Escape");
  await expect(details(page)).toHaveCount(0);
  await expectAccessible(page, "inspector, Flow");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(promptArrow.or(run).first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("flow-390x844.png") });
  expect(errors).toEqual([]);
});

const line = (value: unknown) => Buffer.from(`${JSON.stringify(value)}\n`).toString("base64");
const EVIL = '</text><script>alert("flow")</script>';

test("a replay of a crafted capture: the warned arrow is marked with why, another browser has its lane, and the export escapes a crafted field", async ({ page }, testInfo) => {
  const events = [
    { t: 0, k: "frame", f: { type: "child_started", child: { state: "running", epoch: 1, pid: 4242, startedAt: Date.parse("2026-12-01T10:00:00.000Z") } } },
    { t: 10, k: "sent", c: JSON.stringify({ id: "c9:1", type: "get_state" }), by: { clientId: "c9", name: `Mallory ${EVIL}` } },
    { t: 20, k: "bytes", b: line({ id: "c9:1", type: "response", command: "get_state", success: true, data: {} }) },
    // An answer to an id no command carried.
    { t: 30, k: "bytes", b: line({ id: "req-9", type: "response", command: "get_state", success: true, data: {} }) },
    // A record type no pi sends, with markup in it.
    { t: 2_000, k: "bytes", b: line({ type: EVIL }) },
  ];
  const file = testInfo.outputPath("crafted.jsonl");
  const header = { type: "pier-capture", version: 1, startedAt: "2026-12-01T10:00:00.000Z", pier: "0.1.0", redacted: [] };
  await writeFile(file, [header, ...events].map((e) => `${JSON.stringify(e)}\n`).join(""));
  const replay = await startPierReplay(file);
  try {
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(replay.url);
    const bar = page.getByRole("region", { name: "Replay" });
    await expect(bar).toContainText("Replaying crafted.jsonl");
    await page.getByRole("button", { name: "Protocol inspector" }).click();
    await bar.getByRole("combobox", { name: "Speed" }).selectOption("max");
    await bar.getByRole("button", { name: "Play", exact: true }).click();
    await expect(bar.getByRole("status", { name: "Replay position" })).toContainText(`record ${events.length} of ${events.length}`, { timeout: 30_000 });

    await inspector(page).getByRole("tab", { name: "Flow" }).click();
    await expect(lanes(page)).toHaveText(["this browser", `Mallory ${EVIL}`, "relay", "pi"]);
    const stray = flow(page).getByRole("option", { name: /^response \(get_state ✓\): pi → this browser\. Warning: No command sent the id "req-9"/ });
    await expect(stray).toHaveCount(1);
    await expect(stray.locator(".warning")).toHaveText("⚠");
    await expect(stray.locator(".warning")).toHaveAttribute("title", /No command sent the id "req-9"/);
    // Mallory's command and its answer, linked, in Mallory's lane.
    await expect(flow(page).getByRole("option", { name: `get_state: Mallory ${EVIL} → pi` })).toHaveCount(1);
    await expect(flow(page).getByRole("option", { name: `response (get_state ✓): pi → Mallory ${EVIL}` })).toHaveCount(1);
    // The 2 s pause before the last record is marked, not drawn to scale.
    await expect(flow(page).locator(".gap")).toContainText(["+2.0 s"]);
    await expect(flow(page).getByRole("option", { name: /^<\/text><script>/ })).toContainText(EVIL);
    await stray.click();
    await expect(details(page).getByRole("region", { name: "Warnings" })).toContainText('No command sent the id "req-9"');
    await page.screenshot({ path: testInfo.outputPath("flow-replay-1440x900.png") });

    const { text, parsed } = await exportedSvg(page, testInfo.outputPath("flow-replay.svg"));
    expect(text).not.toContain("<script");
    expect(text).toContain("&lt;/text&gt;&lt;script&gt;");
    expect(parsed.error).toBe(false);
    expect(parsed.scripts).toBe(0);
    expect(parsed.texts).toContain("⚠");
    expect(parsed.titles.some((t) => t.includes('No command sent the id "req-9"'))).toBe(true);
    expect(parsed.texts.some((t) => t.includes(`Mallory </text>`))).toBe(true);
    expect(errors).toEqual([]);
  } finally {
    await replay.stop();
  }
});

test("a pier tap page: the client's lane instead of browsers, its commands linked to pi's answers", async ({ page, piVersion }, testInfo) => {
  const server = await startModelServer({
    scenario: { name: "tap", pace: { chunkChars: 8, delayMs: 2 }, rules: [], fallback: { steps: [{ kind: "text", text: "Hello through the tap." }] } },
  });
  const agent = await createDemoAgentDir({ modelServerUrl: server.url });
  const tap = spawn(process.execPath, [PIER_BIN, "tap", "--", process.execPath, piCliPathFor(piVersion), "--mode", "rpc", "--no-session"], {
    env: { ...process.env, PI_CODING_AGENT_DIR: agent.dir, PI_OFFLINE: "1" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  tap.stdout.resume();
  tap.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => tap.once("close", (code) => resolve(code)));
  const link = /pier tap: read-only inspector of this conversation: (http:\S+)/;
  try {
    await expect.poll(() => link.exec(stderr)?.[1], { timeout: 30_000 }).toBeTruthy();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(link.exec(stderr)![1]!);
    await page.getByRole("region", { name: "pier tap" }).getByRole("button", { name: "Open the inspector" }).click();
    await inspector(page).getByRole("tab", { name: "Flow" }).click();
    tap.stdin.write('{"type":"prompt","id":"client-2","message":"hello"}\n');
    await expect(page.getByRole("log", { name: "Conversation" })).toContainText("Hello through the tap.");
    await expect(lanes(page)).toHaveText(["RPC client (tap)", "pier tap", "pi"]);
    await expect(flow(page).getByRole("option", { name: "agent_settled: pi → RPC client (tap)" })).toHaveCount(1);
    const command = flow(page).getByRole("option", { name: "prompt: RPC client (tap) → pi" });
    const answer = flow(page).getByRole("option", { name: "response (prompt ✓): pi → RPC client (tap)" });
    await expect(answer).toHaveAttribute("data-pair", (await command.getAttribute("data-pair"))!);
    await page.screenshot({ path: testInfo.outputPath("flow-tap-1440x900.png") });
  } finally {
    tap.stdin.end();
    expect(await exited).toBe(0);
    await server.close();
    await agent.cleanup();
  }
});

test("a capture longer than the inspector holds: the export says, in the file and on the page, that the older records are not in it", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  // One prompt answered in 2,500 deltas: more records than the inspector's 2,000.
  const { text, events } = streamedCapture({ prompts: 1, deltasPerAnswer: 2_500, by: "e2e" });
  const file = testInfo.outputPath("longer.jsonl");
  await writeFile(file, text);
  const replay = await startPierReplay(file);
  try {
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(replay.url);
    const bar = page.getByRole("region", { name: "Replay" });
    const count = events.toLocaleString("en");
    await expect(bar.getByRole("status", { name: "Replay position" })).toContainText(`record 0 of ${count}`, { timeout: 30_000 });
    await bar.getByRole("slider", { name: "Position" }).evaluate((input, v) => {
      (input as HTMLInputElement).value = String(v);
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }, events);
    await expect(bar.getByRole("status", { name: "Replay position" })).toContainText(`record ${count} of ${count}`, { timeout: 60_000 });
    await page.getByRole("button", { name: "Protocol inspector" }).click();
    await inspector(page).getByRole("tab", { name: "Flow" }).click();
    await expect(flow(page).getByRole("option", { name: /^agent_settled: pi → / })).toHaveCount(1);
    // The inspector's count: "2,000 records · 123 older dropped".
    const held = Number((await inspector(page).locator('[title^="Records held"]').textContent())!.replace(/,/g, "").match(/^(\d+)/)![1]);
    const sentence = `Not in it: the ${(events - held).toLocaleString("en")} older records the inspector dropped (it keeps the newest ${held.toLocaleString("en")}).`;
    expect(events - held).toBeGreaterThan(0);
    const { parsed } = await exportedSvg(page);
    expect(parsed.error).toBe(false);
    expect(parsed.leftOut).toBe(sentence);
    await expect(
      inspector(page)
        .getByRole("status")
        .filter({ hasText: /^Exported/ }),
    ).toContainText(sentence);
    await page.screenshot({ path: testInfo.outputPath("flow-export-note-1440x900.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: testInfo.outputPath("flow-export-note-390x844.png") });
    expect(errors).toEqual([]);
  } finally {
    await replay.stop();
  }
});
