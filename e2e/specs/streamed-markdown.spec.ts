import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { startPier, type RunningPier } from "../../relay/test/support/pier-process.ts";
import { expect, test } from "../support/pier.ts";

// A streamed answer keeps its finished blocks in runs of elements
// (web/src/lib/markdown/block-runs.ts), one item per update. A reload
// rebuilds the same answer at once: in one run, or rendered whole when it
// is already complete by the time it is shown. The two must look
// the same: the same blocks in the same order, at the same places (margins
// still collapse across a run boundary).

test.use({ scenarioName: "many-blocks" });

const answer = (page: Page) => page.getByRole("log", { name: "Conversation" }).getByRole("article", { name: "pi" }).last();

interface Block {
  tag: string;
  text: string;
  top: number;
  height: number;
}

/** The answer's top-level blocks (runs and the tail unwrapped), where they sit relative to the text's top. */
async function blocksOf(text: Locator): Promise<{ runs: number; blocks: Block[] }> {
  return text.evaluate((md) => {
    const top = md.getBoundingClientRect().top;
    const wrappers = ["md-run", "md-tail"];
    const elements = [...md.children].flatMap((child) => (wrappers.some((name) => child.classList.contains(name)) ? [...child.children] : [child]));
    return {
      runs: md.querySelectorAll(":scope > .md-run").length,
      blocks: elements.map((element) => {
        const box = element.getBoundingClientRect();
        return { tag: element.localName, text: element.textContent ?? "", top: Math.round(box.top - top), height: Math.round(box.height) };
      }),
    };
  });
}

test("a streamed answer of many blocks looks the same as the same answer rebuilt at once", async ({ page, pier }) => {
  await page.goto(pier.url);
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("Write many blocks");
  await prompt.press("Enter");
  await expect(answer(page)).toContainText("End of the blocks.");
  await expect(page.getByRole("status", { name: /^Agent:/ })).toHaveAccessibleName("Agent: Idle");
  // Code blocks are highlighted once the text stops changing (in both cases).
  const streamedText = answer(page).locator(".md").first();
  await expect(streamedText.locator("pre code.hljs")).toHaveCount(6);
  const streamed = await blocksOf(streamedText);
  expect(streamed.runs).toBeGreaterThanOrEqual(2);

  await page.reload();
  await expect(answer(page)).toContainText("End of the blocks.");
  const loadedText = answer(page).locator(".md").first();
  await expect(loadedText.locator("pre code.hljs")).toHaveCount(6);
  const loaded = await blocksOf(loadedText);
  expect(loaded.runs).toBeLessThanOrEqual(1);

  expect(streamed.blocks.length).toBe(86);
  expect(streamed.blocks).toEqual(loaded.blocks);
});

/** Scenarios written by the tests below, removed after them. */
let scenarios = "";
test.beforeAll(async () => {
  scenarios = await mkdtemp(join(tmpdir(), "pier-e2e-scenarios-"));
});
test.afterAll(async () => {
  await rm(scenarios, { recursive: true, force: true });
});

/** A pier whose scripted model answers every prompt with `steps`. */
async function pierAnswering(name: string, pace: { chunkChars: number; delayMs: number }, steps: unknown[]): Promise<RunningPier> {
  const file = join(scenarios, `${name}.json`);
  await writeFile(file, JSON.stringify({ name: `e2e-${name}`, pace, rules: [{ when: {}, turns: [{ steps }] }] }));
  return startPier(["--demo", "--demo-scenario", file]);
}

// One block can be long: a list of 1,500 items is one block until the text
// after it starts, and its renders are paced by what they cost
// (live-markdown.ts). The newest text is still shown, soon, when the
// stream pauses: here the model stops for 5 s after the last item.
test("a long list streamed as one block is shown whole while the model pauses after it", async ({ page }) => {
  const items = Array.from({ length: 1500 }, (_, i) => `- Step ${i + 1}: compute the value and check it`).join("\n");
  const pier = await pierAnswering("long-list", { chunkChars: 40, delayMs: 1 }, [
    { kind: "text", text: `Steps:\n\n${items}` },
    { kind: "pause", ms: 5000 },
    { kind: "text", text: "\n\nDone." },
  ]);
  try {
    await page.goto(pier.url);
    const prompt = page.getByRole("textbox", { name: "Prompt" });
    await prompt.fill("List the steps");
    await prompt.press("Enter");
    const list = answer(page).locator(".md ul > li");
    await expect(list).toHaveCount(1500, { timeout: 5000 });
    await expect(list.last()).toHaveText("Step 1500: compute the value and check it");
    // Still in the pause: the answer is live and has not gone on.
    await expect(page.getByRole("status", { name: /^Agent:/ })).not.toHaveAccessibleName("Agent: Idle");
    await expect(answer(page)).not.toContainText("Done.");

    await expect(answer(page)).toContainText("Done.", { timeout: 10_000 });
    await expect(page.getByRole("status", { name: /^Agent:/ })).toHaveAccessibleName("Agent: Idle");
    await expect(list).toHaveCount(1500);
  } finally {
    await pier.stop();
  }
});

// Long code is highlighted in a worker (web/src/lib/highlight/highlight.ts),
// which the page's Content-Security-Policy must let start.
test("a long code block is highlighted off the page's main thread", async ({ page }) => {
  const lines = Array.from({ length: 800 }, (_, i) => `const value${i} = compute(${i}, "text"); // step ${i}`).join("\n");
  const pier = await pierAnswering("long-fence", { chunkChars: 200, delayMs: 1 }, [{ kind: "text", text: `The file:\n\n\`\`\`ts\n${lines}\n\`\`\`\n\nDone.` }]);
  try {
    const workers: string[] = [];
    page.on("worker", (worker) => workers.push(worker.url()));
    const errors: string[] = [];
    page.on("console", (message) => void (message.type() === "error" && errors.push(message.text())));
    await page.goto(pier.url);
    const prompt = page.getByRole("textbox", { name: "Prompt" });
    await prompt.fill("Show the file");
    await prompt.press("Enter");
    await expect(answer(page)).toContainText("Done.");
    const code = answer(page).locator("pre code");
    await expect(code).toHaveClass(/\bhljs\b/);
    await expect(code.locator(".hljs-keyword").first()).toHaveText("const");
    await expect(code).toContainText("const value799 = compute(799");
    expect(workers.filter((url) => /\/assets\/highlight\.worker-[\w-]+\.js$/.test(url))).toHaveLength(1);
    expect(errors).toEqual([]);
  } finally {
    await pier.stop();
  }
});
