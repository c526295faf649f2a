// A connection that dies without closing: the relay's process stops dead
// (SIGSTOP: its sockets stay open, nothing more comes), as when the machine
// pier runs on sleeps or its network goes. The page must not go on showing
// "Connected" on a socket nobody answers: it hears nothing for three of the
// relay's heartbeats (here --heartbeat 0.5), says the connection is lost,
// and once the relay answers again it reconnects, catches up, and sends
// what was written meanwhile.
import { startPier } from "../../relay/test/support/pier-process.ts";
import { piArgsForVersion } from "../../relay/test/support/pi-under-test.ts";
import { expect, scenario, test } from "../support/pier.ts";

test("a relay that stops answering is noticed in seconds, and the page reconnects when it is back", async ({ page, piVersion }) => {
  const pier = await startPier(["--demo", "--demo-scenario", scenario("hello"), "--heartbeat", "0.5", ...piArgsForVersion(piVersion)]);
  try {
    await page.goto(pier.url);
    const connection = page.getByRole("status", { name: /^Connection: / });
    await expect(connection).toHaveAccessibleName("Connection: Connected");
    const prompt = page.getByRole("textbox", { name: "Prompt" });
    await prompt.fill("Hello");
    await prompt.press("Enter");
    const conversation = page.getByRole("log", { name: "Conversation" });
    await expect(conversation.getByRole("article", { name: "pi" }).last()).toContainText("Hello from the scripted model!");
    await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
    // Quiet, and still connected: the relay's keepalives are heard.
    await page.waitForTimeout(2500);
    await expect(connection).toHaveAccessibleName("Connection: Connected");

    pier.signal("SIGSTOP");
    const stoppedAt = Date.now();
    await expect(page.getByRole("status").filter({ hasText: "Connection lost." })).toBeVisible({ timeout: 10_000 });
    // Three heartbeats of silence, checked every second.
    expect(Date.now() - stoppedAt).toBeLessThan(4000);
    await expect(connection).not.toHaveAccessibleName("Connection: Connected");
    // A prompt written meanwhile waits, and says so.
    await prompt.fill("Still there?");
    await prompt.press("Enter");
    await expect(page.getByRole("status").filter({ hasText: "Sends as soon as pi is reachable" })).toBeVisible();

    pier.signal("SIGCONT");
    await expect(connection).toHaveAccessibleName("Connection: Connected", { timeout: 20_000 });
    await expect(page.getByRole("status").filter({ hasText: "Connection lost." })).toBeHidden();
    // Caught up from the relay's replay, and the waiting prompt went out, once.
    await expect(conversation.getByRole("article", { name: "You" })).toHaveText(["Hello", "Still there?"]);
    await expect(conversation.getByRole("article", { name: "pi" })).toHaveCount(2);
    await expect(conversation.getByRole("article", { name: "pi" }).last()).toContainText("Another answer from the scripted model.");
  } finally {
    pier.signal("SIGCONT");
    await pier.stop();
  }
});
