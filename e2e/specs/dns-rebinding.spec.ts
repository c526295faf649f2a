import { chromiumLaunchOptions } from "../support/chromium.ts";
import { expect, test } from "../support/pier.ts";

// A rebinding attack: a name the attacker controls resolves to 127.0.0.1, so
// the browser treats pier as that name's origin. The Host check refuses it.
test.use({ launchOptions: chromiumLaunchOptions(["--host-resolver-rules=MAP rebound.test 127.0.0.1"]) });

test("a foreign name that resolves to 127.0.0.1 is refused, even with the right token", async ({ page, pier }) => {
  const response = await page.goto(`http://rebound.test:${pier.port}/?token=${pier.token}`);
  expect(response?.status()).toBe(403);
  await expect(page.getByText("Host is not allowed")).toBeVisible();
  expect(await page.context().cookies()).toEqual([]);
});
