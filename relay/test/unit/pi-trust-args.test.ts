import { describe, expect, it } from "vitest";
import { piTrustOverride, withTrustFlag } from "../../src/pi-trust-args.ts";

describe("pi's trust flags", () => {
  it("finds the person's own --approve / --no-approve (short forms too; pi's last one wins)", () => {
    expect(piTrustOverride(["cli.js", "--mode", "rpc", "--model", "m"])).toBeNull();
    expect(piTrustOverride(["--mode", "rpc", "-a"])).toBe(true);
    expect(piTrustOverride(["--mode", "rpc", "--approve", "-na"])).toBe(false);
    expect(piTrustOverride(["--mode", "rpc", "--", "--approve"])).toBeNull();
  });

  it("puts Pier's flag right after --mode rpc, and replaces it on a change", () => {
    const untrusted = withTrustFlag(["cli.js", "--mode", "rpc", "--model", "m", "--continue"], false);
    expect(untrusted).toEqual(["cli.js", "--mode", "rpc", "--no-approve", "--model", "m", "--continue"]);
    expect(withTrustFlag(untrusted, true)).toEqual(["cli.js", "--mode", "rpc", "--approve", "--model", "m", "--continue"]);
    expect(withTrustFlag(["x"], true)).toEqual(["x", "--approve"]);
  });
});
