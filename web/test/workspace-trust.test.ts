import type { RelayFrame } from "@pier/protocol";
import { describe, expect, it } from "vitest";
import { applyTrustFrame, UNKNOWN_TRUST, untrustedReason } from "../src/lib/workspace/workspace-trust.ts";

const hello = (trust?: { trusted: boolean; source: "default" }) => ({ type: "hello", ...(trust ? { trust } : {}) }) as unknown as RelayFrame;

describe("the page's view of the workspace's trust", () => {
  it("hello sets it; an older relay's hello leaves it unknown (no banner)", () => {
    expect(applyTrustFrame(UNKNOWN_TRUST, hello({ trusted: false, source: "default" })).info).toEqual({ trusted: false, source: "default" });
    expect(applyTrustFrame(UNKNOWN_TRUST, hello()).info).toBeNull();
  });

  it("workspace_trust changes it and ends a wait; a refusal of this page's request keeps it and says why", () => {
    const waiting = { info: { trusted: false, source: "default" as const }, pending: true, refusal: null };
    const refused = applyTrustFrame(waiting, { type: "error", code: "forbidden", message: "only a driver can trust or distrust this folder", command: { type: "pier.trust_workspace" } });
    expect(refused).toEqual({ ...waiting, pending: false, refusal: "only a driver can trust or distrust this folder" });
    const trusted = applyTrustFrame(waiting, { type: "workspace_trust", trust: { trusted: true, source: "folder", path: "/w" } });
    expect(trusted).toEqual({ info: { trusted: true, source: "folder", path: "/w" }, pending: false, refusal: null });
    const other = { type: "error", code: "forbidden", message: "x", command: { type: "prompt" } } as const;
    expect(applyTrustFrame(waiting, other)).toBe(waiting);
    expect(applyTrustFrame(waiting, { type: "peers", count: 2 })).toBe(waiting);
  });

  it("says why the folder is untrusted", () => {
    expect(untrustedReason({ trusted: false, source: "default" })).toMatch(/Nobody has trusted this folder yet/);
    expect(untrustedReason({ trusted: false, source: "parent", path: "/home/ada" })).toMatch(/by its parent \/home\/ada/);
    expect(untrustedReason({ trusted: false, source: "pi_args" })).toMatch(/--no-approve/);
    expect(untrustedReason({ trusted: false, source: "default", problem: "trust.json is not valid JSON." })).toMatch(/cannot be read/);
  });
});
