// Which pi a real `pier` runs, with a PATH the test makes: the user's pi on
// PATH (a pnpm shim to the real pi 0.87.1 package, so the bundled 1.6.0 is
// not it) is the one that runs, said in pier's terminal and in every page's
// hello, a viewer's too; a pi on PATH whose version Pier cannot support stops
// pier with one sentence, and --bundled-pi gets past it. Also here, because
// they start processes: versions asked with `pi --version` (a wrapper that
// names no package).
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { whichPi } from "../../src/which-pi.ts";
import { piCliPathFor } from "../support/pi-under-test.ts";
import { connectBrowser, exchangeToken, runPier, startPier, type RunningPier } from "../support/pier-process.ts";

const PI_087 = piCliPathFor("0.87.1");

let dir: string;
beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "which-pi-contract-")));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A folder holding an executable `pi` with this shell script. */
function binWith(name: string, script: string): string {
  const bin = join(dir, name);
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, "pi"), `#!/bin/sh\n${script}\n`);
  chmodSync(join(bin, "pi"), 0o755);
  return bin;
}

/** pnpm's shim for a pi installed globally: runs it with `node` (this Node, as PATH holds an older one here), names its target. */
const pnpmShimTo087 = () => binWith("pnpm-bin", `exec "${process.execPath}" "${PI_087}" "$@"\n# cmd-shim-target=${PI_087}`);
const withPath = (bin: string) => ({ ...process.env, PATH: `${bin}${delimiter}${process.env["PATH"] ?? ""}` });

describe("pier and the pi on PATH", () => {
  let pier: RunningPier;
  let bin: string;
  beforeAll(async () => {
    bin = pnpmShimTo087();
    pier = await startPier(["--demo"], { env: withPath(bin), piFromPath: true });
  });
  afterAll(async () => {
    await pier?.stop();
  });

  it("runs it, and says which version and where from in its terminal and in the hello of a driver and a viewer", async () => {
    const line = `pier: pi 0.87.1 from PATH (${join(bin, "pi")})`;
    expect(pier.stderr).toContain(line);
    const driver = await connectBrowser(pier);
    try {
      expect(driver.hello.pi).toEqual({ version: "0.87.1", source: "path", path: join(bin, "pi") });
      // pi itself runs with pier's Node, the CLI the shim names.
      expect(driver.hello.piCommand.slice(0, 2)).toEqual([process.execPath, realpathSync(PI_087)]);
      driver.send({ type: "pier.create_link", role: "viewer" });
      const created = await driver.waitForFrame("link_created");
      const viewer = await connectBrowser(pier, { cookie: await exchangeToken(`http://${pier.host}/?token=${created.token}`, pier.port) });
      expect(viewer.hello.you.role).toBe("viewer");
      expect(viewer.hello.pi).toEqual(driver.hello.pi);
      await viewer.close();
    } finally {
      await driver.close();
    }
  });
});

describe("a pi on PATH Pier cannot support", () => {
  it("stops pier before anything starts, with one sentence that says what to do; --bundled-pi gets past it", async () => {
    const bin = binWith("banana-bin", `echo "pi, the banana edition"`);
    const result = await runPier(["--demo"], { env: withPath(bin), piFromPath: true });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toEqual([
      `pier: the pi on your PATH (${join(bin, "pi")}) did not say which version it is (pi --version: "pi, the banana edition"), so Pier cannot tell whether it supports it: start pier with --bundled-pi to use the pi 1.6.0 bundled with Pier, or with --pi ${join(bin, "pi")} to run it anyway.`,
    ]);

    const bundled = await startPier(["--demo", "--bundled-pi"], { env: withPath(bin) });
    try {
      expect(bundled.stderr).toContain("pier: pi 1.6.0 (bundled with Pier)");
      const browser = await connectBrowser(bundled);
      expect(browser.hello.pi).toMatchObject({ version: "1.6.0", source: "bundled" });
      await browser.close();
    } finally {
      await bundled.stop();
    }
  });
});

describe("asking pi --version", () => {
  it("tells the version of a wrapper that names no package by asking the real pi behind it", async () => {
    const bin = binWith("wrapper-bin", `exec "${process.execPath}" "${PI_087}" "$@"`);
    expect(await whichPi({ pi: null, bundledPi: false }, withPath(bin))).toEqual({
      program: join(bin, "pi"),
      path: join(bin, "pi"),
      version: "0.87.1",
      source: "path",
      warning: null,
    });
  });

  it("gives up on a pi that does not answer in time, and says so", async () => {
    const bin = binWith("silent-bin", "exec sleep 30");
    await expect(whichPi({ pi: null, bundledPi: false }, withPath(bin), { versionTimeoutMs: 500 })).rejects.toThrow(/did not say which version it is \(pi --version: no answer within 0\.5 s\)/);
  });

  it("runs a --pi whose version cannot be told as asked, with a warning (a missing file fails when pier spawns it, in the page)", async () => {
    expect(await whichPi({ pi: "/nonexistent/pi", bundledPi: false }, process.env)).toMatchObject({
      version: null,
      source: "option",
      warning: "could not tell which pi version --pi is; running it as asked, it may misbehave",
    });
  });
});
