// Naming the session and starting a new one from Session settings, with two
// browsers on the same pi (a pair-programming demo): both follow the switch.
// Every change is checked by asking pi itself over a third connection.
import type { Page } from "@playwright/test";
import { commandId, connectBrowser, type Browser, type PiRecord } from "../../relay/test/support/pier-process.ts";
import { expect, test } from "../support/pier.ts";

const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });
const agent = (page: Page) => page.getByRole("status", { name: /^Agent:/ });

async function piState(pi: Browser): Promise<PiRecord> {
  const id = commandId("sessions");
  pi.send({ id, type: "get_state" });
  const response = await pi.waitForRecord((r) => r.type === "response" && r.id === id);
  return response.data;
}

async function send(page: Page, text: string) {
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill(text);
  await prompt.press("Enter");
}

test("name the session, then start a new one: every browser shows the empty session, and it answers", async ({ page, pier, browser }) => {
  const pi = await connectBrowser(pier);
  const other = await (await browser.newContext()).newPage();
  try {
    await page.goto(pier.url);
    await other.goto(await pier.freshUrl());
    await send(page, "hello");
    await expect(conversation(page).getByRole("article", { name: "pi" })).toContainText("Hello from the scripted model!");
    await expect(conversation(other).getByRole("article", { name: "pi" })).toContainText("Hello from the scripted model!");
    await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
    const before = await piState(pi);

    await page.getByRole("button", { name: "Session settings" }).click();
    const dialog = page.getByRole("dialog", { name: "Session settings" });
    await dialog.getByRole("textbox", { name: "Name" }).fill("Greeter refactor");
    await dialog.getByRole("button", { name: "Save name" }).click();
    await expect.poll(async () => (await piState(pi)).sessionName).toBe("Greeter refactor");
    await expect(dialog.getByRole("button", { name: "Save name" })).toBeDisabled();

    // Asked first; "Keep this one" changes nothing.
    await dialog.getByRole("button", { name: "New session…" }).click();
    await dialog.getByRole("button", { name: "Keep this one" }).click();
    expect((await piState(pi)).sessionId).toBe(before.sessionId);

    await dialog.getByRole("button", { name: "New session…" }).click();
    await expect(dialog.getByRole("group", { name: "Start a new session?" })).toContainText("This one stays in Sessions");
    await dialog.getByRole("button", { name: "Start new session" }).click();
    await expect(dialog.getByRole("status")).toHaveText("New session started.");
    const after = await piState(pi);
    expect(after.sessionId).not.toBe(before.sessionId);
    expect(after.sessionName ?? null).toBeNull();
    await expect(dialog.getByRole("textbox", { name: "Name" })).toHaveValue("");
    await page.keyboard.press("Escape");

    // Both browsers show the new, empty session.
    for (const p of [page, other]) {
      await expect(conversation(p).getByRole("article")).toHaveCount(0);
      await expect(conversation(p)).toContainText("What should pi work on?");
    }

    // The other browser carries on in it. The model sees a first prompt again
    // (the scenario answers prompt number 1 with its hello): the old
    // conversation is out of pi's context, and pi holds only the new exchange.
    await send(other, "and now?");
    // Another browser's prompt, named after its sender: drivers that gave no name are numbered as they
    // came (this test's own connection to pi was "Driver", this page "Driver 2", the other "Driver 3").
    await expect(conversation(page).getByRole("article", { name: "Driver 3" })).toHaveText(["and now?"]);
    await expect(conversation(page).getByRole("article", { name: "pi" })).toContainText("Hello from the scripted model!");
    await expect(agent(page)).toHaveAccessibleName("Agent: Idle");
    const id = commandId("sessions");
    pi.send({ id, type: "get_messages" });
    const messages = (await pi.waitForRecord((r) => r.type === "response" && r.id === id)).data.messages as { role: string }[];
    expect(messages.filter((m) => m.role !== "system").map((m) => m.role)).toEqual(["user", "assistant"]);
  } finally {
    await other.context().close();
    await pi.close();
  }
});
