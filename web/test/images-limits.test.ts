import { describe, expect, it } from "vitest";
import {
  base64Length,
  decodedBytes,
  fitWithin,
  formatBytes,
  imageDataUrl,
  isSafeImageType,
  pickImageFiles,
  promptFrameBytes,
  promptTooLarge,
  shouldDownscale,
  splitDataUrl,
} from "../src/lib/images/image-limits.ts";

const png = (bytes: number) => ({ mimeType: "image/png", data: Buffer.alloc(bytes, 7).toString("base64") });

describe("image types", () => {
  it("accepts only raster types browsers show safely", () => {
    for (const t of ["image/png", "image/jpeg", "image/gif", "image/webp", "IMAGE/PNG"]) expect(isSafeImageType(t)).toBe(true);
    for (const t of ["image/svg+xml", "text/html", "application/pdf", "image/bmp", ""]) expect(isSafeImageType(t)).toBe(false);
  });

  it("splits picked files into images and refused names", () => {
    const files = [
      { name: "a.png", type: "image/png" },
      { name: "b.svg", type: "image/svg+xml" },
      { name: "", type: "text/plain" },
    ];
    expect(pickImageFiles(files)).toEqual({ images: [files[0]], refused: ["b.svg", "text/plain"] });
  });
});

describe("base64 and data: URLs", () => {
  it("takes the base64 payload out of a data: URL, without the prefix", () => {
    const data = Buffer.from("hello image").toString("base64");
    expect(splitDataUrl(`data:image/png;base64,${data}`)).toEqual({ mimeType: "image/png", data });
    expect(splitDataUrl(`data:image/jpeg;name=x.jpg;base64,${data}`)).toEqual({ mimeType: "image/jpeg", data });
    expect(splitDataUrl("data:image/png,notbase64")).toBeNull();
    expect(splitDataUrl("https://example.com/a.png")).toBeNull();
  });

  it("builds a data: URL only for safe types and clean base64", () => {
    expect(imageDataUrl({ mimeType: "image/png", data: "iVBORw0KGgo=" })).toBe("data:image/png;base64,iVBORw0KGgo=");
    expect(imageDataUrl({ mimeType: "image/svg+xml", data: "PHN2Zz4=" })).toBeNull();
    expect(imageDataUrl({ mimeType: "image/png", data: 'AAAA" onerror="alert(1)' })).toBeNull();
  });

  it("knows how many bytes base64 holds, both ways", () => {
    for (const n of [0, 1, 2, 3, 4, 5, 1000, 1001, 1002]) {
      const b64 = Buffer.alloc(n).toString("base64");
      expect(decodedBytes(b64)).toBe(n);
      expect(base64Length(n)).toBe(b64.length);
    }
  });
});

describe("size limits", () => {
  it("never underestimates the command frame", () => {
    const message = "Describe “this” image, please: ünïcödé 🖼️\nline two";
    const images = [png(3000), { mimeType: "image/jpeg", data: Buffer.alloc(777).toString("base64") }];
    const frame = JSON.stringify({ id: "0123456789abcdef0123456789abcdef:123456", type: "prompt", message, images: images.map((i) => ({ type: "image", ...i })), streamingBehavior: "followUp" });
    const estimate = promptFrameBytes(message, images);
    expect(estimate).toBeGreaterThanOrEqual(Buffer.byteLength(frame));
    expect(estimate - Buffer.byteLength(frame)).toBeLessThan(1024);
  });

  it("says in words when a prompt is over the relay's limit", () => {
    expect(promptTooLarge("hi", [png(1000)], 16 * 1024 * 1024)).toBeNull();
    const message = promptTooLarge("hi", [png(600_000), png(600_000)], 1024 * 1024);
    expect(message).toMatch(/^The prompt with its 2 images is 1\.5 MB; Pier can send at most 1\.0 MB in one prompt\./);
    expect(promptTooLarge("x".repeat(2000), [], 1000)).toMatch(/^This prompt is 2 KB/);
  });

  it("scales down only big images, keeping the aspect ratio and never enlarging", () => {
    expect(shouldDownscale(100_000, 1920, 1080)).toBe(false);
    expect(shouldDownscale(6 * 1024 * 1024, 1920, 1080)).toBe(true);
    expect(shouldDownscale(100_000, 9000, 100)).toBe(true);
    expect(fitWithin(4096, 2048)).toEqual({ width: 2048, height: 1024 });
    expect(fitWithin(1000, 30000, 2048)).toEqual({ width: 68, height: 2048 });
    expect(fitWithin(800, 600)).toEqual({ width: 800, height: 600 });
  });

  it("formats sizes for people", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(2048)).toBe("2 KB");
    expect(formatBytes(16 * 1024 * 1024)).toBe("16.0 MB");
  });
});
