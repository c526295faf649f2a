// The SHA-256 that stands in for SubtleCrypto (a Pier reached over plain HTTP has none): the same digests as Node's.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256Base64, sha256Bytes } from "../../src/lib/export/sha256.ts";

describe("sha256Bytes", () => {
  it("matches node:crypto at every padding edge and on a large text", () => {
    for (const size of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 300_000]) {
      const bytes = new Uint8Array(size).map((_, i) => (i * 31 + size) & 0xff);
      expect(Buffer.from(sha256Bytes(bytes)).toString("hex")).toBe(createHash("sha256").update(bytes).digest("hex"));
    }
  });

  it("sha256Base64 hashes a text's UTF-8", async () => {
    const text = "é 😀 </script>";
    expect(await sha256Base64(text)).toBe(createHash("sha256").update(text, "utf8").digest("base64"));
  });
});
