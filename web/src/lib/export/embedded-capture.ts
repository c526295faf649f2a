// In an exported page: the capture the page carries, read like a dropped
// file (replay/open-capture.ts, the untrusted reader), and the page's own
// player code, to export it again.

import { openCaptureProgressively, type OpenResult } from "../replay/open-capture.ts";
import { CAPTURE_ELEMENT_ID, CAPTURE_SCRIPT_TYPE, unescapeFromScript } from "./embed.ts";
import { EXPORT_INFO_ID, EXPORT_INFO_TYPE, PLAYER_SCRIPT_ID, PLAYER_STYLE_ID, type ExportInfo, type PlayerAssets } from "./export-page.ts";

/** The name the page was exported under ("capture" if it does not say). */
export function embeddedInfo(doc: Document): ExportInfo {
  const element = doc.getElementById(EXPORT_INFO_ID);
  try {
    const value = element?.getAttribute("type") === EXPORT_INFO_TYPE ? (JSON.parse(element.textContent ?? "") as Partial<ExportInfo>) : {};
    return { name: typeof value.name === "string" && value.name !== "" ? value.name : "capture", exportedAt: typeof value.exportedAt === "string" ? value.exportedAt : "" };
  } catch {
    return { name: "capture", exportedAt: "" };
  }
}

/** The page's capture, through the same reader as a dropped file (a large one opens before it is read through). */
export function readEmbeddedCapture(doc: Document): OpenResult {
  const info = embeddedInfo(doc);
  const element = doc.getElementById(CAPTURE_ELEMENT_ID);
  if (element === null || element.getAttribute("type") !== CAPTURE_SCRIPT_TYPE) return { ok: false, message: "This page holds no capture." };
  return openCaptureProgressively(info.name, unescapeFromScript(element.textContent ?? ""));
}

/** The player's code as this page carries it, or null outside an exported page. */
export function embeddedPlayer(doc: Document): PlayerAssets | null {
  const script = doc.getElementById(PLAYER_SCRIPT_ID);
  const style = doc.getElementById(PLAYER_STYLE_ID);
  if (script === null || style === null) return null;
  // Already as inlineScriptText writes it, which gives it back unchanged.
  return { js: script.textContent ?? "", css: style.textContent ?? "" };
}
