// Switching the page between two live sessions (issue #32 item 3: "switching
// is instant"), side by side with loading the other session's page, which is
// what a switch cost before the page held several sessions. Real pier, two
// real pi children on the scripted model, real Chromium.
//
// Each session holds one finished answer (the first a 40-line one, the second
// a short one), so "shown" is when the target session's answer is in the
// conversation and the other's is not. Timed from the bench: the action (a
// click on a link to the session, or page.goto) until a requestAnimationFrame
// poll in the page sees the target's answer. Printed: the first switch to the
// second session (the page connects and hydrates it in place), the median of
// ROUNDS switches between the two once both are held (their sockets stay
// open), and the median page load, with the ratio. Asserts nothing.
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Page } from "@playwright/test";
import { LIVE_API_PATHS } from "../shared-protocol/src/live-api.ts";
import { commandId, connectBrowser, startPier, type RunningPier } from "../relay/test/support/pier-process.ts";
import { httpJson } from "../relay/test/workspace/workspace-http.ts";
import { BENCH_CHROMIUM_ARGS, openPier } from "./support/pier-page.ts";

const ROUNDS = Number(process.env.PIER_BENCH_ROUNDS ?? 7);
const DIST = new URL("../web/dist/", import.meta.url).pathname;
if (!existsSync(join(DIST, "index.html"))) {
  console.log("web/dist is not built: run `pnpm --filter @pier/web build` first. Skipping.");
  process.exit(0);
}
// "Keep going…" gets a 40-line answer; any other prompt a short one.
const scenario = fileURLToPath(new URL("../e2e/scenarios/long-session.json", import.meta.url));
const LONG_END = "End of the long answer.";
const SHORT = "Another answer from the scripted model.";

/** Prompts a session over its own socket and waits for the run to settle. */
async function promptAndSettle(pier: RunningPier, path: string, message: string): Promise<void> {
  const wire = await connectBrowser(pier, { path });
  wire.send({ type: "prompt", message, id: commandId("bench") });
  await wire.waitForRecord((record) => record.type === "agent_end", 60_000);
  await wire.close();
}

/** Runs `act` and resolves with the ms until the conversation shows `want` and not `not`. */
async function timeUntilShown(page: Page, act: () => Promise<unknown>, want: string, not: string): Promise<number> {
  const started = performance.now();
  await act();
  await page.waitForFunction(
    ({ want, not }) => {
      const text = document.querySelector('[role="log"][aria-label="Conversation"]')?.textContent ?? "";
      return text.includes(want) && !text.includes(not);
    },
    { want, not },
    { polling: "raf", timeout: 30_000 },
  );
  return performance.now() - started;
}

/** A click on a link to `href`, as a board card's title is clicked (the page switches in place). */
const clickLinkTo = (page: Page, href: string) =>
  page.evaluate((href) => {
    const link = document.createElement("a");
    link.href = href;
    document.body.append(link);
    link.click();
    link.remove();
  }, href);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const folder = realpathSync(mkdtempSync(join(tmpdir(), "pier-switch-bench-")));
writeFileSync(join(folder, "NOTES.md"), "# the second agent's folder\n");
const pier = await startPier(["--demo", "--demo-scenario", scenario]);
const browser = await chromium.launch({
  ...(existsSync("/usr/bin/chromium") ? { executablePath: "/usr/bin/chromium" } : {}),
  args: BENCH_CHROMIUM_ARGS,
});
try {
  const started = await httpJson(pier, "POST", LIVE_API_PATHS.sessions, { body: { cwd: folder } });
  if (started.status !== 201) throw new Error(`starting the second agent: ${started.status} ${started.text}`);
  const id = started.json.card.id as string;
  const second = `/live/${id}/`;
  // The second pi child may still be starting: its socket's replay waits for it.
  await promptAndSettle(pier, "/ws", "Keep going with the next step");
  await promptAndSettle(pier, `/live/${id}/ws`, "Say something short");

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await openPier(context, pier, null);
  await timeUntilShown(page, async () => {}, LONG_END, SHORT);

  const firstSwitch = await timeUntilShown(page, () => clickLinkTo(page, second), SHORT, LONG_END);
  const held: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    held.push(await timeUntilShown(page, () => clickLinkTo(page, "/"), LONG_END, SHORT));
    held.push(await timeUntilShown(page, () => clickLinkTo(page, second), SHORT, LONG_END));
  }
  const loads: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    loads.push(await timeUntilShown(page, () => page.goto(`${pier.origin}/`), LONG_END, SHORT));
    loads.push(await timeUntilShown(page, () => page.goto(`${pier.origin}${second}`), SHORT, LONG_END));
  }
  await context.close();

  console.log(`Switching between two live sessions (each with a finished answer; ${ROUNDS * 2} switches each way of measuring, Chromium 1280×800):`);
  console.log(`  in place, first time (connects and hydrates the second session):  ${firstSwitch.toFixed(0)} ms`);
  console.log(`  in place, both sessions held (median):                           ${median(held).toFixed(0)} ms  (max ${Math.max(...held).toFixed(0)} ms)`);
  console.log(`  loading the other session's page (median):                       ${median(loads).toFixed(0)} ms  (max ${Math.max(...loads).toFixed(0)} ms)`);
  console.log(`  page load ÷ in place, held: ${(median(loads) / median(held)).toFixed(1)}×`);
} finally {
  await browser.close();
  await pier.stop();
  rmSync(folder, { recursive: true, force: true });
}
