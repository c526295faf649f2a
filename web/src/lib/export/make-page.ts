// From a capture's text to an exported page: read it with the untrusted
// reader (a file that would not replay is refused here, in its words),
// redact it, and write the page around the player. The same steps for
// `pier export` (Node) and the page's "Export as a page"; each brings its
// own SHA-256 (node:crypto, or the browser's SubtleCrypto).

import { readCapture } from "../wire-log/capture.ts";
import { exportPageHtml, inlineScriptText, type PlayerAssets } from "./export-page.ts";
import { helloPaths, homesIn, redactCaptureForExport } from "./export-redaction.ts";

export type Sha256Base64 = (text: string) => string | Promise<string>;

export interface MadePage {
  html: string;
  /** What the page says was redacted. */
  redacted: string[];
  /** Events in the capture (what the player counts). */
  events: number;
}

export type MakePageResult = { ok: true; page: MadePage } | { ok: false; message: string };

export interface MakePageOptions {
  /** The capture's file name (shown in the page). */
  name: string;
  text: string;
  player: PlayerAssets;
  sha256: Sha256Base64;
  /** Home folders to write as "~", beside those the capture's own paths name (homesIn). */
  homes?: readonly string[];
  now?: Date;
}

export async function makeExportPage(options: MakePageOptions): Promise<MakePageResult> {
  const read = readCapture(options.text);
  if (!read.ok) return { ok: false, message: `${options.name} cannot be exported: ${read.error.message}` };
  if (read.events.length === 0) return { ok: false, message: `${options.name} cannot be exported: it holds no recorded events.` };
  const homes = [...new Set([...(options.homes ?? []), ...homesIn(helloPaths(options.text))])];
  const redaction = redactCaptureForExport(options.text, homes);
  const scriptText = inlineScriptText(options.player.js);
  const html = exportPageHtml({
    info: { name: options.name, exportedAt: (options.now ?? new Date()).toISOString() },
    capture: redaction.text,
    scriptText,
    scriptHash: await options.sha256(scriptText),
    css: options.player.css,
  });
  return { ok: true, page: { html, redacted: redaction.redacted, events: read.events.length } };
}
