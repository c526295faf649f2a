// `pier tap`: a page opened on the tap's link watches another client's
// conversation with a real pi (the scripted model), read-only. It says so,
// shows the client's commands in the inspector paired with pi's answers,
// and sends pi nothing of its own: the client's stdout holds answers to the
// client's commands only.
import { spawn } from "node:child_process";
import { expect, test } from "../support/pier.ts";
import { createDemoAgentDir } from "../../relay/src/demo/agent-dir.ts";
import { startModelServer } from "../../relay/src/demo/model-server.ts";
import { PIER_BIN } from "../../relay/test/support/pier-process.ts";
import { piCliPathFor } from "../../relay/test/support/pi-under-test.ts";

const LINK_LINE = /pier tap: read-only inspector of this conversation: (http:\S+)/;

test("a page on the tap's link shows the client's conversation read-only, and asks pi nothing", async ({ page, piVersion }) => {
  const server = await startModelServer({
    scenario: { name: "tap", pace: { chunkChars: 8, delayMs: 2 }, rules: [], fallback: { steps: [{ kind: "text", text: "Hello through the tap." }] } },
  });
  const agent = await createDemoAgentDir({ modelServerUrl: server.url });
  const tap = spawn(process.execPath, [PIER_BIN, "tap", "--", process.execPath, piCliPathFor(piVersion), "--mode", "rpc", "--no-session"], {
    env: { ...process.env, PI_CODING_AGENT_DIR: agent.dir, PI_OFFLINE: "1" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  tap.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  tap.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => tap.once("close", (code) => resolve(code)));
  try {
    await expect.poll(() => LINK_LINE.exec(stderr)?.[1], { timeout: 30_000 }).toBeTruthy();
    await page.goto(LINK_LINE.exec(stderr)![1]!);
    const banner = page.getByRole("region", { name: "pier tap" });
    await expect(banner).toContainText("Read-only view of another client's session: RPC client (tap) talks to pi");
    await banner.getByRole("button", { name: "Open the inspector" }).click();
    const inspector = page.getByRole("complementary", { name: "Protocol inspector" });
    await expect(inspector).toBeVisible();

    // The client talks to pi; the page watches.
    tap.stdin.write('{"type":"get_state","id":"client-1"}\n{"type":"prompt","id":"client-2","message":"hello"}\n');
    await expect(page.getByRole("log", { name: "Conversation" })).toContainText("Hello through the tap.");
    // The client's commands, as sent by it, each paired with pi's answer (its round trip shown on both).
    const records = inspector.getByRole("listbox", { name: "Records" });
    await expect(records.getByRole("option", { name: /^to pi .* get_state RPC client \(tap\) [\d.]+ m?s/ })).toHaveCount(1);
    await expect(records.getByRole("option", { name: /^to pi .* prompt RPC client \(tap\) [\d.]+ m?s/ })).toHaveCount(1);
    await expect(records.getByRole("option", { name: /^from pi .* response prompt ✓ [\d.]+ m?s/ })).toHaveCount(1);
    await expect(records.getByRole("option", { name: /^from pi .* agent_settled/ })).toHaveCount(1);
    await expect(records.getByRole("option", { name: /^to pi / })).toHaveCount(2);
    // Nothing to type into: the page says why.
    await expect(page.getByText("nothing can be sent to it from this page")).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Suggested prompt" })).toHaveCount(0);

    // pi answered the client's two commands, and no read of the page's.
    const ids = [...stdout.matchAll(/"type":"response"[^\n]*?"id":"([^"]+)"|"id":"([^"]+)","type":"response"/g)].map((match) => match[1] ?? match[2]);
    expect(ids).toEqual(["client-1", "client-2"]);
    await expect(records.getByText("refused")).toHaveCount(0);
  } finally {
    tap.stdin.end();
    expect(await exited).toBe(0);
    await server.close();
    await agent.cleanup();
  }
});
