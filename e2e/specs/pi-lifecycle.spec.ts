import { connectBrowser } from "../../relay/test/support/pier-process.ts";
import { expect, test } from "../support/pier.ts";

test("when pi dies the page says so, and Restart pi brings a working pi back", async ({ page, pier }) => {
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const probe = await connectBrowser(pier);
  const hello = probe.hello;
  if (hello.type !== "hello" || hello.child.state !== "running") throw new Error("pi is not running at start");
  await probe.close();

  process.kill(hello.child.pid, "SIGKILL");
  const banner = page.getByRole("alert", { name: "pi stopped" });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText("SIGKILL");

  await banner.getByRole("button", { name: "Restart pi" }).click();
  await expect(banner).toBeHidden();
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("Are you back?");
  await prompt.press("Enter");
  await expect(page.getByRole("log", { name: "Conversation" })).toContainText("Hello from the scripted model!");
});
