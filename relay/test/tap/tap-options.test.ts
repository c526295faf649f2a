import { describe, expect, it } from "vitest";
import { CliError } from "../../src/cli-options.ts";
import { parseTapOptions } from "../../src/tap/tap-options.ts";

describe("pier tap options", () => {
  it("takes everything after -- as the command, pier's own options before it", () => {
    const options = parseTapOptions(["--port", "4100", "--link-file", "link.txt", "--", "pi", "--mode", "rpc", "--port", "9"], "/base", {});
    expect(options).toMatchObject({ command: "pi", args: ["--mode", "rpc", "--port", "9"], port: 4100, host: "127.0.0.1", linkFile: "/base/link.txt", printLink: true });
  });

  it("prints the link unless PIER_TAP_QUIET is set", () => {
    expect(parseTapOptions(["--", "pi"], "/", { PIER_TAP_QUIET: "1" }).printLink).toBe(false);
    expect(parseTapOptions(["--", "pi"], "/", { PIER_TAP_QUIET: "" }).printLink).toBe(true);
  });

  it.each([
    [[], /needs the command that starts pi after "--"/],
    [["pi"], /after "--" .*not "pi"/],
    [["pi", "--mode", "rpc"], /Unknown option '--mode'\. The command that starts pi goes after "--"/],
    [["--host", "example.com", "--", "pi"], /--host must be an IP address/],
    [["--port", "70000", "--", "pi"], /--port takes a whole number/],
    [["--replay-bytes", "10", "--", "pi"], /--replay-bytes takes/],
    [["--bogus", "--", "pi"], /bogus/],
  ])("refuses %j with a sentence", (argv, message) => {
    expect(() => parseTapOptions(argv as string[], "/", {})).toThrow(CliError);
    expect(() => parseTapOptions(argv as string[], "/", {})).toThrow(message);
  });
});
