// Turning a File (pasted, dropped or picked) into an image attachment:
// base64 without the data: prefix, as pi's `prompt` command wants it. Very
// large images are drawn onto a canvas at a smaller size first.
import type { ImageContent } from "@pier/protocol";
import { DOWNSCALED_SIDE, fitWithin, formatBytes, isSafeImageType, shouldDownscale, splitDataUrl } from "./image-limits.ts";

export interface ImageAttachment extends ImageContent {
  /** Unique within the prompt box, for keyed lists. */
  id: number;
  name: string;
  /** Decoded size in bytes. */
  bytes: number;
  width: number;
  height: number;
  /** True when it was scaled down to fit. */
  downscaled: boolean;
}

let nextId = 1;

export type ReadResult = { ok: true; attachment: ImageAttachment } | { ok: false; error: string };

function readAsDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("could not be read"));
    reader.readAsDataURL(blob);
  });
}

async function downscale(bitmap: ImageBitmap): Promise<{ url: string; width: number; height: number }> {
  const size = fitWithin(bitmap.width, bitmap.height, DOWNSCALED_SIDE);
  const canvas = document.createElement("canvas");
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext("2d");
  if (!context) throw new Error("this browser cannot draw images");
  // JPEG has no transparency: paint white under it.
  context.fillStyle = "#fff";
  context.fillRect(0, 0, size.width, size.height);
  context.drawImage(bitmap, 0, 0, size.width, size.height);
  return { url: canvas.toDataURL("image/jpeg", 0.85), ...size };
}

export async function readImageFile(file: File): Promise<ReadResult> {
  const name = file.name || "pasted image";
  if (!isSafeImageType(file.type)) {
    return { ok: false, error: `“${name}” is not a PNG, JPEG, GIF or WebP image.` };
  }
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return { ok: false, error: `“${name}” could not be read as an image.` };
  }
  try {
    let width = bitmap.width;
    let height = bitmap.height;
    let downscaled = false;
    let url: string;
    if (shouldDownscale(file.size, width, height)) {
      ({ url, width, height } = await downscale(bitmap));
      downscaled = true;
    } else {
      url = await readAsDataUrl(file);
    }
    const parts = splitDataUrl(url);
    if (!parts || !isSafeImageType(parts.mimeType)) return { ok: false, error: `“${name}” could not be encoded.` };
    const bytes = Math.floor((parts.data.length * 3) / 4);
    return {
      ok: true,
      attachment: { type: "image", data: parts.data, mimeType: parts.mimeType, id: nextId++, name, bytes, width, height, downscaled },
    };
  } catch (error) {
    return { ok: false, error: `“${name}” (${formatBytes(file.size)}) could not be attached: ${(error as Error).message}.` };
  } finally {
    bitmap.close();
  }
}

/** Image files in a clipboard paste, or [] when the paste carries text (then the text is what was meant). */
export function pastedImageFiles(data: DataTransfer | null): File[] {
  if (!data || data.types.includes("text/plain")) return [];
  const files: File[] = [];
  for (const item of data.items) {
    if (item.kind !== "file") continue;
    const file = item.getAsFile();
    if (file) files.push(file);
  }
  return files;
}

/** The content blocks pi's `images` field takes (without Pier's bookkeeping fields). */
export function toImageContent(attachments: readonly ImageAttachment[]): ImageContent[] {
  return attachments.map(({ data, mimeType }) => ({ type: "image", data, mimeType }));
}
