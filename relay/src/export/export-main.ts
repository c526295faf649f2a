// `pier export CAPTURE`: the capture as one HTML page (web/src/lib/export/:
// the same reader, redaction and page as the browser's "Export as a page",
// used from here so both write the same file). The page's player is built
// with the web app (web/dist/export/), like everything pier serves.
import { createHash } from "node:crypto";
import { lstat, readFile, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { formatBytes } from "../../../web/src/lib/export/export-size.ts";
import { makeExportPage } from "../../../web/src/lib/export/make-page.ts";
import { PLAYER_CSS_PATH, PLAYER_JS_PATH, type PlayerAssets } from "../../../web/src/lib/export/export-page.ts";
import { checkCaptureFile } from "../capture-file.ts";
import { CliError } from "../cli-options.ts";
import { EXPORT_USAGE, parseExportOptions, type ExportOptions } from "./export-options.ts";

const log = (line: string) => process.stderr.write(`pier: ${line}\n`);

export async function exportMain(argv: string[], webRoot: string): Promise<void> {
  let options: ExportOptions;
  try {
    options = parseExportOptions(argv, process.cwd());
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    process.stderr.write(`pier: ${error.message}\n\n${EXPORT_USAGE}`);
    process.exit(2);
  }
  if (options.help) return void process.stdout.write(EXPORT_USAGE);
  const result = await exportCapture(options, webRoot, log);
  if (!result.ok) {
    log(result.message);
    process.exit(1);
  }
  process.stdout.write(`${options.output}\n`);
}

export type ExportOutcome = { ok: true } | { ok: false; message: string };

async function playerAssets(webRoot: string): Promise<PlayerAssets | null> {
  try {
    return { js: await readFile(join(webRoot, PLAYER_JS_PATH), "utf8"), css: await readFile(join(webRoot, PLAYER_CSS_PATH), "utf8") };
  } catch {
    return null;
  }
}

/** Whether something is at `path` already (a link that leads nowhere counts). */
async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** Writes the page; `say` hears its size (and what was redacted) before it is written. */
export async function exportCapture(options: ExportOptions, webRoot: string, say: (line: string) => void): Promise<ExportOutcome> {
  // Before any work: the refusal should not wait for a large capture to be read and redacted.
  if (!options.force && (await exists(options.output))) return { ok: false, message: `${options.output} exists: pass --force to replace it` };
  const check = await checkCaptureFile(options.capture);
  if (!check.ok) return check;
  let text: string;
  try {
    text = (await check.handle.readFile()).toString("utf8");
  } catch (error) {
    return { ok: false, message: `${options.capture} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  } finally {
    await check.handle.close();
  }
  const player = await playerAssets(webRoot);
  if (player === null) return { ok: false, message: `the page's player is not built (${join(webRoot, PLAYER_JS_PATH)} is missing): run pnpm build first` };
  const made = await makeExportPage({
    name: check.name,
    text,
    player,
    sha256: (script) => createHash("sha256").update(script, "utf8").digest("base64"),
    homes: [homedir()],
  });
  // The reader's sentence names the file; here it is named by its path, as every refusal of pier's is.
  if (!made.ok) return { ok: false, message: made.message.startsWith(check.name) ? options.capture + made.message.slice(check.name.length) : made.message };
  const { html, redacted } = made.page;
  const size = Buffer.byteLength(html, "utf8");
  // Said before writing: a page far larger than expected is worth a look before it is sent to anyone.
  say(`${options.output}: ${formatBytes(size)} (the capture: ${formatBytes(check.size)}, ${made.page.events.toLocaleString("en")} events; redacted: ${redacted.join(", ")})`);
  try {
    // wx: never replace a file without --force, even one that appeared since the check.
    await writeFile(options.output, html, { flag: options.force ? "w" : "wx" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return { ok: false, message: `${options.output} exists: pass --force to replace it` };
    if (code === "ENOENT") return { ok: false, message: `${options.output} cannot be written: its folder does not exist` };
    if (code === "EISDIR") return { ok: false, message: `${options.output} is a folder: give the path of the page to write` };
    return { ok: false, message: `${options.output} cannot be written (${code ?? String(error)})` };
  }
  return { ok: true };
}
