// Images in prompts: attached with the "Attach image" button (file picker),
// pasted or dropped onto the prompt box, previewed as removable thumbnails,
// sent on the `prompt` command, shown in the transcript, and received by pi
// (checked with pi's own get_messages over a second connection).
import type { Page } from "@playwright/test";
import { commandId, connectBrowser, type Browser, type PiRecord } from "../../relay/test/support/pier-process.ts";
import { solidPng } from "../support/png.ts";
import { expect, test } from "../support/pier.ts";
import { openViewer } from "../support/viewer-link.ts";

const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });
const attached = (page: Page) => page.getByRole("list", { name: "Attached images" });

async function piMessages(pi: Browser): Promise<PiRecord[]> {
  const id = commandId("images");
  pi.send({ id, type: "get_messages" });
  const response = await pi.waitForRecord((r) => r.type === "response" && r.id === id);
  expect(response.success).toBe(true);
  return response.data.messages;
}

async function openReady(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
}

test("an image attached with the file picker is previewed, sent with the prompt, shown, and pi has it", async ({ page, pier }) => {
  const red = solidPng(24, 16, [220, 30, 30]);
  const blue = solidPng(8, 8, [30, 30, 220]);
  const pi = await connectBrowser(pier);
  try {
    await openReady(page, pier.url);

    // Two images through the file picker; the second is removed again.
    for (const [name, buffer] of [
      ["red.png", red],
      ["blue.png", blue],
    ] as const) {
      const chooser = page.waitForEvent("filechooser");
      await page.getByRole("button", { name: "Attach image" }).click();
      await (await chooser).setFiles({ name, mimeType: "image/png", buffer });
      await expect(attached(page).getByRole("img", { name })).toBeVisible();
    }
    await expect(attached(page).getByRole("listitem")).toHaveCount(2);
    await page.getByRole("button", { name: "Remove blue.png" }).click();
    await expect(attached(page).getByRole("listitem")).toHaveCount(1);
    const thumb = attached(page).getByRole("img", { name: "red.png" });
    await expect.poll(() => thumb.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(24);

    const prompt = page.getByRole("textbox", { name: "Prompt" });
    await prompt.fill("What colour is this square?");
    await prompt.press("Enter");

    // The box is cleared; the transcript shows the prompt with its image.
    await expect(attached(page)).toHaveCount(0);
    const mine = conversation(page).getByRole("article", { name: "You" }).last();
    await expect(mine).toContainText("What colour is this square?");
    const shown = mine.getByRole("img", { name: "Attached image 1" });
    await expect(shown).toBeVisible();
    await expect.poll(() => shown.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(24);
    expect(await shown.getAttribute("src")).toBe(`data:image/png;base64,${red.toString("base64")}`);
    await expect(conversation(page).getByRole("article", { name: "pi" }).last()).toContainText("Hello from the scripted model!");
    // The demo's default model reads images: nothing says otherwise.
    await expect(conversation(page).getByRole("note").filter({ hasText: "not sent" })).toHaveCount(0);

    // pi kept the image, byte for byte, in the user message.
    const messages = await piMessages(pi);
    const user = messages.findLast((m) => m.role === "user");
    expect(user).toBeDefined();
    const blocks = user!.content as PiRecord[];
    expect(blocks).toContainEqual({ type: "text", text: "What colour is this square?" });
    expect(blocks.filter((b) => b.type === "image")).toEqual([{ type: "image", mimeType: "image/png", data: red.toString("base64") }]);
  } finally {
    await pi.close();
  }
});

test("an image can be pasted or dropped onto the prompt box; other files are refused in words", async ({ page, pier }) => {
  const green = solidPng(10, 10, [30, 200, 30]).toString("base64");
  await openReady(page, pier.url);
  const prompt = page.getByRole("textbox", { name: "Prompt" });

  // Paste: a clipboard holding only an image file (a screenshot) attaches it.
  await prompt.evaluate((textarea, base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], "pasted.png", { type: "image/png" }));
    textarea.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, green);
  await expect(attached(page).getByRole("img", { name: "pasted.png" })).toBeVisible();

  // Drop: an image and a text file; the image is attached, the text file named as refused.
  const box = page.getByRole("form", { name: "Prompt box" });
  await box.evaluate((form, base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], "dropped.png", { type: "image/png" }));
    data.items.add(new File(["hello"], "notes.txt", { type: "text/plain" }));
    for (const type of ["dragenter", "dragover", "drop"]) {
      form.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
    }
  }, green);
  await expect(attached(page).getByRole("img", { name: "dropped.png" })).toBeVisible();
  await expect(attached(page).getByRole("listitem")).toHaveCount(2);
  await expect(page.getByRole("alert").filter({ hasText: "Only PNG, JPEG, GIF and WebP images can be attached (not notes.txt)" })).toBeVisible();

  // Images alone (no text) can be sent.
  await page.getByRole("button", { name: "Send" }).click();
  const mine = conversation(page).getByRole("article", { name: "You" }).last();
  await expect(mine.getByRole("img")).toHaveCount(2);
  await expect(attached(page)).toHaveCount(0);
});

test("an image for a model that reads text only is flagged before sending and marked on the message, after a reload and for a viewer too", async ({ page, pier, browser }) => {
  const red = solidPng(12, 12, [220, 30, 30]);
  await openReady(page, pier.url);
  const attach = async (name: string) => {
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Attach image" }).click();
    await (await chooser).setFiles({ name, mimeType: "image/png", buffer: red });
    await expect(attached(page).getByRole("img", { name })).toBeVisible();
  };
  const strip = page.getByRole("form", { name: "Prompt box" }).getByRole("note");

  // The default model reads images: the strip says nothing.
  await attach("first.png");
  await expect(strip).toHaveCount(0);

  // The demo's fast model reads text only (models.json input ["text"]); the picker says so before choosing it.
  await page.getByRole("button", { name: /^Model: / }).click();
  const picker = page.getByRole("dialog", { name: "Choose a model" });
  await expect(picker.getByRole("option", { name: /fast/ })).toContainText("text only, no images");
  await expect(picker.getByRole("option", { name: /fast/ })).toHaveCount(1);
  await expect(picker.getByRole("option", { selected: true })).not.toContainText("text only");
  await picker.getByRole("option", { name: /fast/ }).click();
  await expect(page.getByRole("button", { name: /^Model: / })).toHaveAccessibleName("Model: Pier demo model (fast) from pier-demo — change model");

  // With the image already attached, the strip now warns, in words, before anything is sent.
  await expect(strip).toHaveText("Pier demo model (fast) reads text only: pi will not send this image to it, only your text. Choose a model that reads images to send it.");
  await attach("second.png");
  await expect(strip).toContainText("pi will not send these 2 images to it");

  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("What is in these pictures?");
  await prompt.press("Enter");
  await expect(conversation(page).getByRole("article", { name: "pi" }).last()).toContainText("Hello from the scripted model!");

  // The message shows its images, and says they never reached the model.
  const mark = "2 images not sent: Pier demo model (fast) reads text only.";
  const mine = conversation(page).getByRole("group", { name: "Your message" }).last();
  await expect(mine.getByRole("img")).toHaveCount(2);
  await expect(mine.getByRole("note")).toHaveText(mark);

  // Back on the model that reads images: the old message keeps its mark (the fast model answered it), also after a reload.
  await page.getByRole("button", { name: /^Model: / }).click();
  await picker.getByRole("option", { name: "Pier demo model", exact: false }).filter({ hasNotText: "fast" }).click();
  await expect(page.getByRole("button", { name: /^Model: / })).toHaveAccessibleName("Model: Pier demo model from pier-demo — change model");
  await expect(mine.getByRole("note")).toHaveText(mark);
  await page.reload();
  await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();
  await expect(conversation(page).getByRole("group", { name: "Your message" }).last().getByRole("note")).toHaveText(mark);

  // A viewer reads the same mark (the page reads it from pi's answer, nothing new is asked of the relay).
  const viewer = await openViewer(page, browser);
  await expect(conversation(viewer).getByRole("note").filter({ hasText: "not sent" })).toHaveText([mark]);
});
