// "Export as a page" in the browser: the capture being replayed (with the
// walk's notes as they are now) made into the same page `pier export` writes,
// its size said before anything is downloaded.
//
// The player's code comes from the page itself when it is an exported page
// (it exports itself again), else from the relay that served this page
// (dist/export/, built with the app; `pier replay` serves it too).

import type { OpenedCapture } from "../replay/open-capture.ts";
import { embeddedPlayer } from "./embedded-capture.ts";
import { PLAYER_CSS_PATH, PLAYER_JS_PATH, type PlayerAssets } from "./export-page.ts";
import { makeExportPage, type MakePageResult } from "./make-page.ts";
import { sha256Base64 } from "./sha256.ts";
import { downloadBlob } from "../download-blob.ts";

async function fetchText(path: string): Promise<string> {
  const response = await fetch(`/${path}`, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.text();
}

/** The player's code, or a sentence saying why there is none. */
export async function playerAssets(): Promise<PlayerAssets | string> {
  const own = embeddedPlayer(document);
  if (own !== null) return own;
  try {
    return { js: await fetchText(PLAYER_JS_PATH), css: await fetchText(PLAYER_CSS_PATH) };
  } catch (error) {
    return `The page's player could not be loaded (${error instanceof Error ? error.message : String(error)}): is Pier's web app built?`;
  }
}

/** The page's file name: the capture's, ending in .html. */
export function pageFileName(captureName: string): string {
  return /\.jsonl?$/i.test(captureName) ? captureName.replace(/\.jsonl?$/i, ".html") : `${captureName}.html`;
}

/** The page for this capture's text (the capture's own, or with the walk's notes). */
export async function makePageFor(capture: OpenedCapture, text: string): Promise<MakePageResult> {
  const player = await playerAssets();
  if (typeof player === "string") return { ok: false, message: player };
  return makeExportPage({ name: capture.name, text, player, sha256: sha256Base64 });
}

export function downloadPage(html: string, name: string): void {
  downloadBlob(new Blob([html], { type: "text/html" }), name);
}
