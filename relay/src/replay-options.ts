// `pier replay FILE [OTHER]` options: the capture to serve (and a second one
// to compare it with), and where to listen.
// No pi options: replay never starts pi.
import { resolve } from "node:path";
import { CliError, listenAddress, parseCommandLine } from "./cli-options.ts";

export const REPLAY_USAGE = `Usage: pier replay FILE [OTHER] [--port N] [--host ADDR] [--open]

Opens a capture recorded with Pier's "Record the wire" (a pier-capture
.jsonl file) in a player: the whole page as it was, record by record.
Given a second capture (OTHER), the player opens with the two compared
side by side, for example the same prompt against two versions of pi.
No pi is started and nothing is sent anywhere.

Options:
  --port N      port to listen on; 0 picks a free one (default: 0)
  --host ADDR   address to listen on (default: 127.0.0.1, loopback only)
  --open        open the URL in your default browser
  -h, --help    show this help
`;

export type ReplayOptions = {
  file: string;
  /** The capture to open compared with `file`, or null. */
  compare: string | null;
  port: number;
  host: string;
  open: boolean;
  help: boolean;
};

export function parseReplayOptions(argv: string[], baseDir: string): ReplayOptions {
  const { values, positionals } = parseCommandLine({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { port: { type: "string" }, host: { type: "string" }, open: { type: "boolean" }, help: { type: "boolean", short: "h" } },
  });
  const help = values.help ?? false;
  if (!help && positionals.length === 0) throw new CliError("pier replay needs the capture file to open");
  // Two at most: the compare view has two sides.
  if (positionals.length > 2) throw new CliError(`pier replay opens one capture file, or two to compare, not ${positionals.length}`);
  const { host, port } = listenAddress(values.host, values.port);
  const [file, compare] = positionals;
  return {
    file: file === undefined ? "" : resolve(baseDir, file),
    compare: compare === undefined ? null : resolve(baseDir, compare),
    port,
    host,
    open: values.open ?? false,
    help,
  };
}
