// pier's pi arguments reach every agent as the person meant them: an
// extension given with a relative path (`-- -e ./probe.ts`) loads for an
// agent started in another folder too. Real relay, real pi children, the
// scripted model behind them.
import { copyFileSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LIVE_API_PATHS } from "@pier/protocol";
import { afterAll, expect, it } from "vitest";
import { createDemoAgentDir } from "../../src/demo/agent-dir.ts";
import { startModelServer } from "../../src/demo/model-server.ts";
import { commandId, connectBrowser, startPier, type Browser, type RunningPier } from "../support/pier-process.ts";
import { httpJson } from "../workspace/workspace-http.ts";

const probe = fileURLToPath(new URL("../../../e2e/extensions/ui-probe.ts", import.meta.url));
const cleanups: (() => Promise<unknown> | void)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function commandNames(browser: Browser): Promise<string[]> {
  const id = commandId("commands");
  browser.send({ type: "get_commands", id });
  const answer = await browser.waitForRecord((r) => r.type === "response" && r.id === id);
  return ((answer["data"] as { commands: { name: string }[] }).commands ?? []).map((command) => command.name);
}

it("an extension given with a relative path loads for an agent in another folder too", async () => {
  const server = await startModelServer({ scenario: { name: "args", rules: [], fallback: { steps: [{ kind: "text", text: "Noted." }] } } });
  cleanups.push(() => server.close());
  const agentDir = await createDemoAgentDir({ modelServerUrl: server.url });
  cleanups.push(() => agentDir.cleanup());
  const home = tempDir("pier-args-home-");
  copyFileSync(probe, join(home, "probe.ts"));
  const env = { ...process.env, PI_CODING_AGENT_DIR: agentDir.dir, PI_OFFLINE: "1" };
  const pier: RunningPier = await startPier(["--no-demo-fallback", "--", "-e", "./probe.ts"], { cwd: home, env });
  cleanups.push(() => pier.stop());
  const first = await connectBrowser(pier);
  cleanups.push(() => first.close());
  expect(await commandNames(first)).toContain("probe-confirm");

  const started = await httpJson(pier, "POST", LIVE_API_PATHS.sessions, { body: { cwd: tempDir("pier-args-other-") } });
  expect(started.status, started.text).toBe(201);
  const second = await connectBrowser(pier, { path: `/live/${started.json.card.id}/ws` });
  cleanups.push(() => second.close());
  if (second.hello.child.state !== "running") await second.waitForFrame("child_started");
  expect(await commandNames(second)).toContain("probe-confirm");
});
