// Which pi the contract tests run against. Pier pins pi 0.87.1 (the `pier`
// default); pi 1.6.0 is installed beside it as the devDependency alias
// `pi-coding-agent-1.6` so the same contract files can prove Pier works with
// both. The Vitest project `contract-pi-1.6` sets PIER_TEST_PI=1.6.0; unset
// (or "0.87.1") means the pinned pi.
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
  /** True for the pinned pi, the one `pier` runs by default and fixtures are captured from. */
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
  [PINNED_PI_VERSION]: { cli: defaultPiCliPath, has: NONE },
  "1.6.0": {
    // pi's ./rpc-entry export sits next to its CLI in dist/bundle/ (see src/pi-cli.ts).
    cli: () => fileURLToPath(new URL("./cli.js", import.meta.resolve("pi-coding-agent-1.6/rpc-entry"))),
    has: ALL,
  },
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

/** `pier --pi` arguments for a supported pi version ([] for the pinned one, pier's default). */
export function piArgsForVersion(version: string): string[] {
  if (version === PINNED_PI_VERSION) return [];
  return ["--pi", load(version).cliPath];
}

/**
 * `pier` arguments with `--pi <the pi under test>` added among pier's own
 * options (before any `--`), unless that is the pinned pi (pier's default)
 * or the caller names a pi itself.
 */
export function withPiUnderTest(args: readonly string[]): string[] {
  const dashDash = args.indexOf("--");
  const own = dashDash === -1 ? args : args.slice(0, dashDash);
  if (piUnderTest.pinned || own.includes("--pi")) return [...args];
  return [...own, "--pi", piUnderTest.cliPath, ...args.slice(own.length)];
}
