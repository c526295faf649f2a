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
