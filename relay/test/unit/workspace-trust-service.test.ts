// The relay's side of workspace trust on a private pi folder: pi's arguments
// follow the decision, a change is told once, and pi's own --approve /
// --no-approve (after pier's --) fix it for the run.
import { existsSync } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { WorkspaceTrustInfo } from "@pier/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WorkspaceTrustService } from "../../src/workspace-trust-service.ts";

describe("WorkspaceTrustService", () => {
  let root: string;
  const changes: WorkspaceTrustInfo[] = [];
  const create = (piArgs: string[]) =>
    WorkspaceTrustService.create({ cwd: root, env: { PI_CODING_AGENT_DIR: join(root, "agent"), HOME: root }, piArgs, log: () => {}, onChange: (info) => changes.push(info) });

  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), "pier-trust-service-")));
    changes.length = 0;
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("pi's arguments carry the decision; deciding tells the change once", async () => {
    const trust = await create(["cli.js", "--mode", "rpc", "--continue"]);
    expect(trust.piArgs(["cli.js", "--mode", "rpc", "--continue"])).toEqual(["cli.js", "--mode", "rpc", "--no-approve", "--continue"]);
    await trust.decide(true);
    expect(changes).toEqual([{ trusted: true, source: "folder", path: root }]);
    expect(trust.piArgs(["cli.js", "--mode", "rpc", "--no-approve", "--continue"])).toEqual(["cli.js", "--mode", "rpc", "--approve", "--continue"]);
    await trust.refresh();
    expect(changes).toHaveLength(1);
  });

  it("pi's own --no-approve decides for the run: no change from the page, nothing written", async () => {
    const trust = await create(["cli.js", "--mode", "rpc", "-na"]);
    expect(trust.info).toEqual({ trusted: false, source: "pi_args" });
    expect(trust.piArgs(["cli.js", "--mode", "rpc", "-na"])).toEqual(["cli.js", "--mode", "rpc", "-na"]);
    await expect(trust.decide(true)).rejects.toThrow("pi was started with --no-approve (after pier's --), which decides for this run; start pier without it to decide here");
    expect(existsSync(join(root, "agent", "trust.json"))).toBe(false);
    expect(changes).toEqual([]);
  });
});
