import { mkdtempSync, readFileSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keptHostName } from "../../src/kept-host-name.ts";

describe("keptHostName", () => {
  it("makes a name once and gives the same one on the next run, in a file only its user can read", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "pier-host-")), "pier");
    const lines: string[] = [];
    const first = await keptHostName(dir, (line) => lines.push(line));
    expect(first).toMatch(/^pier-[a-z2-7]{10}\.localhost$/);
    expect(await keptHostName(dir, (line) => lines.push(line))).toBe(first);
    expect(statSync(join(dir, "host-name")).mode & 0o777).toBe(0o600);
    expect(lines).toEqual([]);
  });

  it("replaces a file that does not hold a name pier made (say, one naming another site), and says so", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pier-host-"));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "host-name"), "evil.example\n");
    const lines: string[] = [];
    const name = await keptHostName(dir, (line) => lines.push(line));
    expect(name).toMatch(/^pier-[a-z2-7]{10}\.localhost$/);
    expect(readFileSync(join(dir, "host-name"), "utf8").trim()).toBe(name);
    expect(lines.join("\n")).toContain("does not hold a host name pier made");
  });
});
