import { describe, expect, it } from "vitest";
import { checkAccess, cookieName, isAllowedHost, isSameOrigin, readCookie, sessionCookieHeader, type AccessRequest } from "../../src/access-control.ts";
import { AccessLinks } from "../../src/access-links.ts";

const port = 4321;
const links = new AccessLinks();
const redeemed = links.redeem(links.issue().token);
if (!redeemed.ok) throw new Error("a fresh link must redeem");
const grantFor = (cookie: string | undefined) => links.grantFor(cookie);
const good: AccessRequest = {
  host: `127.0.0.1:${port}`,
  origin: `http://127.0.0.1:${port}`,
  secFetchSite: "same-origin",
  cookie: `other=1; ${cookieName(port)}=${redeemed.cookieValue}`,
  isWebSocket: true,
};

describe("links", () => {
  it("carry fresh 256-bit secrets, each its own, and a cookie value distinct from the link's", () => {
    const a = links.issue();
    const b = links.issue();
    expect(a.token).not.toBe(b.token);
    expect(Buffer.from(a.token, "base64url").length).toBe(32);
    const spent = links.redeem(a.token);
    expect(spent.ok && spent.cookieValue).not.toBe(a.token);
  });

  it("work once: a second use is told 'used', and opens nothing", () => {
    const { token } = links.issue();
    expect(links.redeem(token)).toMatchObject({ ok: true });
    expect(links.redeem(token)).toEqual({ ok: false, reason: "used" });
  });

  it("expire, and say so; a secret never issued is 'unknown'", () => {
    let now = 1_000;
    const clock = new AccessLinks(() => now);
    const { token } = clock.issue("driver", { ttlMs: 60_000 });
    now += 60_001;
    expect(clock.redeem(token)).toEqual({ ok: false, reason: "expired" });
    for (const junk of ["", "x".repeat(300), "not-a-secret", null, undefined]) expect(clock.redeem(junk)).toEqual({ ok: false, reason: "unknown" });
  });

  it("a viewer link lets any number of browsers in, as viewers, until revoked; revoking ends their sessions too", () => {
    const { token, link } = links.issue("viewer");
    expect(link).toMatchObject({ role: "viewer", maxUses: null, revoked: false });
    const sessions = [links.redeem(token), links.redeem(token), links.redeem(token)];
    for (const session of sessions) expect(session).toMatchObject({ ok: true, grant: { role: "viewer", linkId: link.id } });
    expect(links.list().find((l) => l.id === link.id)?.uses).toBe(3);
    expect(links.revoke(link.id)).toBe(true);
    expect(links.redeem(token)).toEqual({ ok: false, reason: "revoked" });
    for (const session of sessions) if (session.ok) expect(links.grantFor(session.cookieValue)).toBeNull();
    expect(links.revoke("link-none")).toBe(false);
  });

  it("never lists a secret", () => {
    const { token } = links.issue("driver", { createdBy: "Ada" });
    const listed = JSON.stringify(links.list());
    expect(listed).not.toContain(token);
    expect(listed).toContain('"createdBy":"Ada"');
  });

  it("each redemption is its own grant, and only its cookie value carries it", () => {
    const first = links.redeem(links.issue().token);
    const second = links.redeem(links.issue().token);
    if (!first.ok || !second.ok) throw new Error("fresh links must redeem");
    expect(first.grant.id).not.toBe(second.grant.id);
    expect(links.grantFor(first.cookieValue)).toEqual(first.grant);
    expect(links.grantFor(`${first.cookieValue}x`)).toBeNull();
    expect(links.grantFor(undefined)).toBeNull();
  });

  it("make an HttpOnly, SameSite=Strict cookie scoped by port", () => {
    const header = sessionCookieHeader(port, "value");
    expect(header).toContain("HttpOnly");
    expect(header).toContain("SameSite=Strict");
    expect(header.startsWith(`pier_${port}=`)).toBe(true);
  });
});

describe("readCookie", () => {
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
    // Through a tunnel the browser names the tunnel's port (or none, on 80).
    [`127.0.0.1:${port + 1}`, true],
    ["127.0.0.1", true],
    ["localhost", true],
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
    expect(checkAccess(good, port, grantFor)).toEqual({ allow: true, grant: redeemed.grant });
  });

  it("refuses a WebSocket without the cookie (401)", () => {
    expect(checkAccess({ ...good, cookie: undefined }, port, grantFor)).toMatchObject({ allow: false, status: 401 });
    // A link secret is not a cookie, and another pier's cookie name does not count.
    const link = links.issue();
    expect(checkAccess({ ...good, cookie: `${cookieName(port)}=${link.token}` }, port, grantFor)).toMatchObject({ allow: false, status: 401 });
    expect(checkAccess({ ...good, cookie: `${cookieName(port + 1)}=${redeemed.cookieValue}` }, port, grantFor)).toMatchObject({ allow: false, status: 401 });
  });

  it("refuses a WebSocket from a foreign or missing Origin (403), cookie or not", () => {
    expect(checkAccess({ ...good, origin: "http://evil.example" }, port, grantFor)).toMatchObject({ allow: false, status: 403 });
    expect(checkAccess({ ...good, origin: undefined }, port, grantFor)).toMatchObject({ allow: false, status: 403 });
  });

  it("refuses a foreign Host (DNS rebinding) even with cookie and matching Origin", () => {
    const rebound = { ...good, host: `evil.example:${port}`, origin: `http://evil.example:${port}` };
    expect(checkAccess(rebound, port, grantFor)).toMatchObject({ allow: false, status: 403 });
  });

  it("lets plain page loads omit Origin but refuses cross-site ones", () => {
    const page = { ...good, isWebSocket: false, origin: undefined, secFetchSite: "none" };
    expect(checkAccess(page, port, grantFor)).toEqual({ allow: true, grant: redeemed.grant });
    expect(checkAccess({ ...page, secFetchSite: "cross-site" }, port, grantFor)).toMatchObject({ allow: false, status: 403 });
    expect(checkAccess({ ...page, origin: "http://evil.example" }, port, grantFor)).toMatchObject({ allow: false, status: 403 });
    expect(checkAccess({ ...page, cookie: undefined }, port, grantFor)).toMatchObject({ allow: false, status: 401 });
  });
});
