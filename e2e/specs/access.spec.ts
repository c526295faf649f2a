import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { attemptUpgrade } from "../../relay/test/support/pier-process.ts";
import { expect, test } from "../support/pier.ts";

test("the printed URL authorizes this browser; the secret leaves the address bar and reloads stay authorized", async ({ page, pier }) => {
  await page.goto(pier.url);
  expect(page.url()).toBe(`${pier.origin}/`);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const cookies = await page.context().cookies();
  const session = cookies.find((cookie) => cookie.name === `pier_${pier.port}`);
  expect(session).toMatchObject({ httpOnly: true, sameSite: "Strict" });
  expect(session?.value).not.toBe(pier.token);
  await page.reload();
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
});

test("a browser without the cookie gets a clear refusal, not the IDE", async ({ browser, pier }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const response = await page.goto(`${pier.origin}/`);
  expect(response?.status()).toBe(401);
  await expect(page.getByRole("heading", { name: "Not authorized" })).toBeVisible();
  await expect(page.getByText("press Enter in pier's terminal for a fresh one")).toBeVisible();
  await context.close();
});

test("a link works once: a second browser opening it is told it was used and how to get a fresh one", async ({ browser, page, pier }) => {
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const context = await browser.newContext();
  const other = await context.newPage();
  const response = await other.goto(pier.url);
  expect(response?.status()).toBe(401);
  await expect(other.getByRole("heading", { name: "This link does not open Pier" })).toBeVisible();
  await expect(other.getByText(/used already/)).toBeVisible();
  // A fresh link from pier's terminal opens it.
  await other.goto(await pier.freshUrl());
  await expect(other.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  await context.close();
});

test("a page from another local origin cannot open pier's WebSocket", async ({ page, pier }) => {
  // Authorize this browser first, so the SameSite cookie exists. (Since pier
  // names itself pier-<random>.localhost, a page on 127.0.0.1 is another site
  // and the cookie stays home; the Origin check below holds on its own.)
  await page.goto(pier.url);
  await expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();
  const evil: Server = createServer((_request, response) => {
    response.writeHead(200, { "Content-Type": "text/html" });
    response.end("<!doctype html><title>elsewhere</title>");
  });
  await new Promise<void>((resolve) => evil.listen(0, "127.0.0.1", resolve));
  try {
    const evilPort = (evil.address() as AddressInfo).port;
    await page.goto(`http://127.0.0.1:${evilPort}/`);
    const outcome = await page.evaluate(
      (target) =>
        new Promise<string>((resolve) => {
          const socket = new WebSocket(target);
          socket.onopen = () => resolve("opened");
          socket.onclose = (event) => resolve(`closed ${event.code}`);
        }),
      `ws://${pier.host}/ws`,
    );
    expect(outcome).toBe("closed 1006");
  } finally {
    evil.close();
  }
});

test("WebSocket upgrades without the cookie, with a foreign Origin or with a foreign Host are refused", async ({ pier }) => {
  expect((await attemptUpgrade(pier, { cookie: null })).status).toBe(401);
  expect((await attemptUpgrade(pier, { origin: "http://evil.example" })).status).toBe(403);
  expect((await attemptUpgrade(pier, { host: `evil.example:${pier.port}`, origin: `http://evil.example:${pier.port}` })).status).toBe(403);
  expect((await attemptUpgrade(pier)).status).toBe("open");
});
