import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadScenario, ScenarioError, validateScenario } from "../../src/demo/scenario.ts";
import { tourScenario } from "../../src/demo/tour.ts";

const SCENARIOS_DIR = fileURLToPath(new URL("../../scenarios", import.meta.url));

const withSteps = (steps: unknown[]) => ({ name: "t", rules: [{ when: {}, turns: [{ steps }] }] });

describe("validateScenario", () => {
  it("accepts the tour", () => {
    expect(validateScenario(tourScenario).name).toBe("pier-tour");
  });

  it("names the bad field in a clear error", () => {
    expect(() => validateScenario(withSteps([{ kind: "text", text: "ok" }, { kind: "txt" }]), "bad.json")).toThrow(
      /^bad\.json: scenario\.rules\[0\]\.turns\[0\]\.steps\[1\]\.kind: unknown step kind "txt"/,
    );
    expect(() => validateScenario(withSteps([{ kind: "toolCall", name: "read", arguments: "x" }]))).toThrow(/steps\[0\]\.arguments: must be an object/);
    expect(() => validateScenario({ rules: [] })).toThrow(/scenario\.name: must be a string/);
    expect(() => validateScenario([])).toThrow(ScenarioError);
  });

  it("rejects an httpError mixed with other steps, a bad status, a bad regex and empty lists", () => {
    expect(() =>
      validateScenario(
        withSteps([
          { kind: "text", text: "a" },
          { kind: "httpError", status: 529, message: "x" },
        ]),
      ),
    ).toThrow(/steps\[1\]: an httpError step must be the only step/);
    expect(() => validateScenario(withSteps([{ kind: "httpError", status: 200, message: "x" }]))).toThrow(/status/);
    expect(() => validateScenario({ name: "t", rules: [{ when: { regex: "(" }, turns: [{ steps: [{ kind: "cut" }] }] }] })).toThrow(/when\.regex: invalid regular expression/);
    expect(() => validateScenario({ name: "t", rules: [{ when: { typo: 1 }, turns: [{ steps: [{ kind: "cut" }] }] }] })).toThrow(/when\.typo: unknown condition/);
    expect(() => validateScenario(withSteps([]))).toThrow(/steps: must be a non-empty array/);
    expect(() => validateScenario({ name: "t", rules: [{ when: {}, turns: [] }] })).toThrow(/turns: must be a non-empty array/);
  });
});

describe("scenario piSettings", () => {
  const base = { name: "s", rules: [] };
  it("accepts an object of pi settings", () => {
    expect(validateScenario({ ...base, piSettings: { retry: { baseDelayMs: 10 } } }).piSettings).toEqual({ retry: { baseDelayMs: 10 } });
  });
  it("refuses anything else with the field named", () => {
    expect(() => validateScenario({ ...base, piSettings: [1] })).toThrow(/scenario\.piSettings: must be an object/);
    expect(() => validateScenario({ ...base, piSettings: "fast" })).toThrow(ScenarioError);
  });
});

describe("loadScenario", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pier-scenario-test-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("loads every scenario shipped in relay/scenarios", async () => {
    const files = (await readdir(SCENARIOS_DIR)).filter((file) => file.endsWith(".json"));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) await expect(loadScenario(join(SCENARIOS_DIR, file))).resolves.toHaveProperty("rules");
  });

  it("reports broken JSON and missing files with the path", async () => {
    const broken = join(dir, "broken.json");
    await writeFile(broken, "{ not json");
    await expect(loadScenario(broken)).rejects.toThrow(`${broken}: not valid JSON`);
    await expect(loadScenario(join(dir, "missing.json"))).rejects.toThrow(/missing\.json: cannot read scenario file/);
  });

  // Hole 9 of issue 31: `--demo-scenario <FIFO>` waited forever for a writer.
  it("names a named pipe for what it is, at once, instead of waiting on it", async () => {
    const fifo = join(dir, "pipe.json");
    execFileSync("mkfifo", [fifo]);
    await expect(loadScenario(fifo)).rejects.toThrow(`${fifo}: cannot read scenario file (${fifo} is a named pipe (FIFO), not a scenario file)`);
  });

  it("reports an invalid scenario with the path", async () => {
    const invalid = join(dir, "invalid.json");
    await writeFile(invalid, JSON.stringify(withSteps([{ kind: "pause" }])));
    await expect(loadScenario(invalid)).rejects.toThrow(`${invalid}: scenario.rules[0].turns[0].steps[0].ms: must be an integer >= 0`);
  });
});
