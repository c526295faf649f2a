// The workspace's trust, read and written as pi reads and writes it: checked
// against pi's own ProjectTrustStore (dist/core/trust-manager.js) of both
// installed pis, in both directions, on a private agent folder.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { piCliPathFor } from "../support/pi-under-test.ts";
import { defaultProjectTrust, formatTrustStore, nearestDecision, parseTrustStore, WorkspaceTrust } from "../../src/workspace/workspace-trust.ts";

type PiTrustStore = { get(cwd: string): boolean | null; set(cwd: string, decision: boolean): void };
type PiTrustModule = { ProjectTrustStore: new (agentDir: string) => PiTrustStore };

// cli.js is in <package>/dist/bundle/; the trust store in <package>/dist/core/.
const piTrustModules: [string, () => Promise<PiTrustModule>][] = ["0.87.1", "1.6.0"].map((version) => [
  version,
  () => import(new URL("../core/trust-manager.js", `file://${piCliPathFor(version)}`).href) as Promise<PiTrustModule>,
]);

describe("trust.json as pi formats it", () => {
  it("reads pi's format (a BOM ignored) and refuses anything else with a sentence", () => {
    expect(parseTrustStore('\ufeff{"/a": true, "/b": false, "/c": null}', "t.json")).toEqual({ "/a": true, "/b": false, "/c": null });
    expect(() => parseTrustStore("[]", "t.json")).toThrow(/t\.json is not a JSON object/);
    expect(() => parseTrustStore('{"/a": "yes"}', "t.json")).toThrow(/not true, false or null/);
    expect(() => parseTrustStore("{", "t.json")).toThrow(/not valid JSON/);
  });

  it("writes keys sorted, two spaces, a final newline", () => {
    expect(formatTrustStore({ "/z": true, "/a": false })).toBe('{\n  "/a": false,\n  "/z": true\n}\n');
  });

  it("the closest saved decision wins, null entries are skipped", () => {
    const data = { "/home/ada": true, "/home/ada/work/evil": false, "/home/ada/work": null };
    expect(nearestDecision(data, "/home/ada/work/evil/sub")).toEqual({ path: "/home/ada/work/evil", trusted: false });
    expect(nearestDecision(data, "/home/ada/work/ok")).toEqual({ path: "/home/ada", trusted: true });
    expect(nearestDecision(data, "/srv")).toBeNull();
  });

  it('defaultProjectTrust: only "always" trusts; a broken settings file asks', () => {
    expect(defaultProjectTrust('{"defaultProjectTrust":"always"}')).toBe("always");
    expect(defaultProjectTrust('{"defaultProjectTrust":"never"}')).toBe("never");
    expect(defaultProjectTrust('{"defaultProjectTrust":"yes"}')).toBe("ask");
    expect(defaultProjectTrust("{")).toBe("ask");
    expect(defaultProjectTrust(null)).toBe("ask");
  });
});

describe("WorkspaceTrust", () => {
  let root: string;
  let agentDir: string;
  let project: string;
  const env = () => ({ PI_CODING_AGENT_DIR: agentDir, HOME: root });

  beforeEach(async () => {
    // Canonical itself, so the paths below are the ones pi would save.
    root = await realpath(await mkdtemp(join(tmpdir(), "pier-trust-")));
    agentDir = join(root, "agent");
    project = join(root, "work", "project");
    await mkdir(project, { recursive: true });
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("with nothing saved: untrusted, unless pi's defaultProjectTrust is always", async () => {
    const trust = await WorkspaceTrust.open(project, env());
    expect(await trust.read()).toEqual({ trusted: false, source: "default" });
    await mkdir(agentDir, { recursive: true });
    await writeFile(join(agentDir, "settings.json"), JSON.stringify({ defaultProjectTrust: "always" }));
    expect(await trust.read()).toEqual({ trusted: true, source: "default" });
  });

  it("names the folder by its canonical path (a symbolic link resolved), as pi does", async () => {
    const link = join(root, "link");
    await symlink(project, link);
    const trust = await WorkspaceTrust.open(link, env());
    expect(trust.folder).toBe(project);
    await trust.decide(true);
    expect(JSON.parse(await readFile(join(agentDir, "trust.json"), "utf8"))).toEqual({ [trust.folder]: true });
  });

  it("a parent's decision applies; this folder's own decision beats it", async () => {
    await mkdir(agentDir, { recursive: true });
    await writeFile(join(agentDir, "trust.json"), formatTrustStore({ [join(root, "work")]: true }));
    const trust = await WorkspaceTrust.open(project, env());
    expect(await trust.read()).toEqual({ trusted: true, source: "parent", path: join(root, "work") });
    expect(await trust.decide(false)).toEqual({ trusted: false, source: "folder", path: project });
  });

  it("keeps every other entry, leaves no temporary file or lock behind", async () => {
    await mkdir(agentDir, { recursive: true });
    await writeFile(join(agentDir, "trust.json"), formatTrustStore({ "/elsewhere": false, "/other": true, "/gone": null }));
    const trust = await WorkspaceTrust.open(project, env());
    await trust.decide(true);
    expect(JSON.parse(await readFile(join(agentDir, "trust.json"), "utf8"))).toEqual({ "/elsewhere": false, "/other": true, "/gone": null, [project]: true });
    expect((await readdir(agentDir)).sort()).toEqual(["trust.json"]);
  });

  it("never overwrites a trust store it cannot read: untrusted, with the reason, and the write refused", async () => {
    await mkdir(agentDir, { recursive: true });
    await writeFile(join(agentDir, "trust.json"), "{ not json");
    const trust = await WorkspaceTrust.open(project, env());
    const info = await trust.read();
    expect(info.trusted).toBe(false);
    expect(info.problem).toMatch(/trust\.json is not valid JSON/);
    await expect(trust.decide(true)).rejects.toThrow(/not valid JSON/);
    expect(await readFile(join(agentDir, "trust.json"), "utf8")).toBe("{ not json");
  });

  it("never waits on a named pipe in place of trust.json or settings.json: untrusted, with the reason, at once", async () => {
    await mkdir(agentDir, { recursive: true });
    execFileSync("mkfifo", [join(agentDir, "trust.json"), join(agentDir, "settings.json")]);
    const trust = await WorkspaceTrust.open(project, env());
    const info = await trust.read();
    expect(info.trusted).toBe(false);
    expect(info.problem).toMatch(/named pipe/);
    await expect(trust.decide(true)).rejects.toThrow(/named pipe/);
  });

  it("waits for pi's lock, and takes over one left behind by a process that died", async () => {
    await mkdir(agentDir, { recursive: true });
    const lock = join(agentDir, "trust.json.lock");
    await mkdir(lock);
    const trust = await WorkspaceTrust.open(project, env());
    const pending = trust.decide(true);
    await new Promise((done) => setTimeout(done, 100));
    expect(existsSync(join(agentDir, "trust.json"))).toBe(false);
    await rm(lock, { recursive: true });
    expect((await pending).trusted).toBe(true);

    await mkdir(lock);
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    expect((await trust.decide(false)).trusted).toBe(false);
    expect(existsSync(lock)).toBe(false);
  });

  describe.each(piTrustModules)("shared with pi %s's own trust store", (_version, load) => {
    it("a decision pi saved (/trust) is Pier's, and Pier's decision is pi's", async () => {
      const { ProjectTrustStore } = await load();
      const pi = new ProjectTrustStore(agentDir);
      const trust = await WorkspaceTrust.open(project, env());

      pi.set(join(root, "work"), true);
      expect(await trust.read()).toEqual({ trusted: true, source: "parent", path: join(root, "work") });

      await trust.decide(false);
      expect(pi.get(project)).toBe(false);
      expect(pi.get(join(root, "work", "sibling"))).toBe(true);
      await trust.decide(true);
      expect(pi.get(project)).toBe(true);

      // pi writes again after Pier: both entries survive, in pi's format.
      pi.set("/srv/other", false);
      const text = await readFile(join(agentDir, "trust.json"), "utf8");
      expect(text).toBe(formatTrustStore(JSON.parse(text)));
      expect(JSON.parse(text)).toEqual({ [join(root, "work")]: true, [project]: true, "/srv/other": false });
    });
  });
});
