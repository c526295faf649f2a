// The bounds of AccessLinks: every redemption makes a grant, so grants must
// end, be freed on revoke and be capped, and link records must not pile up.
// (What links and cookies let in is tested in access-control.test.ts.)
import { describe, expect, it } from "vitest";
import { AccessLinks, DRIVER_IDLE_MS, MAX_GRANTS, MAX_GRANTS_PER_LINK, VIEWER_LINK_TTL_MS, type Redemption } from "../../src/access-links.ts";

const cookieOf = (redemption: Redemption) => {
  if (!redemption.ok) throw new Error(`expected a redemption, got "${redemption.reason}"`);
  return redemption.cookieValue;
};

describe("access links' memory", () => {
  it("a revoke frees the link's grants, and their cookies stay refused", () => {
    const links = new AccessLinks();
    const { token, link } = links.issue("viewer");
    const cookies = Array.from({ length: 500 }, () => cookieOf(links.redeem(token)));
    const other = links.redeem(links.issue("viewer").token);
    expect(links.grantCount).toBe(501);

    links.revoke(link.id);
    expect(links.grantCount).toBe(1);
    for (const cookie of cookies) expect(links.grantFor(cookie)).toBeNull();
    expect(links.redeem(token)).toEqual({ ok: false, reason: "revoked" });
    // The other link's session is untouched, and live.
    expect(other.ok && links.isLive(other.grant)).toBe(true);
  });

  it("refuses a viewer link past its cap, saying why, and keeps the grants at the cap", () => {
    const links = new AccessLinks();
    const { token } = links.issue("viewer");
    for (let i = 0; i < MAX_GRANTS_PER_LINK; i++) cookieOf(links.redeem(token));
    expect(links.redeem(token)).toEqual({ ok: false, reason: "crowded" });
    expect(links.check(token)).toBe("crowded");
    expect(links.grantCount).toBe(MAX_GRANTS_PER_LINK);
    // Another link still works.
    expect(links.redeem(links.issue("viewer").token).ok).toBe(true);
  });

  it("refuses past the cap of all viewers' sessions, and lets in again once a revoke freed some", () => {
    const links = new AccessLinks();
    const classes = Array.from({ length: MAX_GRANTS.viewer / MAX_GRANTS_PER_LINK }, () => links.issue("viewer"));
    for (const { token } of classes) for (let i = 0; i < MAX_GRANTS_PER_LINK; i++) cookieOf(links.redeem(token));
    const late = links.issue("viewer");
    expect(links.redeem(late.token)).toEqual({ ok: false, reason: "full" });
    // Drivers have a budget of their own: a fresh link from pier's terminal still gets in.
    expect(links.redeem(links.issue("driver").token).ok).toBe(true);

    links.revoke(classes[0]!.link.id);
    expect(links.redeem(late.token).ok).toBe(true);
    expect(links.grantCount).toBe(MAX_GRANTS.viewer - MAX_GRANTS_PER_LINK + 2);
  });

  it("ends a viewer's session when its link expires, and sweeps it", () => {
    let now = 1_000_000;
    const links = new AccessLinks(() => now);
    const { token } = links.issue("viewer");
    const redeemed = links.redeem(token);
    const cookie = cookieOf(redeemed);
    now += VIEWER_LINK_TTL_MS - 1;
    expect(links.grantFor(cookie)).not.toBeNull();
    now += 2;
    expect(redeemed.ok && links.isLive(redeemed.grant)).toBe(false);
    expect(links.grantFor(cookie)).toBeNull();
    expect(links.grantCount).toBe(0);
  });

  it("keeps a driver's session while it is used, and ends it after DRIVER_IDLE_MS unused", () => {
    let now = 1_000_000;
    const links = new AccessLinks(() => now);
    const redeemed = links.redeem(links.issue("driver").token);
    const cookie = cookieOf(redeemed);
    // Used every six days for a month: still in (its link expired long ago).
    for (let day = 6; day <= 30; day += 6) {
      now += 6 * 24 * 60 * 60_000;
      expect(links.grantFor(cookie)).not.toBeNull();
    }
    now += DRIVER_IDLE_MS + 1;
    expect(redeemed.ok && links.isLive(redeemed.grant)).toBe(false);
    expect(links.grantFor(cookie)).toBeNull();
  });

  it("sweeps ended grants nobody asks about, as redemptions go on", () => {
    let now = 1_000_000;
    const links = new AccessLinks(() => now);
    const morning = links.issue("viewer", { ttlMs: 60_000 });
    for (let i = 0; i < 1500; i++) cookieOf(links.redeem(morning.token));
    now += 120_000;
    const afternoon = links.issue("viewer");
    for (let i = 0; i < 1000; i++) cookieOf(links.redeem(afternoon.token));
    expect(links.grantCount).toBeLessThanOrEqual(1000 + 500);
  });

  it("forgets old links, keeping revoked ones only as bounded tombstones and never one that still has sessions", () => {
    const links = new AccessLinks();
    const kept = links.issue("viewer");
    const session = cookieOf(links.redeem(kept.token));
    const revoked = links.issue("viewer");
    links.revoke(revoked.link.id);
    for (let i = 0; i < 10_000; i++) {
      const { token, link } = links.issue("driver");
      if (i % 2 === 0) links.redeem(token);
      else links.revoke(link.id);
    }
    // A redeemed driver link keeps its record while its session lasts (at most MAX_GRANTS.driver of them); the rest are bounded.
    expect(links.linkCount).toBeLessThanOrEqual(MAX_GRANTS.driver + 2000 + 1);
    expect(links.grantFor(session)).not.toBeNull();
    expect(links.revoke(kept.link.id)).toBe(true);
    expect(links.grantFor(session)).toBeNull();
  });

  it("bounds live links a driver makes by the thousand and never redeems", () => {
    const links = new AccessLinks();
    for (let i = 0; i < 10_000; i++) links.issue("viewer");
    expect(links.linkCount).toBeLessThanOrEqual(2000);
  });
});
