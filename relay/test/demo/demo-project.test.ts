import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { copyDemoProject, DEMO_PROJECT_SOURCE } from "../../src/demo/demo-project.ts";
import { TOUR_EDIT } from "../../src/demo/tour.ts";
import { defaultPiCliPath } from "../../src/pi-cli.ts";

describe("copyDemoProject", () => {
  it("copies the sample project to a scratch dir whose tests pass, and leaves the original alone", async () => {
    const copy = await copyDemoProject();
    try {
      expect(copy.dir).not.toBe(DEMO_PROJECT_SOURCE);
      for (const file of ["README.md", "package.json", "test.js", "src/greet.js", "src/greetings.js", "src/cli.js"]) {
        expect(existsSync(join(copy.dir, file)), file).toBe(true);
      }
      expect(execFileSync(process.execPath, ["test.js"], { cwd: copy.dir, encoding: "utf8" })).toContain("5 passed, 0 failed");
      await writeFile(join(copy.dir, "README.md"), "changed");
      expect(await readFile(join(DEMO_PROJECT_SOURCE, "README.md"), "utf8")).toContain("# tiny-greeter");
    } finally {
      await copy.cleanup();
    }
    expect(existsSync(dirname(copy.dir))).toBe(false);
  });

  it("contains the exact text the tour's edit replaces, once", async () => {
    const source = await readFile(join(DEMO_PROJECT_SOURCE, TOUR_EDIT.path), "utf8");
    expect(source.split(TOUR_EDIT.oldText)).toHaveLength(2);
  });
});

describe("defaultPiCliPath", () => {
  it("points at pi's bundled CLI", () => {
    expect(defaultPiCliPath()).toMatch(/pi-coding-agent\/dist\/bundle\/cli\.js$/);
    expect(existsSync(defaultPiCliPath())).toBe(true);
  });
});
