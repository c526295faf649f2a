import { connectBrowser } from "../../relay/test/support/pier-process.ts";
import { expect, test } from "../support/pier.ts";

test("when pi dies the page says so, and Restart pi brings a working pi back", async ({ page, pier }) => {
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const probe = await connectBrowser(pier);
  const hello = probe.hello;
  if (hello.type !== "hello" || hello.child.state !== "running") throw new Error("pi is not running at start");
  // Kill pi once it is up: killed during its start-up, pi 0.87.1 can leave
  // its auth.json lock behind, and the next pi then waits up to 30 s for it
  // to go stale (proper-lockfile) before it answers anything.
  probe.send({ type: "get_state", id: "lifecycle-ready" });
  await probe.waitForRecord((record) => record.type === "response" && record.id === "lifecycle-ready");
  await probe.close();

  process.kill(hello.child.pid, "SIGKILL");
  const banner = page.getByRole("alert", { name: "pi stopped" });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText("SIGKILL");

  // A prompt sent while pi is down is kept, said to be waiting, and goes out
  // once pi is back.
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("Are you back?");
  await prompt.press("Enter");
  const waiting = page.getByRole("status").filter({ hasText: "Sends as soon as pi is reachable" });
  await expect(waiting).toBeVisible();
  await expect(prompt).toHaveValue("Are you back?");

  await banner.getByRole("button", { name: "Restart pi" }).click();
  await expect(banner).toBeHidden();
  await expect(page.getByRole("log", { name: "Conversation" }).getByRole("article", { name: "You" })).toContainText("Are you back?");
  await expect(page.getByRole("log", { name: "Conversation" })).toContainText("Hello from the scripted model!");
  await expect(waiting).toBeHidden();
  await expect(prompt).toHaveValue("");
});
