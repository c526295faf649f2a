import { encode } from "uqr";
import { describe, expect, it } from "vitest";
import { expiresIn, initials, linkUrl } from "../src/lib/room/link-url.ts";
import { qrPath } from "../src/lib/room/qr-path.ts";

describe("linkUrl", () => {
  it("builds the address from the page's origin and keeps the token intact", () => {
    expect(linkUrl("http://127.0.0.1:4100", "abc-_XYZ09")).toBe("http://127.0.0.1:4100/?token=abc-_XYZ09");
    // A token is base64url; anything else is escaped rather than breaking the URL.
    expect(linkUrl("http://[::1]:1", "a&b=c")).toBe("http://[::1]:1/?token=a%26b%3Dc");
  });
});

describe("expiresIn", () => {
  it.each([
    [-1, "expired"],
    [0, "expired"],
    [20_000, "in under a minute"],
    [14 * 60_000 + 20_000, "in 14 min"],
    [12 * 3_600_000, "in 12 h"],
  ])("%d ms left reads %s", (left, text) => {
    expect(expiresIn(1_000_000 + left, 1_000_000)).toBe(text);
  });
});

describe("initials", () => {
  it.each([
    ["Ada", "A"],
    ["ada lovelace", "AL"],
    ["  Grace  Brewster Hopper ", "GH"],
    ["<img src=x onerror=alert(1)>", "<O"],
    ["😀 Smile", "😀S"],
    ["", "?"],
  ])("%j → %j", (name, letters) => {
    expect(initials(name)).toBe(letters);
  });
});

describe("qrPath", () => {
  it("draws exactly the dark modules of the code, inside a quiet border", () => {
    const text = "http://127.0.0.1:4100/?token=" + "A".repeat(43);
    const { data, size } = encode(text, { ecc: "M", border: 2 });
    const path = qrPath(text);
    expect(path.size).toBe(size);
    const dark = data.flat().filter(Boolean).length;
    const drawn = [...path.d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)];
    expect(drawn.reduce((sum, [, , , run]) => sum + Number(run), 0)).toBe(dark);
    // The top-left finder pattern's first row: seven dark modules starting after the border.
    expect(drawn[0]!.slice(1, 4)).toEqual(["2", "2", "7"]);
    // Nothing is drawn in the border.
    for (const [, x, y, run] of drawn) {
      expect(Number(x)).toBeGreaterThanOrEqual(2);
      expect(Number(y)).toBeGreaterThanOrEqual(2);
      expect(Number(x) + Number(run)).toBeLessThanOrEqual(size - 2);
    }
  });
});
