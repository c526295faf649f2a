// A live session nobody watches and whose pi sits idle has its pi stopped
// (pier --idle-stop), and wakes on its own session when it is prompted from
// the board or opened: real pier, real pi children, the scripted model.
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LIVE_API_PATHS, type LiveCard } from "@pier/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandId, connectBrowser, isAlive, startPier, type RunningPier } from "../support/pier-process.ts";
import { httpJson } from "../workspace/workspace-http.ts";

const hello = fileURLToPath(new URL("../../../e2e/scenarios/hello.json", import.meta.url));

async function card(pier: RunningPier, id: string): Promise<LiveCard | undefined> {
  return ((await httpJson(pier, "GET", LIVE_API_PATHS.sessions)).json.cards as LiveCard[]).find((c) => c.id === id);
}

async function until<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("idle live sessions", () => {
  let pier: RunningPier;
  beforeAll(async () => {
    // 0.04 minutes: 2.4 s of quiet with nobody watching.
    pier = await startPier(["--demo", "--demo-scenario", hello, "--idle-stop", "0.04"]);
  });
  afterAll(async () => {
    await pier?.stop();
  });

  it("stops the pi of a session left alone, and wakes it on its own session when prompted from the board or opened", async () => {
    const folder = realpathSync(mkdtempSync(join(tmpdir(), "pier-idle-")));
    const started = await httpJson(pier, "POST", LIVE_API_PATHS.sessions, { body: { cwd: folder } });
    const id = started.json.card.id as string;
    const page = await connectBrowser(pier, { path: `/live/${id}/ws` });
    page.send({ type: "prompt", message: "remember the word heron", id: commandId("idle") });
    await page.waitForRecord((r) => r.type === "agent_settled");
    const running = page.hello.child.state === "running" ? page.hello.child : (await page.waitForFrame("child_started")).child;
    const firstPid = running.state === "running" ? running.pid : 0;
    // Watched: it stays up however long it is quiet.
    await new Promise((r) => setTimeout(r, 4_000));
    expect((await card(pier, id))?.asleep).toBe(false);
    await page.close();

    const asleep = await until(async () => {
      const c = await card(pier, id);
      return c?.asleep && c.child === "exited" ? c : undefined;
    }, "the session to fall asleep");
    expect(asleep.state).toBe("exited");
    await until(async () => !isAlive(firstPid), "its pi to be gone");

    // A prompt from the board wakes it on the same session: pi remembers the first prompt.
    const prompted = await httpJson(pier, "POST", LIVE_API_PATHS.prompt, { body: { id, message: "what was the word?" } });
    expect(prompted.status).toBe(200);
    await until(
      async () => {
        const c = await card(pier, id);
        return c?.state === "done" && !c.asleep;
      },
      "the woken run to finish",
      30_000,
    );
    const again = await connectBrowser(pier, { path: `/live/${id}/ws` });
    const askId = commandId("idle");
    again.send({ type: "get_messages", id: askId });
    const messages = (await again.waitForRecord((r) => r.type === "response" && r.id === askId)).data.messages as { role: string; content: unknown }[];
    const prompts = messages.filter((m) => m.role === "user").map((m) => JSON.stringify(m.content));
    expect(prompts.some((p) => p.includes("heron"))).toBe(true);
    expect(prompts.some((p) => p.includes("what was the word?"))).toBe(true);
    await again.close();
  });

  it("lets go of a sleeping session's output: a page that may not wake it is told so and gets no stale replay", async () => {
    // Two at once: the primary and one more; a second added agent then takes the sleeping one's place.
    const capped = await startPier(["--demo", "--demo-scenario", hello, "--idle-stop", "0.04", "--max-agents", "2"]);
    // Watched, so the primary stays awake and keeps its place.
    const primary = await connectBrowser(capped);
    try {
      const added = async () => {
        const folder = realpathSync(mkdtempSync(join(tmpdir(), "pier-idle-")));
        const started = await httpJson(capped, "POST", LIVE_API_PATHS.sessions, { body: { cwd: folder } });
        expect(started.status, started.text).toBe(201);
        return started.json.card.id as string;
      };
      const sleeper = await added();
      const page = await connectBrowser(capped, { path: `/live/${sleeper}/ws` });
      page.send({ type: "prompt", message: "say something", id: commandId("idle") });
      await page.waitForRecord((r) => r.type === "agent_settled");
      await page.close();
      await until(async () => {
        const c = await card(capped, sleeper);
        return c?.asleep && c.child === "exited";
      }, "the session to fall asleep");
      await added();

      const late = await connectBrowser(capped, { path: `/live/${sleeper}/ws` });
      try {
        expect(late.hello.child.state).toBe("exited");
        expect(late.hello.replay.bytes).toBe(0);
        const notice = await late.waitForFrame("notice");
        expect(notice.message).toMatch(/stopped while it sat idle/);
        expect((await card(capped, sleeper))?.asleep).toBe(true);
      } finally {
        await late.close();
      }
    } finally {
      await primary.close();
      await capped.stop();
    }
  });
});
