// resolveSessionDir: every source pi 0.87.1 reads at start-up, their order,
// and the ways pi's own parsing and settings loading fall through.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readPiArgs, resolveSessionDir } from "../../src/sessions/session-dir.ts";

describe("resolveSessionDir", () => {
  let root: string;
  let home: string;
  let agent: string;
  let project: string;
  /** The default session folder of `project` under `agent`. */
  let defaultDir: string;
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), "pier-sdir-")));
    home = join(root, "home");
    agent = join(root, "agent");
    project = join(root, "work", "proj");
    await mkdir(home);
    await mkdir(agent);
    await mkdir(project, { recursive: true });
    defaultDir = join(agent, "sessions", `--${project.slice(1).replaceAll("/", "-")}--`);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const resolveWith = (piArgs: string[] = [], env: NodeJS.ProcessEnv = { PI_CODING_AGENT_DIR: agent }) => resolveSessionDir({ cwd: project, env, piArgs, homeDir: home });
  const globalSettings = (settings: unknown) => writeFile(join(agent, "settings.json"), typeof settings === "string" ? settings : JSON.stringify(settings));
  const projectSettings = async (settings: unknown) => {
    await mkdir(join(project, ".pi"), { recursive: true });
    await writeFile(join(project, ".pi", "settings.json"), typeof settings === "string" ? settings : JSON.stringify(settings));
  };

  // Hole 9 of issue 31: a project's .pi/settings.json that is a named pipe
  // kept pier from ever starting (a plain readFile waits for a writer).
  it("takes a settings file that is a named pipe as empty, without waiting on it", async () => {
    await mkdir(join(project, ".pi"), { recursive: true });
    execFileSync("mkfifo", [join(project, ".pi", "settings.json")]);
    execFileSync("mkfifo", [join(agent, "settings.json")]);
    expect(await resolveWith()).toMatchObject({ dir: defaultDir, source: "default" });
  });

  it("defaults to <agentDir>/sessions/--<cwd with separators as dashes>--", async () => {
    expect(await resolveWith()).toEqual({ dir: defaultDir, filterCwd: false, source: "default", persisted: true, cwd: project });
  });

  it("uses ~/.pi/agent without PI_CODING_AGENT_DIR, and expands ~ in it", async () => {
    const expected = join(home, ".pi", "agent", "sessions", `--${project.slice(1).replaceAll("/", "-")}--`);
    expect((await resolveWith([], {})).dir).toBe(expected);
    expect((await resolveWith([], { PI_CODING_AGENT_DIR: "" })).dir).toBe(expected);
    expect((await resolveWith([], { PI_CODING_AGENT_DIR: "~/elsewhere" })).dir).toBe(join(home, "elsewhere", "sessions", `--${project.slice(1).replaceAll("/", "-")}--`));
    // The home folder comes from the child's HOME when not given.
    const fromEnvHome = await resolveSessionDir({ cwd: project, env: { HOME: home }, piArgs: [] });
    expect(fromEnvHome.dir).toBe(expected);
  });

  it("resolves the workspace like pi's process.cwd(): symbolic links followed", async () => {
    const link = join(root, "link");
    await symlink(project, link);
    const resolved = await resolveSessionDir({ cwd: link, env: { PI_CODING_AGENT_DIR: agent }, piArgs: [], homeDir: home });
    expect(resolved.cwd).toBe(project);
    expect(resolved.dir).toBe(defaultDir);
  });

  it("takes PI_CODING_AGENT_SESSION_DIR, expanded, and filters by cwd unless it is the default folder", async () => {
    const custom = join(root, "shared");
    expect(await resolveWith([], { PI_CODING_AGENT_DIR: agent, PI_CODING_AGENT_SESSION_DIR: custom })).toMatchObject({ dir: custom, filterCwd: true, source: "env" });
    expect(await resolveWith([], { PI_CODING_AGENT_DIR: agent, PI_CODING_AGENT_SESSION_DIR: "~/s" })).toMatchObject({ dir: join(home, "s"), source: "env" });
    expect(await resolveWith([], { PI_CODING_AGENT_DIR: agent, PI_CODING_AGENT_SESSION_DIR: defaultDir })).toMatchObject({ dir: defaultDir, filterCwd: false, source: "env" });
    // pi compares strings: the same folder spelled differently still filters.
    expect(await resolveWith([], { PI_CODING_AGENT_DIR: agent, PI_CODING_AGENT_SESSION_DIR: `${defaultDir}/` })).toMatchObject({ dir: defaultDir, filterCwd: true });
    expect(await resolveWith([], { PI_CODING_AGENT_DIR: agent, PI_CODING_AGENT_SESSION_DIR: "" })).toMatchObject({ source: "default" });
  });

  it("takes --session-dir over the environment: absolute, relative to the workspace, ~ and file:// URLs", async () => {
    const env = { PI_CODING_AGENT_DIR: agent, PI_CODING_AGENT_SESSION_DIR: join(root, "from-env") };
    expect(await resolveWith(["--session-dir", join(root, "cli")], env)).toMatchObject({ dir: join(root, "cli"), filterCwd: true, source: "cli" });
    expect(await resolveWith(["--session-dir", "rel/s"], env)).toMatchObject({ dir: join(project, "rel", "s"), filterCwd: true, source: "cli" });
    expect(await resolveWith(["--session-dir", "~"], env)).toMatchObject({ dir: home, source: "cli" });
    expect(await resolveWith(["--session-dir", pathToFileURL(join(root, "u")).href], env)).toMatchObject({ dir: join(root, "u"), source: "cli" });
    // The last one wins, as in pi's parser.
    expect(await resolveWith(["--session-dir", "a", "--session-dir", "b"], env)).toMatchObject({ dir: join(project, "b") });
  });

  it("ignores what pi's parser does not take as --session-dir", async () => {
    const env = { PI_CODING_AGENT_DIR: agent };
    // No "=" form in pi 0.87.1: it becomes an unknown extension flag.
    expect(await resolveWith(["--session-dir=/x"], env)).toMatchObject({ source: "default" });
    // A value of another option, words after "--", a missing or empty value.
    expect(await resolveWith(["--append-system-prompt", "--session-dir", "/x"], env)).toMatchObject({ source: "default" });
    expect(await resolveWith(["--", "--session-dir", "/x"], env)).toMatchObject({ source: "default" });
    expect(await resolveWith(["--session-dir"], env)).toMatchObject({ source: "default" });
    expect(await resolveWith(["--session-dir", ""], env)).toMatchObject({ source: "default" });
    // An unknown flag eats a following plain word, not a following option.
    expect(await resolveWith(["--my-flag", "--session-dir", "/x"], env)).toMatchObject({ dir: "/x", source: "cli" });
    expect(await resolveWith(["--mode", "rpc", "--model", "m", "--session-dir", "/x"], env)).toMatchObject({ dir: "/x" });
  });

  it("reads --no-session", async () => {
    expect(await resolveWith(["--no-session"])).toMatchObject({ persisted: false, source: "default" });
    expect(readPiArgs(["--name", "--no-session"])).toEqual({ sessionDir: undefined, noSession: false });
    expect(readPiArgs(["-p", "--no-session"])).toEqual({ sessionDir: undefined, noSession: true });
  });

  it("reads the sessionDir setting: global, overridden by the project, relative to the workspace", async () => {
    await globalSettings({ sessionDir: join(root, "global") });
    expect(await resolveWith()).toMatchObject({ dir: join(root, "global"), filterCwd: true, source: "settings" });
    await projectSettings({ sessionDir: "proj-sessions" });
    expect(await resolveWith()).toMatchObject({ dir: join(project, "proj-sessions"), filterCwd: true, source: "settings" });
    // The environment and the CLI beat both.
    expect(await resolveWith([], { PI_CODING_AGENT_DIR: agent, PI_CODING_AGENT_SESSION_DIR: "/env" })).toMatchObject({ dir: "/env", source: "env" });
  });

  it("lets a project's null or empty sessionDir clear the global one (pi's merge)", async () => {
    await globalSettings({ sessionDir: join(root, "global") });
    await projectSettings({ sessionDir: null });
    expect(await resolveWith()).toMatchObject({ dir: defaultDir, source: "default" });
    await projectSettings({ sessionDir: "" });
    expect(await resolveWith()).toMatchObject({ dir: defaultDir, source: "default" });
    await projectSettings({ theme: "dark" });
    expect(await resolveWith()).toMatchObject({ dir: join(root, "global") });
  });

  it("falls through unreadable or invalid settings files without throwing", async () => {
    await globalSettings(`\uFEFF${JSON.stringify({ sessionDir: "~/bom" })}`);
    expect(await resolveWith()).toMatchObject({ dir: join(home, "bom"), source: "settings" });
    await projectSettings("{ not json");
    expect(await resolveWith()).toMatchObject({ dir: join(home, "bom") });
    await projectSettings("null");
    expect(await resolveWith()).toMatchObject({ dir: join(home, "bom") });
    await projectSettings("");
    expect(await resolveWith()).toMatchObject({ dir: join(home, "bom") });
    await globalSettings("[1, 2]");
    expect(await resolveWith()).toMatchObject({ source: "default" });
    await globalSettings({ sessionDir: 42 });
    expect(await resolveWith()).toMatchObject({ source: "default" });
    await rm(join(agent, "settings.json"));
    await mkdir(join(agent, "settings.json"));
    expect(await resolveWith()).toMatchObject({ source: "default" });
  });
});
