// Which pi pier runs (src/which-pi.ts), decided from a PATH the test makes:
// the pi on it leads to a real installed pi package (0.87.1 or 1.6.0), as an
// npm global install (a symlink) or a pnpm shim (a shell script naming its
// target) would. No process is started here: versions come from the
// packages' package.json (asking `pi --version` is in which-pi.contract.test.ts).
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultPiCliPath } from "../../src/pi-cli.ts";
import { piPackageVersion, piVersionSupport } from "../../src/pi-version.ts";
import { cliBehind, findOnPath, UnsupportedPiError, whichPi } from "../../src/which-pi.ts";
import { piCliPathFor } from "../support/pi-under-test.ts";

const PI_087 = piCliPathFor("0.87.1");
const PI_16 = piCliPathFor("1.6.0");
const NEITHER = { pi: null, bundledPi: false };

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "which-pi-")));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A folder for PATH holding `pi` as a symlink to `target` (npm's global bin). */
function symlinkedPi(name: string, target: string): string {
  const bin = join(dir, name);
  mkdirSync(bin, { recursive: true });
  symlinkSync(target, join(bin, "pi"));
  return bin;
}

/** A folder for PATH holding `pi` as pnpm writes it: a shell script with its target in a comment. */
function pnpmShim(name: string, target: string): string {
  const bin = join(dir, name);
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, "pi"), `#!/bin/sh\nbasedir=$(dirname "$0")\nexec node  "${target}" "$@"\n# cmd-shim-target=${target}\n`);
  chmodSync(join(bin, "pi"), 0o755);
  return bin;
}

/** A pi package of another version, for the support check only (its CLI is never run). */
function packageOfVersion(version: string): string {
  const root = join(dir, `pkg-${version}`);
  mkdirSync(join(root, "dist", "bundle"), { recursive: true });
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "@earendil-works/pi-coding-agent", version, bin: { pi: "dist/bundle/cli.js" } }));
  writeFileSync(join(root, "dist", "bundle", "cli.js"), "");
  chmodSync(join(root, "dist", "bundle", "cli.js"), 0o755);
  return join(root, "dist", "bundle", "cli.js");
}

const env = (...bins: string[]) => ({ PATH: bins.join(delimiter) });

describe("whichPi", () => {
  it("runs the bundled pi (1.6.0, the current release) when there is no pi on PATH", async () => {
    const bundled = defaultPiCliPath();
    expect(await whichPi(NEITHER, env(join(dir, "empty"), "/nonexistent"))).toEqual({ program: bundled, path: bundled, version: "1.6.0", source: "bundled", warning: null });
    expect(await whichPi(NEITHER, {})).toMatchObject({ source: "bundled" });
  });

  it("runs the user's pi from PATH: through npm's symlink, with pier's Node, its version from its package", async () => {
    const bin = symlinkedPi("npm-bin", PI_087);
    expect(await whichPi(NEITHER, env(bin))).toEqual({ program: realpathSync(PI_087), path: join(bin, "pi"), version: "0.87.1", source: "path", warning: null });
  });

  it("sees through pnpm's shell shim to the CLI it names", async () => {
    const bin = pnpmShim("pnpm-bin", PI_087);
    expect(await whichPi(NEITHER, env(bin))).toMatchObject({ program: realpathSync(PI_087), path: join(bin, "pi"), version: "0.87.1", source: "path" });
  });

  it("runs pi 1.6.0 from PATH as the user's own when it is not the bundled install", async () => {
    const bin = symlinkedPi("npm-bin", PI_16);
    expect(await whichPi(NEITHER, env(bin), { bundledCli: PI_087 })).toMatchObject({ version: "1.6.0", source: "path", path: join(bin, "pi") });
  });

  it("calls the bundled pi bundled when PATH leads to it (pnpm scripts put node_modules/.bin on PATH)", async () => {
    const bin = pnpmShim("node_modules-bin", defaultPiCliPath());
    expect(await whichPi(NEITHER, env(bin))).toMatchObject({ source: "bundled", version: "1.6.0", path: defaultPiCliPath() });
  });

  it("takes the first pi on PATH, as a shell would, skipping a file that is not executable and relative entries", async () => {
    const plain = join(dir, "plain");
    mkdirSync(plain);
    writeFileSync(join(plain, "pi"), "not a program");
    const first = symlinkedPi("first", PI_087);
    const second = symlinkedPi("second", PI_16);
    expect(findOnPath("pi", ["", "relative/bin", plain, first, second].join(delimiter))).toBe(join(first, "pi"));
    expect(findOnPath("pi", "")).toBeNull();
  });

  it("--pi wins over PATH, and --bundled-pi too", async () => {
    const bin = symlinkedPi("npm-bin", PI_087);
    expect(await whichPi({ pi: PI_16, bundledPi: false }, env(bin))).toEqual({ program: PI_16, path: PI_16, version: "1.6.0", source: "option", warning: null });
    expect(await whichPi({ pi: null, bundledPi: true }, env(bin))).toMatchObject({ source: "bundled", version: "1.6.0" });
  });

  it("refuses a pi on PATH too old or too new for Pier in one sentence that says what to do", async () => {
    const old = symlinkedPi("old", packageOfVersion("0.80.0"));
    const refusal = whichPi(NEITHER, env(old));
    await expect(refusal).rejects.toBeInstanceOf(UnsupportedPiError);
    const message = await refusal.then(
      () => "",
      (error: Error) => error.message,
    );
    expect(message).toBe(
      `the pi on your PATH (${join(old, "pi")}) is 0.80.0, older than Pier supports (0.87.1 or newer, before 2.0): update it, or start pier with --bundled-pi to use the pi 1.6.0 bundled with Pier, or with --pi PATH to run another pi.`,
    );
    expect(message.split(/(?<=[.!?])\s+(?=[A-Z])/)).toHaveLength(1);
    const next = symlinkedPi("next", packageOfVersion("2.0.0"));
    await expect(whichPi(NEITHER, env(next))).rejects.toThrow(/is 2\.0\.0, newer than Pier supports .*: start pier with --bundled-pi/);
    // The ways out it names work.
    expect(await whichPi({ pi: null, bundledPi: true }, env(old))).toMatchObject({ source: "bundled" });
  });

  it("runs a --pi of an unsupported version as asked, with a warning for the terminal", async () => {
    const old = packageOfVersion("0.80.0");
    const chosen = await whichPi({ pi: old, bundledPi: false }, {});
    expect(chosen).toMatchObject({ source: "option", version: "0.80.0" });
    expect(chosen.warning).toMatch(/pi 0\.80\.0 is not a version Pier supports \(0\.87\.1 or newer, before 2\.0\); running it as asked/);
  });
});

describe("pi versions", () => {
  it("reads a pi package's version from its package.json, and nothing from a file outside one", () => {
    expect(piPackageVersion(PI_087)).toBe("0.87.1");
    expect(piPackageVersion(PI_16)).toBe("1.6.0");
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "not-pi", version: "9.9.9" }));
    writeFileSync(join(dir, "cli.js"), "");
    expect(piPackageVersion(join(dir, "cli.js"))).toBeNull();
    expect(piPackageVersion(join(dir, "missing.js"))).toBeNull();
  });

  it.each([
    ["0.87.1", "supported"],
    ["0.99.0", "supported"],
    ["1.6.0", "supported"],
    ["1.9.3-beta.1", "supported"],
    ["0.87.0", "too_old"],
    ["0.9.0", "too_old"],
    ["2.0.0", "too_new"],
    ["1.6", "unparsable"],
    ["banana", "unparsable"],
    [null, "unparsable"],
  ] as const)("%s is %s", (version, support) => {
    expect(piVersionSupport(version)).toBe(support);
  });

  it("leaves a program that names no CLI as it is", () => {
    writeFileSync(join(dir, "wrapper"), '#!/bin/sh\nexec somewhere/pi "$@"\n');
    expect(cliBehind(join(dir, "wrapper"))).toBe(join(dir, "wrapper"));
    expect(cliBehind(join(dir, "missing"))).toBe(join(dir, "missing"));
  });
});
