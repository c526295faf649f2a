// The exported page itself: one HTML file that holds the player (the app's
// own code, built as one script and one stylesheet: web/vite.export.config.ts),
// the capture, and a Content-Security-Policy that lets only that script run
// and the page reach nothing: no fetch, no socket, no font, no image from
// anywhere (images come as data: URLs inside the capture). Used by
// `pier export` and by the page's "Export as a page", so both write the same.

import { CAPTURE_ELEMENT_ID, CAPTURE_SCRIPT_TYPE, escapeForScript } from "./embed.ts";

/** The player's code and styles (dist/export/player.js and player.css). */
export interface PlayerAssets {
  js: string;
  css: string;
}

export const PLAYER_JS_PATH = "export/player.js";
export const PLAYER_CSS_PATH = "export/player.css";
/** The id of the player's script in an exported page (a page exports again from its own code). */
export const PLAYER_SCRIPT_ID = "pier-player";
export const PLAYER_STYLE_ID = "pier-player-style";
/** A small JSON of where the page came from: the capture's name (for the replay bar). */
export const EXPORT_INFO_TYPE = "application/x-pier-export";
export const EXPORT_INFO_ID = "pier-export";

export interface ExportInfo {
  /** The capture's file name. */
  name: string;
  /** When the page was written (ISO 8601). */
  exportedAt: string;
}

/**
 * The script's text as it goes in the page: the HTML parser ends a script at
 * `</script`, and after a `<!--` a `<script` keeps it from doing so. In a
 * bundle these only occur inside strings, template literals and regular
 * expressions (as code `<!--` is a comment), where `\u003c` reads as `<`:
 * so each such `<` is written that way, and the program is the same.
 */
export function inlineScriptText(js: string): string {
  return js.replace(/<(?=!--|\/?script)/gi, "\\u003c");
}

function inlineStyleText(css: string): string {
  return css.replace(/<\/(style)/gi, "<\\/$1");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that is safe inside a non-executed script element (no `<` at all). */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

export interface ExportPageInput {
  info: ExportInfo;
  /** The capture's text, redacted. */
  capture: string;
  /** inlineScriptText(js) of the player. */
  scriptText: string;
  /** base64 of the SHA-256 of scriptText's UTF-8 (the only script the policy allows). */
  scriptHash: string;
  css: string;
}

/** The policy: the one script, inline styles (Svelte sets style attributes), data: images; nothing fetched, no workers. */
export function exportPolicy(scriptHash: string): string {
  return [
    "default-src 'none'",
    `script-src 'sha256-${scriptHash}'`,
    "style-src 'unsafe-inline'",
    "img-src data: blob:",
    "font-src data:",
    "media-src data: blob:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/** The whole page. The capture comes after the script: the player is drawn while the browser still reads it. */
export function exportPageHtml(input: ExportPageInput): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="UTF-8" />',
    `<meta http-equiv="Content-Security-Policy" content="${exportPolicy(input.scriptHash)}" />`,
    '<meta name="referrer" content="no-referrer" />',
    '<meta name="viewport" content="width=device-width, initial-scale=1" />',
    '<meta name="color-scheme" content="light dark" />',
    `<title>${escapeHtml(input.info.name)} — Pier replay</title>`,
    `<style id="${PLAYER_STYLE_ID}">${inlineStyleText(input.css)}</style>`,
    "</head>",
    "<body>",
    '<div id="app"></div>',
    `<script type="${EXPORT_INFO_TYPE}" id="${EXPORT_INFO_ID}">${jsonForScript(input.info)}</script>`,
    `<script id="${PLAYER_SCRIPT_ID}">${input.scriptText}</script>`,
    `<script type="${CAPTURE_SCRIPT_TYPE}" id="${CAPTURE_ELEMENT_ID}">${escapeForScript(input.capture)}</script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
