// Who may reach the relay: a printed link's token is traded once for a cookie; the
// WebSocket and every page need that cookie, an allowed Host, and (for the
// WebSocket) the relay's own Origin. Static files never leave web/dist.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attemptUpgrade, connectBrowser, httpGet, startPier, type RunningPier } from "../support/pier-process.ts";

const WEB_DIST = fileURLToPath(new URL("../../../web/dist", import.meta.url));
const webBuilt = existsSync(`${WEB_DIST}/index.html`);
/** Files just outside web/dist that a traversal would reach. */
const OUTSIDE = ["../../../web/package.json", "../../../package.json", "../../package.json"].map((path) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), "utf8"));

describe("access control", () => {
  let pier: RunningPier;
  beforeAll(async () => {
    pier = await startPier(["--demo"]);
  });
  afterAll(async () => {
    await pier?.stop();
  });

  describe("the token exchange", () => {
    it("trades the printed token for an HttpOnly, SameSite=Strict cookie named after the port", async () => {
      const response = await fetch(pier.url, { redirect: "manual" });
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe("/");
      const cookie = response.headers.get("set-cookie") ?? "";
      expect(cookie).toMatch(new RegExp(`^pier_${pier.port}=[A-Za-z0-9_-]{20,};`));
      expect(cookie).toContain("HttpOnly");
      expect(cookie).toContain("SameSite=Strict");
      // The cookie is not the token: the secret never has to travel again.
      expect(cookie).not.toContain(pier.token);
    });

    it("answers a wrong token with a 401 page and no cookie", async () => {
      const wrong = new URL(pier.url);
      wrong.searchParams.set("token", "not-the-secret");
      const response = await fetch(wrong, { redirect: "manual" });
      expect(response.status).toBe(401);
      expect(response.headers.get("set-cookie")).toBeNull();
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await response.text()).toMatch(/not one this pier issued[\s\S]*press Enter/);
    });

    it("a link works once: used again it opens nothing and says how to get a fresh one", async () => {
      const link = await pier.freshUrl();
      expect((await fetch(link, { redirect: "manual" })).status).toBe(303);
      const again = await fetch(link, { redirect: "manual" });
      expect(again.status).toBe(401);
      expect(again.headers.get("set-cookie")).toBeNull();
      expect(await again.text()).toMatch(/used already[\s\S]*press Enter: it prints a fresh link/);
      // A browser already signed in that reopens a spent link just goes in.
      const signedIn = await httpGet(pier, new URL(link).pathname + new URL(link).search, { Cookie: pier.cookie });
      expect(signedIn.status).toBe(303);
      expect(signedIn.headers["set-cookie"]).toBeUndefined();
    });

    it("prints a fresh, different link on demand (Enter on pier's standard input), only on stdout", async () => {
      const [a, b] = [await pier.freshUrl(), await pier.freshUrl()];
      expect(a).not.toBe(b);
      expect(a).toMatch(/^http:\/\/pier-[a-z2-7]{10}\.localhost:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
      expect(pier.stderr.join("\n")).not.toContain(new URL(a).searchParams.get("token")!);
    });

    it("refuses the right token under a foreign Host (DNS rebinding) with 403 and no cookie", async () => {
      const token = new URL(await pier.freshUrl()).searchParams.get("token")!;
      const answer = await httpGet(pier, `/?token=${token}`, { Host: `evil.example:${pier.port}` });
      expect(answer.status).toBe(403);
      expect(answer.headers["set-cookie"]).toBeUndefined();
      // Refused there, the link is not spent.
      expect((await httpGet(pier, `/?token=${token}`)).status).toBe(303);
    });
  });

  describe("the WebSocket upgrade", () => {
    it("opens with the cookie, the relay's Origin and an allowed Host", async () => {
      const browser = await connectBrowser(pier);
      expect(browser.hello.protocolVersion).toBe(1);
      await browser.close();
      // localhost and 127.0.0.1 are not pier's name: their cookies would be every local port's (host-names.contract.test.ts).
      const local = await attemptUpgrade(pier, { host: `localhost:${pier.port}`, origin: `http://localhost:${pier.port}` });
      expect(local.status).toBe(403);
    });

    it("refuses a missing cookie with 401", async () => {
      expect((await attemptUpgrade(pier, { cookie: null })).status).toBe(401);
    });

    it("refuses a wrong cookie value and the raw token as a cookie with 401", async () => {
      expect((await attemptUpgrade(pier, { cookie: `pier_${pier.port}=forged` })).status).toBe(401);
      expect((await attemptUpgrade(pier, { cookie: `pier_${pier.port}=${pier.token}` })).status).toBe(401);
      // Another pier instance's cookie name does not count.
      const value = pier.cookie.split("=")[1];
      expect((await attemptUpgrade(pier, { cookie: `pier_${pier.port + 1}=${value}` })).status).toBe(401);
    });

    it("refuses a foreign or missing Origin with 403, cookie or not", async () => {
      expect((await attemptUpgrade(pier, { origin: "http://evil.example" })).status).toBe(403);
      expect((await attemptUpgrade(pier, { origin: `https://${pier.host}` })).status).toBe(403);
      expect((await attemptUpgrade(pier, { origin: null })).status).toBe(403);
    });

    it("refuses a foreign Host with 403 even with a matching Origin", async () => {
      const host = `evil.example:${pier.port}`;
      expect((await attemptUpgrade(pier, { host })).status).toBe(403);
      expect((await attemptUpgrade(pier, { host, origin: `http://${host}` })).status).toBe(403);
      // Another port on pier's name is a tunnel's (ssh -L 8080:127.0.0.1:<port>): allowed, with its own Origin.
      const tunnel = `${pier.hostname}:${pier.port + 1}`;
      expect((await attemptUpgrade(pier, { host: tunnel, origin: `http://${tunnel}` })).status).toBe("open");
      expect((await attemptUpgrade(pier, { host: tunnel, origin: pier.origin })).status).toBe(403);
    });

    it("refuses any other path with 400", async () => {
      expect((await attemptUpgrade(pier, { path: "/socket" })).status).toBe(400);
    });
  });

  describe("pages", () => {
    it("refuses GET / without the cookie with 401", async () => {
      const answer = await httpGet(pier, "/");
      expect(answer.status).toBe(401);
      expect(answer.headers["set-cookie"]).toBeUndefined();
      expect(answer.headers["content-security-policy"]).toContain("default-src 'none'");
    });

    it("refuses a cookie-carrying request from another origin with 403", async () => {
      expect((await httpGet(pier, "/", { Cookie: pier.cookie, Origin: "http://evil.example" })).status).toBe(403);
      expect((await httpGet(pier, "/", { Cookie: pier.cookie, "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
      expect((await httpGet(pier, "/", { Cookie: pier.cookie, Host: `evil.example:${pier.port}` })).status).toBe(403);
    });

    it(`serves / with the cookie, with a Content-Security-Policy (web app ${webBuilt ? "built" : "not built"})`, async () => {
      const answer = await httpGet(pier, "/", { Cookie: pier.cookie });
      expect(answer.headers["content-security-policy"]).toMatch(/default-src 'none'.*script-src 'self'.*frame-ancestors 'none'/);
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
      if (webBuilt) {
        expect(answer.status).toBe(200);
        expect(answer.headers["content-type"]).toMatch(/^text\/html/);
        expect(answer.body).toBe(readFileSync(`${WEB_DIST}/index.html`, "utf8"));
        expect(answer.headers["cache-control"]).toBe("no-store");
      } else {
        expect(answer.status).toBe(503);
        expect(answer.body).toMatch(/not built/);
      }
    });

    it.each([
      "/../package.json",
      "/../../package.json",
      "/%2e%2e/%2e%2e/package.json",
      "/%2e%2e/package.json",
      "/..%2fpackage.json",
      "/..%2f..%2fpackage.json",
      "/%2e%2e%2f%2e%2e%2frelay%2fpackage.json",
      "/..%5c..%5cpackage.json",
      "/assets/../../package.json",
      "//etc/passwd",
      "/%2fetc%2fpasswd",
      "/index.html%00.json",
    ])("never serves a file outside web/dist for %s", async (path) => {
      const answer = await httpGet(pier, path, { Cookie: pier.cookie });
      // 400 (undecodable) or 404; an extension-less path is an SPA route and
      // gets web/dist/index.html itself; 503 only while the app is not built.
      if (answer.status === 200) {
        expect(webBuilt).toBe(true);
        expect(answer.body).toBe(readFileSync(`${WEB_DIST}/index.html`, "utf8"));
      } else {
        expect([400, 404, ...(webBuilt ? [] : [503])]).toContain(answer.status);
      }
      for (const outside of OUTSIDE) expect(answer.body).not.toContain(outside.slice(0, 40));
      expect(answer.body).not.toMatch(/root:.*:0:0:/);
    });
  });
});
