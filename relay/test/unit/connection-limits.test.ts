import { describe, expect, it } from "vitest";
import type { Grant } from "../../src/access-links.ts";
import { ConnectionLimits } from "../../src/connection-limits.ts";

const grant = (id: string): Grant => ({ id, role: "viewer", linkId: "link-1", digest: `digest-${id}`, scope: null });

describe("connection limits", () => {
  it("refuse one browser's connections past its cap with 429 and a sentence, and let it in again once one closed", () => {
    const limits = new ConnectionLimits(100, 3);
    const claims = [1, 2, 3].map(() => limits.claim(grant("a")));
    expect(claims.every((claim) => claim.ok)).toBe(true);
    const refused = limits.claim(grant("a"));
    expect(refused).toMatchObject({ ok: false, status: 429 });
    expect(!refused.ok && refused.reason).toMatch(/tabs or windows open already/);
    // Another browser is not affected.
    expect(limits.claim(grant("b")).ok).toBe(true);
    if (claims[0]!.ok) claims[0]!.release();
    expect(limits.claim(grant("a")).ok).toBe(true);
  });

  it("refuse everyone past the total with 503, and count a release once however often it is called", () => {
    const limits = new ConnectionLimits(2, 20);
    const first = limits.claim(grant("a"));
    expect(limits.claim(grant("b")).ok).toBe(true);
    expect(limits.claim(grant("c"))).toMatchObject({ ok: false, status: 503 });
    if (!first.ok) throw new Error("the first claim must succeed");
    first.release();
    first.release();
    expect(limits.total).toBe(1);
    expect(limits.claim(grant("c")).ok).toBe(true);
    expect(limits.claim(grant("d")).ok).toBe(false);
  });
});
