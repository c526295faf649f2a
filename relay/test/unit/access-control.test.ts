import { describe, expect, it } from "vitest";
import { checkAccess, cookieName, hostKind, isAllowedHost, isSameOrigin, readCookies, sessionCookieHeader, type AccessRequest } from "../../src/access-control.ts";
import { AccessLinks } from "../../src/access-links.ts";
import { newLaunchHostName, printedHost, siteNamesFor, type Site } from "../../src/launch-host.ts";

const port = 4321;
const name = "pier-abcdefgh23.localhost";
/** A pier on loopback (the default): its own name is the way in. */
const site: Site = { port, launchHost: name, addressesOpen: false };
/** `--host 192.168.1.20`: IP addresses are the way in, no name. */
const lan: Site = { port, launchHost: null, addressesOpen: true };
/** `--host 0.0.0.0`: both. */
const everyAddress: Site = { port, launchHost: name, addressesOpen: true };
const links = new AccessLinks();
const redeemed = links.redeem(links.issue().token);
if (!redeemed.ok) throw new Error("a fresh link must redeem");
const grantFor = (cookie: string | undefined) => links.grantFor(cookie);
const good: AccessRequest = {
  host: `${name}:${port}`,
  origin: `http://${name}:${port}`,
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

describe("readCookies", () => {
  it("find every value of a cookie among others, in order", () => {
    expect(readCookies("a=1; pier_1=xyz; b=2", "pier_1")).toEqual(["xyz"]);
    expect(readCookies("pier_1=junk; a=1; pier_1=xyz", "pier_1")).toEqual(["junk", "xyz"]);
    expect(readCookies("xpier_1=nope", "pier_1")).toEqual([]);
    expect(readCookies(undefined, "pier_1")).toEqual([]);
  });
});

describe("the per-launch host name", () => {
  it("is pier-<10 lowercase base32 characters>.localhost, new at every launch", () => {
    const names = new Set(Array.from({ length: 50 }, () => newLaunchHostName()));
    expect(names.size).toBe(50);
    for (const one of names) expect(one).toMatch(/^pier-[a-z2-7]{10}\.localhost$/);
  });

  it("exists wherever pier listens on loopback; IP hosts are a way in only off loopback", () => {
    expect(siteNamesFor("127.0.0.1")).toMatchObject({ launchHost: expect.stringMatching(/^pier-/), addressesOpen: false });
    expect(siteNamesFor("::1")).toMatchObject({ launchHost: expect.stringMatching(/^pier-/), addressesOpen: false });
    expect(siteNamesFor("localhost")).toMatchObject({ launchHost: expect.stringMatching(/^pier-/), addressesOpen: false });
    expect(siteNamesFor("0.0.0.0")).toMatchObject({ launchHost: expect.stringMatching(/^pier-/), addressesOpen: true });
    expect(siteNamesFor("192.168.1.20")).toEqual({ launchHost: null, addressesOpen: true });
  });

  it("is what the printed links name; without one, the address pier listens on", () => {
    expect(printedHost("127.0.0.1", name)).toBe(name);
    expect(printedHost("0.0.0.0", name)).toBe(name);
    expect(printedHost("192.168.1.20", null)).toBe("192.168.1.20");
    expect(printedHost("fe80::1", null)).toBe("[fe80::1]");
  });
});

describe("isAllowedHost", () => {
  it.each([
    [`${name}:${port}`, "pier"],
    [`PIER-ABCDEFGH23.LOCALHOST:${port}`, "pier"],
    // Through a tunnel the browser names the tunnel's port (or none, on 80).
    [`${name}:${port + 1}`, "pier"],
    [name, "pier"],
    // pier's machine, but names whose cookies every local port shares.
    [`127.0.0.1:${port}`, "address"],
    [`localhost:${port}`, "address"],
    [`[::1]:${port}`, "address"],
    ["127.0.0.1", "address"],
    [`192.168.1.20:${port}`, "address"],
    // Another pier's name, or a name that only looks like ours.
    [`pier-zzzzzzzzzz.localhost:${port}`, "foreign"],
    [`${name}.evil.example:${port}`, "foreign"],
    [`x.${name}:${port}`, "foreign"],
    [`evil.example:${port}`, "foreign"],
    [`localhost.evil.example:${port}`, "foreign"],
    [`127.0.0.1.nip.io:${port}`, "foreign"],
    [`user@${name}:${port}`, "foreign"],
    ["", "foreign"],
  ])("on loopback: %s is %s", (host, kind) => {
    expect(hostKind(host, site)).toBe(kind);
    expect(isAllowedHost(host, site)).toBe(kind === "pier");
  });

  it.each([
    [`127.0.0.1:${port}`, true],
    [`localhost:${port}`, true],
    [`[::1]:${port}`, true],
    [`192.168.1.20:${port}`, true],
    [`${name}:${port}`, false],
    [`evil.example:${port}`, false],
  ])("with --host <network address>: %s -> %s", (host, allowed) => {
    expect(isAllowedHost(host, lan)).toBe(allowed);
  });

  it("with --host 0.0.0.0: the name (for this machine's browser) and IP addresses (for the others)", () => {
    expect(isAllowedHost(`${name}:${port}`, everyAddress)).toBe(true);
    expect(isAllowedHost(`192.168.1.20:${port}`, everyAddress)).toBe(true);
    expect(isAllowedHost(`evil.example:${port}`, everyAddress)).toBe(false);
  });

  it("refuses a missing Host", () => {
    expect(isAllowedHost(undefined, site)).toBe(false);
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
    expect(checkAccess(good, site, grantFor)).toEqual({ allow: true, grant: redeemed.grant });
  });

  it("refuses a WebSocket without the cookie (401)", () => {
    expect(checkAccess({ ...good, cookie: undefined }, site, grantFor)).toMatchObject({ allow: false, status: 401 });
    // A link secret is not a cookie, and another pier's cookie name does not count.
    const link = links.issue();
    expect(checkAccess({ ...good, cookie: `${cookieName(port)}=${link.token}` }, site, grantFor)).toMatchObject({ allow: false, status: 401 });
    expect(checkAccess({ ...good, cookie: `${cookieName(port + 1)}=${redeemed.cookieValue}` }, site, grantFor)).toMatchObject({ allow: false, status: 401 });
  });

  it("refuses a WebSocket from a foreign or missing Origin (403), cookie or not", () => {
    expect(checkAccess({ ...good, origin: "http://evil.example" }, site, grantFor)).toMatchObject({ allow: false, status: 403 });
    expect(checkAccess({ ...good, origin: undefined }, site, grantFor)).toMatchObject({ allow: false, status: 403 });
  });

  it("refuses a foreign Host (DNS rebinding) even with cookie and matching Origin", () => {
    const rebound = { ...good, host: `evil.example:${port}`, origin: `http://evil.example:${port}` };
    expect(checkAccess(rebound, site, grantFor)).toMatchObject({ allow: false, status: 403 });
  });

  it("lets plain page loads omit Origin but refuses cross-site ones", () => {
    const page = { ...good, isWebSocket: false, origin: undefined, secFetchSite: "none" };
    expect(checkAccess(page, site, grantFor)).toEqual({ allow: true, grant: redeemed.grant });
    expect(checkAccess({ ...page, secFetchSite: "cross-site" }, site, grantFor)).toMatchObject({ allow: false, status: 403 });
    expect(checkAccess({ ...page, origin: "http://evil.example" }, site, grantFor)).toMatchObject({ allow: false, status: 403 });
    expect(checkAccess({ ...page, cookie: undefined }, site, grantFor)).toMatchObject({ allow: false, status: 401 });
  });

  it("refuses 127.0.0.1 and localhost on a pier with its own name, cookie or not, without telling the name", () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const decision = checkAccess({ ...good, host, origin: `http://${host}` }, site, grantFor);
      expect(decision).toMatchObject({ allow: false, status: 403, reason: expect.stringContaining("open the link pier printed") });
      expect(JSON.stringify(decision)).not.toContain(name);
    }
  });

  it("a shadow cookie of the same name, sent first, locks nobody out (every value is tried)", () => {
    const page = { ...good, isWebSocket: false, origin: undefined };
    for (const shadow of ["junk", "", links.issue().token]) {
      const cookie = `${cookieName(port)}=${shadow}; ${cookieName(port)}=${redeemed.cookieValue}`;
      expect(checkAccess({ ...page, cookie }, site, grantFor)).toEqual({ allow: true, grant: redeemed.grant });
      expect(checkAccess({ ...good, cookie }, site, grantFor)).toEqual({ allow: true, grant: redeemed.grant });
    }
    // Only junk: still refused.
    expect(checkAccess({ ...page, cookie: `${cookieName(port)}=junk; ${cookieName(port)}=more` }, site, grantFor)).toMatchObject({ allow: false, status: 401 });
  });
});
