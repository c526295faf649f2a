import type { Locator, Page } from "@playwright/test";
import { expect, test } from "../support/pier.ts";

// The scripted model answers the first prompt with markdown full of XSS
// payloads (e2e/scenarios/xss.json), each of which would set
// window.__pierXss if it ran. The page's CSP would also block inline handlers,
// so besides that flag the tests check the rendered DOM itself and that
// Chromium reported no CSP violation: a violation means something got past
// the sanitizer and only the CSP stopped it.

test.use({ scenarioName: "xss" });

async function sendPrompt(page: Page, text: string): Promise<void> {
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill(text);
  await prompt.press("Enter");
}

const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });
const agent = (page: Page) => page.getByRole("status", { name: /^Agent:/ });

/** Everything in `root` that should never come out of the markdown renderer. */
async function unsafeMarkup(root: Locator): Promise<string[]> {
  return root.evaluate((element) => {
    const found: string[] = [];
    for (const node of element.querySelectorAll(".md, .md *")) {
      const tag = node.localName;
      if (["script", "iframe", "form", "style", "img", "svg", "math", "object", "embed", "details"].includes(tag)) found.push(`<${tag}>`);
      if (tag === "input" && !(node as HTMLInputElement).disabled) found.push("enabled <input>");
      for (const attribute of node.attributes) {
        if (attribute.name.startsWith("on") || attribute.name === "style") found.push(`${tag}[${attribute.name}]`);
        if (["href", "src", "action", "srcdoc"].includes(attribute.name) && !/^(https?:|mailto:|#|\/|\.)/i.test(attribute.value.trim())) {
          found.push(`${tag}[${attribute.name}=${attribute.value}]`);
        }
      }
    }
    return found;
  });
}

function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

test("an answer full of XSS payloads renders as inert markdown", async ({ page, pier }) => {
  const csp = watchCsp(page);
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();

  await sendPrompt(page, "Try to hack me");
  const answer = conversation(page).getByRole("article", { name: "pi" }).last();
  await expect(answer).toContainText("Done.");
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");

  // Markdown rendered…
  await expect(answer.locator("strong", { hasText: "Markdown renders" })).toBeVisible();
  await expect(answer.getByRole("listitem").filter({ hasText: "item two" })).toBeVisible();
  // …raw HTML is shown as text, the image became a link.
  await expect(answer).toContainText("<script>window.__pierXss=true</script>");
  await expect(answer.getByRole("link", { name: /tracking pixel/ })).toHaveAttribute("href", "https://example.invalid/pixel.png");

  // The javascript: link is there as text but goes nowhere.
  const clickMe = answer.getByText("click me", { exact: true });
  await expect(clickMe).toBeVisible();
  const href = await clickMe.getAttribute("href");
  expect(href === null || !/^\s*javascript:/i.test(href)).toBe(true);
  await clickMe.click();
  for (const name of ["shout", "entity", "raw anchor", "data link"]) {
    const link = answer.getByText(name, { exact: true });
    if ((await link.count()) > 0) await link.first().click();
  }

  // The thought renders markdown too, equally inert.
  await answer.getByText("Thought").click();
  await expect(answer.locator(".thinking strong", { hasText: "markdown" })).toBeVisible();
  await answer.getByText("think link", { exact: true }).click();

  expect(await unsafeMarkup(answer)).toEqual([]);
  for (const link of await answer.locator(".md a[href]").all()) {
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", /noopener/);
    await expect(link).toHaveAttribute("rel", /noreferrer/);
  }
  expect(page.url()).toContain(new URL(pier.url).host);
  expect(await page.evaluate(() => (window as unknown as { __pierXss?: boolean }).__pierXss)).toBeUndefined();
  expect(csp).toEqual([]);
});

/** The scenario's second answer (the first is the XSS one), once complete. */
async function benignAnswer(page: Page, url: string): Promise<Locator> {
  await page.goto(url);
  await sendPrompt(page, "Try to hack me");
  await expect(conversation(page).getByRole("article", { name: "pi" }).last()).toContainText("Done.");
  await sendPrompt(page, "Now something nice");
  const answer = conversation(page).getByRole("article", { name: "pi" }).last();
  await expect(answer).toContainText("See the docs");
  await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
  return answer;
}

test("a benign markdown answer shows headings, bold, lists, code and tables", async ({ page, pier }) => {
  const answer = await benignAnswer(page, pier.url);

  await expect(answer.getByRole("heading", { name: "A benign answer" })).toBeVisible();
  await expect(answer.locator("strong")).toHaveText("bold text");
  await expect(answer.locator("em")).toHaveText("emphasis");
  await expect(answer.locator("p code")).toHaveText("inline code");
  await expect(answer.getByRole("listitem")).toHaveText(["first point", "second point"]);
  await expect(answer.locator("pre code")).toHaveText("const answer = 42;");
  // The ```js fence is highlighted (lazily) once the answer is complete.
  await expect(answer.locator("pre code .hljs-keyword")).toHaveText("const");
  await expect(answer.getByRole("cell", { name: "alpha" })).toBeVisible();
  await expect(answer.locator("blockquote")).toContainText("A quoted line.");
  const docs = answer.getByRole("link", { name: "the docs" });
  await expect(docs).toHaveAttribute("href", "https://example.com/docs");
  await expect(docs).toHaveAttribute("target", "_blank");
  await expect(docs).toHaveAttribute("rel", "noopener noreferrer nofollow");
});

test("a code block and a whole answer can be copied", async ({ page, pier, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(pier.url).origin });
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  const answer = await benignAnswer(page, pier.url);

  // The code block's button copies the code, not the button's own label.
  await answer.locator("pre").hover();
  const copyCode = answer.getByRole("button", { name: "Copy code" });
  await expect(copyCode).toBeVisible();
  await copyCode.click();
  await expect(copyCode).toHaveText("Copied");
  expect(await clipboard()).toBe("const answer = 42;");
  await expect(copyCode).toHaveText("Copy");

  // The answer's button copies what pi wrote: the Markdown source.
  await answer.getByRole("button", { name: "Copy answer" }).click();
  await expect(answer.getByRole("button", { name: "Copy answer" })).toHaveText("Copied");
  const copied = await clipboard();
  expect(copied).toMatch(/^## A benign answer\n\nSome \*\*bold text\*\*/);
  expect(copied).toContain("```js\nconst answer = 42;\n```");
});
