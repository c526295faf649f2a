import { describe, expect, it } from "vitest";
import { CliError, isLoopback, parseCliOptions } from "../../src/cli-options.ts";

describe("parseCliOptions", () => {
  it("defaults to loopback, a free port and the current folder", () => {
    const options = parseCliOptions([], "/work/repo");
    expect(options).toMatchObject({ host: "127.0.0.1", port: 0, cwd: "/work/repo", demo: false, demoFallback: true, piArgs: [] });
  });

  it("reads every option and passes what follows -- to pi", () => {
    const options = parseCliOptions(["--cwd", "sub", "--port", "8080", "--host", "0.0.0.0", "--demo", "--open", "--pi", "bin/pi", "--no-demo-fallback", "--", "--model", "x", "--demo"], "/base");
    expect(options).toMatchObject({
      cwd: "/base/sub",
      port: 8080,
      host: "0.0.0.0",
      demo: true,
      open: true,
      pi: "/base/bin/pi",
      demoFallback: false,
      piArgs: ["--model", "x", "--demo"],
    });
  });

  it("leaves the choice of pi to pier unless --pi or --bundled-pi says (which-pi.ts)", () => {
    expect(parseCliOptions([], "/base")).toMatchObject({ pi: null, bundledPi: false });
    expect(parseCliOptions(["--bundled-pi"], "/base")).toMatchObject({ pi: null, bundledPi: true });
    expect(parseCliOptions(["--pi", "/opt/pi/cli.js"], "/base")).toMatchObject({ pi: "/opt/pi/cli.js", bundledPi: false });
  });

  it("takes --cwd more than once: the first is where pi starts, the others are listed workspaces; --max-agents caps pi children", () => {
    const options = parseCliOptions(["--cwd", "a", "--cwd", "/abs/b", "--cwd", "a/", "--max-agents", "3"], "/base");
    expect(options).toMatchObject({ cwd: "/base/a", moreWorkspaces: ["/abs/b"], maxAgents: 3 });
    expect(parseCliOptions([], "/base")).toMatchObject({ moreWorkspaces: [], maxAgents: 8 });
    expect(() => parseCliOptions(["--max-agents", "0"], "/base")).toThrow(/--max-agents must be between 1 and 64/);
    expect(parseCliOptions(["--idle-stop", "0.5"], "/base").idleStopMs).toBe(30_000);
    expect(parseCliOptions([], "/base").idleStopMs).toBe(30 * 60_000);
    expect(() => parseCliOptions(["--idle-stop", "soon"], "/base")).toThrow(/--idle-stop takes a number of minutes/);
  });

  it.each([
    [["--port", "http"], /--port takes a whole number/],
    [["--port", "70000"], /--port takes a whole number from 0 to 65535, not "70000"/],
    [["--host", "evil.example"], /--host must be an IP address/],
    [["--bogus"], /Unknown option/],
    [["stray"], /positional/i],
    [["--", "--mode", "json"], /--mode rpc/],
    [["--heartbeat", "soon"], /--heartbeat takes a number of seconds/],
    [["--heartbeat", "0.01"], /--heartbeat must be between 0.1 and 3600 seconds/],
    [["--pi", "/opt/pi", "--bundled-pi"], /choose either --pi PATH or --bundled-pi, not both/],
    [["--pi", " "], /--pi needs the path of a pi CLI/],
  ])("refuses %j with a clear sentence", (argv, message) => {
    expect(() => parseCliOptions(argv, "/")).toThrow(CliError);
    expect(() => parseCliOptions(argv, "/")).toThrow(message);
  });

  it("checks on browsers every 15 s unless told otherwise, in seconds", () => {
    expect(parseCliOptions([], "/").heartbeatMs).toBe(15_000);
    expect(parseCliOptions(["--heartbeat", "0.5"], "/").heartbeatMs).toBe(500);
    expect(parseCliOptions(["--heartbeat", "60"], "/").heartbeatMs).toBe(60_000);
    expect(parseCliOptions(["--heartbeat", "1.005"], "/").heartbeatMs).toBe(1005);
  });

  it("resumes the most recent session unless told otherwise", () => {
    expect(parseCliOptions([], "/w").session).toEqual({ kind: "resume" });
    expect(parseCliOptions(["--new-session"], "/w").session).toEqual({ kind: "new" });
    expect(parseCliOptions(["--session", "s/a.jsonl"], "/w").session).toEqual({ kind: "file", path: "/w/s/a.jsonl" });
    // pi's own selector is passed through as it is.
    expect(parseCliOptions(["--", "--no-session"], "/w")).toMatchObject({ session: { kind: "resume" }, piArgs: ["--no-session"] });
  });

  it.each([
    [["--new-session", "--session", "a.jsonl"], /either --new-session or --session/],
    [["--new-session", "--", "--continue"], /pi's own --continue/],
    [["--session", "a.jsonl", "--", "--session-id=x"], /pi's own --session-id/],
    [["--session", " "], /needs the path/],
  ])("refuses the session choice %j", (argv, message) => {
    expect(() => parseCliOptions(argv, "/")).toThrow(message);
  });

  it("knows loopback addresses", () => {
    expect(isLoopback("127.0.0.1")).toBe(true);
    expect(isLoopback("::1")).toBe(true);
    expect(isLoopback("0.0.0.0")).toBe(false);
  });
});
