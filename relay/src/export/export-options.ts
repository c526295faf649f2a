// `pier export CAPTURE [-o FILE.html] [--force]` options. No pi, no server:
// it writes one file.
import { resolve } from "node:path";
import { CliError, parseCommandLine } from "../cli-options.ts";

export const EXPORT_USAGE = `Usage: pier export CAPTURE [-o FILE.html] [--force]

Writes a capture recorded with Pier's "Record the wire" (a pier-capture
.jsonl file) as one self-contained HTML page: the player, the transcript and
the protocol inspector, with everything inline. It opens from disk or any
static host, offline, with no Pier and no Node. Secrets and your home folder
are redacted first, and the page says so.

Options:
  -o, --output FILE  where to write the page (default: CAPTURE with .html)
  --force            replace FILE if it exists
  -h, --help         show this help
`;

export type ExportOptions = { capture: string; output: string; force: boolean; help: boolean };

/** The page next to the capture: session.jsonl → session.html. */
export function defaultOutput(capture: string): string {
  return /\.jsonl?$/i.test(capture) ? capture.replace(/\.jsonl?$/i, ".html") : `${capture}.html`;
}

export function parseExportOptions(argv: string[], baseDir: string): ExportOptions {
  const { values, positionals } = parseCommandLine({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { output: { type: "string", short: "o" }, force: { type: "boolean" }, help: { type: "boolean", short: "h" } },
  });
  const help = values.help ?? false;
  if (!help && positionals.length === 0) throw new CliError("pier export needs the capture file to export");
  if (positionals.length > 1) throw new CliError(`pier export writes one capture at a time, not ${positionals.length}`);
  if (values.output !== undefined && values.output.trim() === "") throw new CliError("-o needs the path of the page to write");
  const capture = positionals[0] === undefined ? "" : resolve(baseDir, positionals[0]);
  const output = values.output !== undefined ? resolve(baseDir, values.output) : defaultOutput(capture);
  if (!help && output === capture) throw new CliError("the page would replace the capture itself: give another -o");
  return { capture, output, force: values.force ?? false, help };
}
