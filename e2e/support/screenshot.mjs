// Dev aid: open a pier URL in Chromium, optionally send a prompt, and save
// screenshots. Usage: node e2e/support/screenshot.mjs URL OUT_PREFIX [prompt]
import { chromium } from "@playwright/test";

const [url, out, prompt, width = "1280", height = "800"] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
const page = await browser.newPage({ viewport: { width: Number(width), height: Number(height) } });
page.on("console", (m) => console.log("console:", m.type(), m.text()));
page.on("pageerror", (e) => console.log("pageerror:", e.message));
await page.goto(url);
await page.waitForTimeout(1500);
await page.screenshot({ path: `${out}-idle.png` });
if (prompt) {
  await page.getByRole("textbox", { name: "Prompt" }).fill(prompt);
  await page.keyboard.press("Enter");
  await page.waitForTimeout(4000);
  await page.screenshot({ path: `${out}-streaming.png` });
  await page.waitForTimeout(14000);
  await page.screenshot({ path: `${out}-done.png` });
}
await browser.close();
