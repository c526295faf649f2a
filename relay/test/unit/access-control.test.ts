import { describe, expect, it } from "vitest";
import {
  checkAccess,
  cookieName,
  createAccessKeys,
  isAllowedHost,
  isSameOrigin,
  readCookie,
  secretsEqual,
  sessionCookieHeader,
  type AccessRequest,
} from "../../src/access-control.ts";

const port = 4321;
const keys = createAccessKeys();
const good: AccessRequest = {
  host: `127.0.0.1:${port}`,
  origin: `http://127.0.0.1:${port}`,
  secFetchSite: "same-origin",
  cookie: `other=1; ${cookieName(port)}=${keys.cookieValue}`,
  isWebSocket: true,
};

describe("access keys", () => {
  it("are fresh, at least 128 bits, and distinct for URL and cookie", () => {
    const other = createAccessKeys();
    expect(other.token).not.toBe(keys.token);
    expect(Buffer.from(keys.token, "base64url").length).toBeGreaterThanOrEqual(16);
    expect(keys.cookieValue).not.toBe(keys.token);
  });

  it("make an HttpOnly, SameSite=Strict cookie scoped by port", () => {
    const header = sessionCookieHeader(port, keys.cookieValue);
    expect(header).toContain("HttpOnly");
    expect(header).toContain("SameSite=Strict");
    expect(header.startsWith(`pier_${port}=`)).toBe(true);
  });
});

describe("secretsEqual and readCookie", () => {
  it("compare exactly", () => {
    expect(secretsEqual(keys.token, keys.token)).toBe(true);
    expect(secretsEqual(keys.token.slice(1), keys.token)).toBe(false);
    expect(secretsEqual(undefined, keys.token)).toBe(false);
    expect(secretsEqual("", keys.token)).toBe(false);
  });

  it("find a cookie among others", () => {
    expect(readCookie("a=1; pier_1=xyz; b=2", "pier_1")).toBe("xyz");
    expect(readCookie("xpier_1=nope", "pier_1")).toBeUndefined();
    expect(readCookie(undefined, "pier_1")).toBeUndefined();
  });
});

describe("isAllowedHost", () => {
  it.each([
    [`127.0.0.1:${port}`, true],
    [`localhost:${port}`, true],
    [`LOCALHOST:${port}`, true],
    [`[::1]:${port}`, true],
    [`192.168.1.20:${port}`, true],
    [`127.0.0.1:${port + 1}`, false],
    ["127.0.0.1", false],
    [`evil.example:${port}`, false],
    [`localhost.evil.example:${port}`, false],
    [`127.0.0.1.nip.io:${port}`, false],
    [`user@127.0.0.1:${port}`, false],
    ["", false],
  ])("%s -> %s", (host, allowed) => {
    expect(isAllowedHost(host, port)).toBe(allowed);
  });

  it("refuses a missing Host", () => {
    expect(isAllowedHost(undefined, port)).toBe(false);
  });
});

describe("isSameOrigin", () => {
  it("needs http://<host> exactly", () => {
    expect(isSameOrigin(`http://127.0.0.1:${port}`, `127.0.0.1:${port}`)).toBe(true);
    expect(isSameOrigin(`http://localhost:${port}`, `127.0.0.1:${port}`)).toBe(false);
    expect(isSameOrigin(`https://127.0.0.1:${port}`, `127.0.0.1:${port}`)).toBe(false);
    expect(isSameOrigin("null", `127.0.0.1:${port}`)).toBe(false);
    expect(isSameOrigin(undefined, `127.0.0.1:${port}`)).toBe(false);
  });
});

describe("checkAccess", () => {
  it("allows the page's own WebSocket with the cookie", () => {
    expect(checkAccess(good, port, keys)).toEqual({ allow: true });
  });

  it("refuses a WebSocket without the cookie (401)", () => {
    expect(checkAccess({ ...good, cookie: undefined }, port, keys)).toMatchObject({ allow: false, status: 401 });
    expect(checkAccess({ ...good, cookie: `${cookieName(port)}=${keys.token}` }, port, keys)).toMatchObject({ allow: false, status: 401 });
    expect(checkAccess({ ...good, cookie: `${cookieName(port + 1)}=${keys.cookieValue}` }, port, keys)).toMatchObject({ allow: false, status: 401 });
  });

  it("refuses a WebSocket from a foreign or missing Origin (403), cookie or not", () => {
    expect(checkAccess({ ...good, origin: "http://evil.example" }, port, keys)).toMatchObject({ allow: false, status: 403 });
    expect(checkAccess({ ...good, origin: undefined }, port, keys)).toMatchObject({ allow: false, status: 403 });
  });

  it("refuses a foreign Host (DNS rebinding) even with cookie and matching Origin", () => {
    const rebound = { ...good, host: `evil.example:${port}`, origin: `http://evil.example:${port}` };
    expect(checkAccess(rebound, port, keys)).toMatchObject({ allow: false, status: 403 });
  });

  it("lets plain page loads omit Origin but refuses cross-site ones", () => {
    const page = { ...good, isWebSocket: false, origin: undefined, secFetchSite: "none" };
    expect(checkAccess(page, port, keys)).toEqual({ allow: true });
    expect(checkAccess({ ...page, secFetchSite: "cross-site" }, port, keys)).toMatchObject({ allow: false, status: 403 });
    expect(checkAccess({ ...page, origin: "http://evil.example" }, port, keys)).toMatchObject({ allow: false, status: 403 });
    expect(checkAccess({ ...page, cookie: undefined }, port, keys)).toMatchObject({ allow: false, status: 401 });
  });
});
