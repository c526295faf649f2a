// Which pi the contract tests run against. The tests' default is pi 0.87.1,
// the version Pier's protocol docs and fixtures describe; it is installed as
// the devDependency alias `pi-coding-agent-0.87`. pi 1.6.0 is the one `pier`
// bundles (the dependency @earendil-works/pi-coding-agent), so the same
// contract files prove Pier works with both. The Vitest project
// `contract-pi-1.6` sets PIER_TEST_PI=1.6.0; unset (or "0.87.1") means 0.87.1.
//
// Every pier a test starts is told its pi with --pi, the pinned one too:
// pier otherwise runs the pi on PATH (which-pi.ts), and a test must not
// depend on what happens to be installed on the machine.
//
// Tests branch on features, never on version strings scattered around:
// `piUnderTest.has.disposition` reads as the protocol fact it checks.
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { defaultPiCliPath } from "../../src/pi-cli.ts";

export const PINNED_PI_VERSION = "0.87.1";

export interface PiUnderTest {
  /** The version the package on disk reports (checked against the one asked for). */
  version: string;
  /** Absolute path of that pi's `dist/bundle/cli.js`; run it with this Node. */
  cliPath: string;
  /** True for the pinned pi (0.87.1), the one fixtures are captured from and protocol docs describe. */
  pinned: boolean;
  /** Wire features newer pi added; false on 0.87.1. */
  has: {
    /** prompt/steer/follow_up answers carry `data.disposition` (pi ≥ 0.99). */
    disposition: boolean;
    /** agent_settled carries `aborted` (pi ≥ 1.1). */
    settledAborted: boolean;
    /** tool_execution_end and toolResult/assistant messages carry `durationMs` (pi ≥ 1.1). */
    durationMs: boolean;
    /** `ctx.executeTool()`: nested tool_execution_* with parentToolCallId, `nestedCalls` on the toolResult (pi ≥ 0.99). */
    nestedToolCalls: boolean;
    /** A provider connection error names its cause: "terminated: other side closed (UND_ERR_SOCKET)", not "terminated" (pi ≥ 1.5). */
    connectionErrorCause: boolean;
    /**
     * A run aborted during a tool ends with an empty assistant message whose
     * stopReason is "aborted"; 0.87.1 ends it with stopReason "error" and
     * "This operation was aborted" (seen in 1.6.0; not in pi's changelog).
     */
    toolAbortEndsAborted: boolean;
  };
}

type Features = PiUnderTest["has"];
const NONE: Features = {
  disposition: false,
  settledAborted: false,
  durationMs: false,
  nestedToolCalls: false,
  connectionErrorCause: false,
  toolAbortEndsAborted: false,
};
const ALL: Features = {
  disposition: true,
  settledAborted: true,
  durationMs: true,
  nestedToolCalls: true,
  connectionErrorCause: true,
  toolAbortEndsAborted: true,
};

/** Each pi tests can run: where its CLI lives (a function: only the one asked for must resolve) and what it has. */
const SUPPORTED: Record<string, { cli: () => string; has: Features }> = {
  [PINNED_PI_VERSION]: {
    // pi's ./rpc-entry export sits next to its CLI in dist/bundle/ (see src/pi-cli.ts).
    cli: () => fileURLToPath(new URL("./cli.js", import.meta.resolve("pi-coding-agent-0.87/rpc-entry"))),
    has: NONE,
  },
  // The pi pier bundles.
  "1.6.0": { cli: defaultPiCliPath, has: ALL },
};

function load(requested: string | undefined): PiUnderTest {
  const wanted = requested === undefined || requested === "" ? PINNED_PI_VERSION : requested;
  const supported = SUPPORTED[wanted];
  if (!supported) throw new Error(`PIER_TEST_PI=${wanted}: no such pi installed for tests (known: ${Object.keys(SUPPORTED).join(", ")})`);
  const cliPath = supported.cli();
  // cli.js sits in <package>/dist/bundle/. An alias bumped without its name
  // (or a stale install) must fail loudly, not test the wrong pi.
  const { version } = JSON.parse(readFileSync(new URL("../../package.json", pathToFileURL(cliPath)), "utf8")) as { version: string };
  if (version !== wanted) throw new Error(`PIER_TEST_PI=${wanted}, but ${cliPath} is pi ${version}`);
  return { version, cliPath, pinned: wanted === PINNED_PI_VERSION, has: supported.has };
}

export const piUnderTest: PiUnderTest = load(process.env.PIER_TEST_PI);

/** Absolute path of the CLI of a pi installed for tests ("0.87.1" or "1.6.0"), its version checked. */
export function piCliPathFor(version: string): string {
  return load(version).cliPath;
}

/** `pier --pi` arguments for a supported pi version (always given: never the pi on PATH). */
export function piArgsForVersion(version: string): string[] {
  return ["--pi", load(version).cliPath];
}

/**
 * `pier` arguments with `--pi <the pi under test>` added among pier's own
 * options (before any `--`), unless the caller names a pi itself (--pi, or
 * --bundled-pi to test pier's own choice).
 */
export function withPiUnderTest(args: readonly string[]): string[] {
  const dashDash = args.indexOf("--");
  const own = dashDash === -1 ? args : args.slice(0, dashDash);
  if (own.includes("--pi") || own.includes("--bundled-pi")) return [...args];
  return [...own, "--pi", piUnderTest.cliPath, ...args.slice(own.length)];
}
