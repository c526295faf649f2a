// The Share dialog while a link is being made: closed and opened again
// before the relay answers, it says the link is being made and shows no
// earlier link (which, copied at once, would be the wrong one). The relay,
// pi and Chromium are real; the page's sockets pass through Playwright's
// WebSocket route, which holds the relay's frames from the new link's
// answer on, in order, until the test lets them go.
import type { Page } from "@playwright/test";
import { expect, test } from "../support/pier.ts";

const connected = (page: Page) => page.getByRole("status", { name: "Connection: Connected" });

test("the Share dialog opened again while a link is being made shows no earlier link", async ({ page, pier }) => {
  let holding = false;
  const held: (() => void)[] = [];
  await page.routeWebSocket(/./, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => server.send(message));
    server.onMessage((message) => {
      const answer = typeof message === "string" && message.includes('"type":"link_created"');
      if (held.length > 0 || (holding && answer)) held.push(() => ws.send(message));
      else ws.send(message);
    });
  });
  await page.goto(pier.url);
  await expect(connected(page)).toBeVisible();

  const share = page.getByRole("dialog", { name: "Share" });
  const address = share.getByRole("textbox", { name: "Link address" });
  await page.getByRole("button", { name: "Share" }).click();
  await share.getByRole("button", { name: "Create viewer link" }).click();
  await expect(address).toHaveValue(/\?token=/);
  const first = await address.inputValue();
  await share.getByRole("button", { name: "Close" }).click();

  holding = true;
  await page.getByRole("button", { name: "Share" }).click();
  await share.getByRole("button", { name: "Create viewer link" }).click();
  await expect(share.getByRole("status").filter({ hasText: "Making a viewer link" })).toBeVisible();
  await expect(address).toHaveCount(0);
  await expect.poll(() => held.length, { message: "the relay's answer reached the route and waits" }).toBeGreaterThan(0);
  // Closed and opened again before the answer: still waiting, the first link nowhere.
  await share.getByRole("button", { name: "Close" }).click();
  await page.getByRole("button", { name: "Share" }).click();
  await expect(share.getByRole("status").filter({ hasText: "Making a viewer link" })).toBeVisible();
  await expect(address).toHaveCount(0);

  holding = false;
  for (const send of held.splice(0)) send();
  await expect(address).toHaveValue(/\?token=/);
  expect(await address.inputValue()).not.toBe(first);
});

test("a link made grows the Share dialog downwards: its buttons stay under the pointer that clicked", async ({ page, pier }) => {
  await page.goto(pier.url);
  await expect(connected(page)).toBeVisible();
  await page.getByRole("button", { name: "Share" }).click();
  const share = page.getByRole("dialog", { name: "Share" });
  const create = share.getByRole("button", { name: "Create viewer link" });
  const before = { button: await create.boundingBox(), dialog: await share.boundingBox() };
  await create.click();
  await expect(share.getByRole("textbox", { name: "Link address" })).toHaveValue(/\?token=/);
  await expect(share.getByRole("img", { name: "QR code of the viewer link" })).toBeVisible();
  const after = { button: await create.boundingBox(), dialog: await share.boundingBox() };
  // The link and its QR code came in below the buttons; a centred dialog moved up by half of what it grew.
  expect(after.dialog!.height).toBeGreaterThan(before.dialog!.height + 100);
  expect(after.button).toEqual(before.button);
  expect(after.dialog!.y).toBe(before.dialog!.y);
});
