// The first screen: what a newcomer sees before the first prompt. The prompt
// box has the focus, the empty session says what Pier is and offers three
// ways to start, the phone header keeps the model's name whole, and the demo
// tour's record names open the protocol inspector on their lessons; a
// squeezed header keeps the workspace folder's own name.
import type { Page } from "@playwright/test";
import { startPier } from "../../relay/test/support/pier-process.ts";
import { piArgsForVersion } from "../../relay/test/support/pi-under-test.ts";
import { expect, test } from "../support/pier.ts";

const prompt = (page: Page) => page.getByRole("textbox", { name: "Prompt" });
const starts = (page: Page) => page.getByRole("list", { name: "Ways to start" });
const inspector = (page: Page) => page.getByRole("complementary", { name: "Protocol inspector" });

test("the prompt box has the focus and the empty session offers three ways to start", async ({ page, pier }) => {
  await page.goto(pier.url);
  await expect(page.getByRole("heading", { name: "What should pi work on?" })).toBeVisible();
  await expect(prompt(page)).toBeFocused();
  await expect(page.getByText("Pier drives pi, a coding agent, on this folder")).toBeVisible();
  await expect(starts(page).getByRole("button")).toHaveText([/^Start the tour/, /^Watch the wire/, /^Browse the files/]);

  await starts(page).getByRole("button", { name: "Watch the wire", exact: true }).click();
  await expect(inspector(page)).toBeVisible();

  // Once there is a conversation, the first screen makes way for it.
  await prompt(page).fill("hello");
  await prompt(page).press("Enter");
  await expect(page.getByRole("log", { name: "Conversation" }).getByRole("article", { name: "pi" })).toContainText("Hello from the scripted model!");
  await expect(starts(page)).toHaveCount(0);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the header shows the model's whole name and every panel button, and the three starts fit above the prompt box", async ({ page, pier }) => {
    await page.goto(pier.url);
    const model = page.getByRole("button", { name: /^Model: Pier demo model/ });
    await expect(model).toContainText("Pier demo model");
    const name = model.locator(".model-name");
    expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
    for (const label of ["Session settings", "Terminal", "Protocol inspector", "Sessions"]) {
      const box = await page.getByRole("button", { name: label, exact: true }).boundingBox();
      expect(box, label).not.toBeNull();
      expect(box!.x + box!.width, label).toBeLessThanOrEqual(390);
    }
    const lastStart = await starts(page).getByRole("button").last().boundingBox();
    const promptBox = await prompt(page).boundingBox();
    expect(lastStart!.y + lastStart!.height).toBeLessThan(promptBox!.y);
    // The model and the usage meter make the header's second row: the line above it runs unbroken to the edge.
    const row = await page.locator("header").evaluate((header) => {
      const model = header.querySelector(".model")!.getBoundingClientRect();
      const usage = header.querySelector(".usage-slot")!.getBoundingClientRect();
      return { gap: usage.left - model.right, sameRow: Math.abs(usage.top - model.top) < 1, usageRight: usage.right };
    });
    expect(row.sameRow).toBe(true);
    expect(row.gap).toBeLessThanOrEqual(0.5);
    expect(row.usageRight).toBeCloseTo(390, 0);
  });

  test("the session's name is shown whole (it has the header's first row; among the buttons it was cut to “R…”)", async ({ page, pier }) => {
    await page.goto(pier.url);
    await page.getByRole("button", { name: "Unnamed session: name it" }).click();
    await page.keyboard.type("Refactor the greeting module");
    await page.keyboard.press("Enter");
    const name = page.getByRole("button", { name: "Session name: Refactor the greeting module. Rename" });
    await expect(name).toHaveText("Refactor the greeting module");
    expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
    // Every panel button still fits the screen.
    for (const label of ["Sessions", "Agents", "Session settings", "Terminal", "Protocol inspector"]) {
      const box = await page.getByRole("button", { name: label, exact: true }).boundingBox();
      expect(box!.x + box!.width, label).toBeLessThanOrEqual(390);
    }
  });
});

test("the demo tour starts from the first screen, and a record it names opens that record's lesson in the inspector", async ({ page, piVersion }) => {
  test.slow(); // the tour is paced to be read: ~15 s
  const pier = await startPier(["--demo", ...piArgsForVersion(piVersion)]);
  try {
    await page.goto(pier.url);
    await starts(page).getByRole("button", { name: "Start the tour", exact: true }).click();
    await expect(page.getByRole("log", { name: "Conversation" }).getByText("Show me around")).toBeVisible();
    const term = page.getByRole("log", { name: "Conversation" }).getByRole("button", { name: "message_update", exact: true });
    await expect(term.first()).toBeVisible({ timeout: 30_000 });
    await term.first().click();

    await expect(inspector(page)).toBeVisible();
    await expect(inspector(page).getByRole("region", { name: /^Lesson: message_update/ })).toContainText("docs/json.md");
    await expect(inspector(page).getByRole("combobox", { name: "Record type" })).toHaveValue("message_update");
    await inspector(page).getByRole("button", { name: "Close the lesson" }).click();
    await expect(inspector(page).getByRole("region", { name: /^Lesson:/ })).toHaveCount(0);

    // The tour's records were described as they came, before the inspector was first opened.
    const records = inspector(page).getByRole("listbox", { name: "Records" });
    await records
      .getByRole("option")
      .filter({ hasText: /\d+ deltas?/ })
      .first()
      .click();
    await inspector(page).getByRole("searchbox", { name: "Search records" }).fill("text_delta");
    await records.getByRole("option").filter({ hasText: "text_delta" }).first().click();
    await expect(inspector(page).getByRole("region", { name: "What it did" })).toContainText(/Appended \d+ characters? to the answer being written/);
    await inspector(page).getByRole("tab", { name: "Bytes" }).click();
    await expect(inspector(page)).toContainText(/Line [\d,]+ of pi's output · [\d,]+ bytes \+ LF/);
    await inspector(page).getByRole("tab", { name: "Records" }).click();
    await inspector(page).getByRole("searchbox", { name: "Search records" }).fill("");
    await inspector(page).getByRole("button", { name: "Close details" }).click();

    // Keyboard too: a record name is a button.
    await page.getByRole("log", { name: "Conversation" }).getByRole("button", { name: "text_delta", exact: true }).first().focus();
    await page.keyboard.press("Enter");
    await expect(inspector(page).getByRole("region", { name: /^Lesson: text_delta/ })).toBeVisible();
  } finally {
    await pier.stop();
  }
});

/** The header's workspace chip: its folder's own name whole, the folders above squeezed or not, its icon's width. */
async function workspaceChip(page: Page) {
  await expect(page.getByRole("heading", { name: "What should pi work on?" })).toBeVisible();
  const workspace = page.locator("header .cwd");
  const path = await workspace.getAttribute("title");
  expect(path).toBeTruthy();
  const folder = path!.split("/").filter(Boolean).at(-1)!;
  await expect(workspace.locator(".cwd-name")).toHaveText(folder);
  return workspace.evaluate((el) => {
    const name = el.querySelector<HTMLElement>(".cwd-name")!;
    const parent = el.querySelector<HTMLElement>(".cwd-parent")!;
    return {
      nameWhole: name.scrollWidth <= name.clientWidth,
      parentSqueezed: parent.scrollWidth > parent.clientWidth,
      icon: el.querySelector("svg")!.getBoundingClientRect().width,
    };
  });
}

test.describe("on a small laptop", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the header's workspace path, squeezed, keeps the folder's own name whole and its icon", async ({ page, pier }) => {
    await page.goto(pier.url);
    // The folders above give way first (this header has no room for the whole path).
    expect(await workspaceChip(page)).toEqual({ nameWhole: true, parentSqueezed: true, icon: 14 });
  });
});

test.describe("on a 1440 px laptop", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  // The header's words ("Pier", "Connected", "Share") once took this room and cut the name to "…tin…".
  test("the header keeps the workspace folder's own name whole", async ({ page, pier }) => {
    await page.goto(pier.url);
    expect(await workspaceChip(page)).toMatchObject({ nameWhole: true, icon: 14 });
  });
});
