import { describe, expect, it } from "vitest";
import { freeChunk } from "../../src/chunk-reclaim.ts";

describe("freeChunk", () => {
  it("frees a Buffer that is all of its ArrayBuffer: it reads as empty afterwards", () => {
    const chunk = Buffer.alloc(64 * 1024, 1);
    freeChunk(chunk);
    expect(chunk.length).toBe(0);
    expect(chunk.buffer.byteLength).toBe(0);
    expect(() => freeChunk(chunk)).not.toThrow();
  });

  it("leaves alone a Buffer that shares its ArrayBuffer (Node's pool, a slice)", () => {
    const pooled = Buffer.from("small, out of the shared pool");
    const whole = Buffer.alloc(16 * 1024, 2);
    const slice = whole.subarray(1024, 2048);
    freeChunk(pooled);
    freeChunk(slice);
    expect(pooled.toString()).toBe("small, out of the shared pool");
    expect(slice.length).toBe(1024);
    expect(whole.length).toBe(16 * 1024);
  });
});
