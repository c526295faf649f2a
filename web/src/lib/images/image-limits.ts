// Images attached to a prompt travel base64-encoded inside the one JSON
// command frame the browser sends; the relay refuses frames larger than
// `hello.limits.maxCommandBytes`. These pure helpers decide what may be
// attached and whether a prompt still fits, so the person hears it in words
// before anything is sent.
import type { ImageContent } from "@pier/protocol";

/** Raster types every browser shows and every image-capable model accepts. SVG is not one: it is a document. */
export const SAFE_IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export type SafeImageType = (typeof SAFE_IMAGE_TYPES)[number];
/** For `<input accept>`. */
export const IMAGE_ACCEPT = SAFE_IMAGE_TYPES.join(",");

/** The relay's limit when the hello has not said (the relay's own default). */
export const DEFAULT_MAX_COMMAND_BYTES = 16 * 1024 * 1024;
/** Images larger than this (decoded) are scaled down before attaching: providers refuse bigger ones (Anthropic: 5 MB). */
export const DOWNSCALE_ABOVE_BYTES = 4.5 * 1024 * 1024;
/** Or wider/taller than this many pixels (Anthropic's limit is 8000). */
export const DOWNSCALE_ABOVE_SIDE = 8000;
/** Longest side after scaling down. */
export const DOWNSCALED_SIDE = 2048;
/** Room kept in a frame for the id, type, behaviour and JSON punctuation. */
const FRAME_OVERHEAD_BYTES = 256;
/** Per image: `{"type":"image","data":"","mimeType":"image/jpeg"},` */
const IMAGE_OVERHEAD_BYTES = 64;

export function isSafeImageType(mimeType: string): mimeType is SafeImageType {
  return (SAFE_IMAGE_TYPES as readonly string[]).includes(mimeType.toLowerCase());
}

/** A data: URL split into its mime type and base64 payload (no `data:` prefix); null if it is not a base64 data URL. */
export function splitDataUrl(url: string): { mimeType: string; data: string } | null {
  const match = /^data:([^;,]+)(?:;[^;,]*)*;base64,/i.exec(url);
  if (!match) return null;
  return { mimeType: match[1]!.toLowerCase(), data: url.slice(match[0].length) };
}

/** The data: URL that shows an image content block, or null when its type is not a safe raster type. */
export function imageDataUrl(image: Pick<ImageContent, "mimeType" | "data">): string | null {
  if (!isSafeImageType(image.mimeType)) return null;
  // base64 only: anything else could break out of the URL.
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(image.data)) return null;
  return `data:${image.mimeType.toLowerCase()};base64,${image.data}`;
}

/** Bytes that a base64 string decodes to. */
export function decodedBytes(base64: string): number {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

/** Length of the base64 text for `bytes` bytes of data. */
export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** An upper bound for the bytes of the `prompt` command frame carrying `message` and `images`. */
export function promptFrameBytes(message: string, images: readonly Pick<ImageContent, "data" | "mimeType">[]): number {
  let total = FRAME_OVERHEAD_BYTES + utf8Bytes(JSON.stringify(message));
  for (const image of images) total += image.data.length + image.mimeType.length + IMAGE_OVERHEAD_BYTES;
  return total;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Why this prompt cannot be sent, in words; null when it fits. */
export function promptTooLarge(message: string, images: readonly Pick<ImageContent, "data" | "mimeType">[], maxCommandBytes: number = DEFAULT_MAX_COMMAND_BYTES): string | null {
  const size = promptFrameBytes(message, images);
  if (size <= maxCommandBytes) return null;
  const what = images.length === 0 ? "This prompt" : images.length === 1 ? "The prompt with its image" : `The prompt with its ${images.length} images`;
  return `${what} is ${formatBytes(size)}; Pier can send at most ${formatBytes(maxCommandBytes)} in one prompt. Remove an image or attach a smaller one.`;
}

/** Whether an image of this size should be scaled down before attaching. */
export function shouldDownscale(bytes: number, width: number, height: number): boolean {
  return bytes > DOWNSCALE_ABOVE_BYTES || Math.max(width, height) > DOWNSCALE_ABOVE_SIDE;
}

/** The size to draw an image at so its longest side is at most `side` (never scaled up). */
export function fitWithin(width: number, height: number, side: number = DOWNSCALED_SIDE): { width: number; height: number } {
  const longest = Math.max(width, height);
  if (longest <= side || longest === 0) return { width, height };
  const scale = side / longest;
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Image files among a list (paste, drop or file picker), and the names of the ones refused. */
export function pickImageFiles<T extends { type: string; name: string }>(files: readonly T[]): { images: T[]; refused: string[] } {
  const images: T[] = [];
  const refused: T[] = [];
  for (const file of files) (isSafeImageType(file.type) ? images : refused).push(file);
  return { images, refused: refused.map((f) => f.name || f.type || "a file") };
}
