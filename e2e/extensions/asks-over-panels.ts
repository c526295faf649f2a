// Test extension for e2e/specs/dialogs-on-top.spec.ts: questions from pi that
// arrive while the page has something else open. Loaded with
// `pier … -- -e <this file>`.
// - It guards sessions, as a careful extension would: new session, switch,
//   fork and clone each ask first (session_before_switch / session_before_fork),
//   so the question comes while the Sessions panel is open.
// - A file named `.ask-now` appearing in pi's folder makes it ask a confirm
//   titled with the file's text, whatever the page shows: the spec opens a
//   panel, writes the file, and checks where the question lands.
// - /ask-long asks to approve a 60-line command in a select.
// Every answer is reported through a notify, so the spec can read it.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export const LONG_COMMAND = [
  "rm -rf build",
  ...Array.from({ length: 58 }, (_, i) => `cp assets/image-${String(i + 1).padStart(2, "0")}.png build/assets/  # step ${i + 1}`),
  "echo done: the last line",
].join("\n");

export default function (pi: ExtensionAPI) {
  let poll: ReturnType<typeof setInterval> | undefined;

  pi.on("session_start", async (_event, ctx) => {
    clearInterval(poll);
    const trigger = join(ctx.cwd, ".ask-now");
    poll = setInterval(() => {
      if (!existsSync(trigger)) return;
      const title = readFileSync(trigger, "utf8").trim();
      rmSync(trigger, { force: true });
      void ctx.ui.confirm(title, "pi is asking while something else is open.").then((yes) => ctx.ui.notify(`${title} → ${yes}`, "info"));
    }, 100);
    poll.unref();
  });
  pi.on("session_shutdown", async () => clearInterval(poll));

  pi.on("session_before_switch", async (event, ctx) => {
    const title = event.reason === "new" ? "Start a new session?" : "Open the other session?";
    const yes = await ctx.ui.confirm(title, "The session guard asks before pi leaves this session.");
    ctx.ui.notify(`${title} → ${yes}`, "info");
    return yes ? undefined : { cancel: true };
  });

  pi.on("session_before_fork", async (event, ctx) => {
    // pi 0.87.1: a fork from a message is "before" it; a clone copies the branch "at" the leaf.
    const title = event.position === "at" ? "Clone this session?" : "Fork this session?";
    const yes = await ctx.ui.confirm(title, "The session guard asks before pi leaves this session.");
    ctx.ui.notify(`${title} → ${yes}`, "info");
    return yes ? undefined : { cancel: true };
  });

  pi.registerCommand("ask-long", {
    description: "select() whose title is a 60-line command",
    handler: async (_args, ctx) => {
      const value = await ctx.ui.select(`Allow this command?\n${LONG_COMMAND}`, ["Allow once", "Always allow", "Deny"]);
      ctx.ui.notify(`long → ${value ?? "(cancelled)"}`, "info");
    },
  });
}
