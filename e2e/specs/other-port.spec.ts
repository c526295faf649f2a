// Issue 31, hole 7: a server on another local port could obtain pier's
// session cookie (cookies are scoped by host name, not port: Chromium sent
// `pier_<port>` to every server on 127.0.0.1) and shadow it (a page there set
// a cookie of the same name with a longer Path, which Chromium sends first,
// and the relay read only the first: the user was locked out). pier now names
// itself `pier-<random>.localhost` (relay/src/launch-host.ts), which Chromium
// resolves to loopback by itself, and tries every value of its cookie.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { expect, test } from "../support/pier.ts";

/** "Another local port": a dev server the agent started, say. It records the Cookie header of every request. */
async function startOtherServer(): Promise<{ port: number; cookies: string[]; close(): Promise<void> }> {
  const cookies: string[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    cookies.push(request.headers.cookie ?? "");
    response.writeHead(200, { "Content-Type": "text/html" });
    response.end("<!doctype html><title>another local server</title><p>elsewhere</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cookies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const connected = (page: Page) => expect(page.getByRole("status", { name: "Connection: Connected" })).toBeVisible();

test("pier's link opens under its own name, resolved by Chromium itself", async ({ page, pier }) => {
  expect(new URL(pier.url).hostname).toMatch(/^pier-[a-z2-7]{10}\.localhost$/);
  await page.goto(pier.url);
  expect(page.url()).toBe(`${pier.origin}/`);
  await connected(page);
  const cookies = await page.context().cookies();
  expect(cookies.map(({ name, domain }) => ({ name, domain }))).toEqual([{ name: `pier_${pier.port}`, domain: pier.hostname }]);
});

test("a server on another local port never receives pier's cookie", async ({ page, pier }) => {
  const other = await startOtherServer();
  try {
    await page.goto(pier.url);
    await connected(page);
    // The user opens the dev server's page, by either loopback name.
    for (const host of ["127.0.0.1", "localhost"]) {
      await page.goto(`http://${host}:${other.port}/`);
      await expect(page.getByText("elsewhere")).toBeVisible();
    }
    // And a page of pier's makes a request there (an <img> in a rendered answer, say).
    await page.goto(`${pier.origin}/`);
    await connected(page);
    expect(other.cookies.length).toBeGreaterThanOrEqual(2);
    for (const header of other.cookies) expect(header).not.toContain("pier_");
  } finally {
    await other.close();
  }
});

test("cookies of pier's name set by a page on another local port lock nobody out", async ({ page, pier }) => {
  const other = await startOtherServer();
  try {
    await page.goto(pier.url);
    await connected(page);
    const name = `pier_${pier.port}`;
    // Every shadow such a page can try: longer paths (sent first), the socket's path, a parent domain.
    for (const host of ["127.0.0.1", "localhost"]) {
      await page.goto(`http://${host}:${other.port}/`);
      await page.evaluate((cookieName) => {
        for (const attributes of ["path=/api", "path=/ws", "path=/api/files", "path=/", "domain=localhost; path=/ws", "domain=.localhost; path=/ws"]) {
          document.cookie = `${cookieName}=junk; ${attributes}`;
        }
      }, name);
    }
    await page.goto(`${pier.origin}/`);
    await connected(page);
    expect(await page.evaluate(() => fetch("/api/files/tree").then((response) => response.status))).toBe(200);
    // A shadow under pier's own name (a server on another port that knew the name could set one): every value is tried, the real one wins.
    await page.context().addCookies([
      { name, value: "junk", domain: pier.hostname, path: "/ws" },
      { name, value: "junk", domain: pier.hostname, path: "/api" },
    ]);
    await page.reload();
    await connected(page);
    expect(await page.evaluate(() => fetch("/api/files/tree").then((response) => response.status))).toBe(200);
  } finally {
    await other.close();
  }
});

test("a link opened at 127.0.0.1 is handed over to pier's name; the page at 127.0.0.1 says which address to use", async ({ browser, page, pier }) => {
  const typed = new URL(pier.url);
  typed.hostname = "127.0.0.1";
  await page.goto(typed.href);
  expect(page.url()).toBe(`${pier.origin}/`);
  await connected(page);
  // No cookie ever lands on 127.0.0.1.
  expect((await page.context().cookies()).map((cookie) => cookie.domain)).toEqual([pier.hostname]);
  const context = await browser.newContext();
  const other = await context.newPage();
  const response = await other.goto(`http://127.0.0.1:${pier.port}/`);
  expect(response?.status()).toBe(403);
  await expect(other.getByText("open the link pier printed (it starts with http://pier-)")).toBeVisible();
  await context.close();
});
