// `pier tap [options] -- COMMAND [ARGS…]` options: where the inspector
// listens, where its link goes, and the command that starts pi (everything
// after `--`, run as given: the client's own pi, whatever its flags).
import { resolve } from "node:path";
import { CliError, listenAddress, parseCommandLine } from "../cli-options.ts";

export const TAP_USAGE = `Usage: pier tap [--port N] [--host ADDR] [--link-file PATH] -- COMMAND [ARGS...]

Runs COMMAND (the command that starts pi, e.g. "pi --mode rpc") with this
process's standard input, output and error passed through byte for byte, so
an RPC client that starts "pier tap -- pi --mode rpc" instead of
"pi --mode rpc" sees no difference: same bytes, same exit code or signal,
EOF on stdin ends pi, SIGINT/SIGTERM/SIGHUP go to pi. Meanwhile a browser
shows that conversation live in Pier's inspector, read-only: the client's
commands and pi's output. No browser can send pi anything.

Nothing of pier's own is ever written to standard output. The inspector's
link (a secret, for viewers only) goes to standard error as one line starting
"pier tap:", unless PIER_TAP_QUIET is set; --link-file writes it to a file
readable by you alone instead (or as well).

Options:
  --port N           port to listen on; 0 picks a free one (default: 0)
  --host ADDR        address to listen on (default: 127.0.0.1, loopback only)
  --link-file PATH   write the inspector's link to PATH (mode 0600)
  --replay-bytes N   pi output kept for a browser that opens later (default: 8 MiB)
  -h, --help         show this help
`;

export type TapOptions = {
  command: string;
  args: string[];
  port: number;
  host: string;
  linkFile: string | null;
  replayBytes: number;
  /** Print the link on stderr (PIER_TAP_QUIET unset). */
  printLink: boolean;
  help: boolean;
};

export function parseTapOptions(argv: string[], baseDir: string, env: NodeJS.ProcessEnv): TapOptions {
  const dashDash = argv.indexOf("--");
  const own = dashDash === -1 ? argv : argv.slice(0, dashDash);
  const child = dashDash === -1 ? [] : argv.slice(dashDash + 1);
  const { values, positionals } = parseCommandLine(
    {
      args: own,
      allowPositionals: true,
      strict: true,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        "link-file": { type: "string" },
        "replay-bytes": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    },
    // `pier tap pi --mode rpc`: pi's own options read as pier's.
    dashDash === -1 ? 'The command that starts pi goes after "--": pier tap -- pi --mode rpc' : "",
  );
  const help = values.help ?? false;
  if (positionals.length > 0) throw new CliError(`takes the command to run after "--" (e.g. pier tap -- pi --mode rpc), not "${positionals[0]}"`);
  if (!help && child.length === 0) throw new CliError('needs the command that starts pi after "--", e.g. pier tap -- pi --mode rpc');
  const { host, port } = listenAddress(values.host, values.port);
  const replayText = values["replay-bytes"] ?? String(8 * 1024 * 1024);
  const replayBytes = Number(replayText);
  if (!/^\d+$/.test(replayText) || replayBytes < 64 * 1024 || replayBytes > 1024 ** 3) {
    throw new CliError(`--replay-bytes takes a whole number of bytes from 65536 to 1073741824, not "${replayText}"`);
  }
  const linkFile = values["link-file"];
  if (linkFile === "") throw new CliError("--link-file needs a path");
  return {
    command: child[0] ?? "",
    args: child.slice(1),
    port,
    host,
    linkFile: linkFile === undefined ? null : resolve(baseDir, linkFile),
    replayBytes,
    printLink: env["PIER_TAP_QUIET"] === undefined || env["PIER_TAP_QUIET"] === "",
    help,
  };
}
