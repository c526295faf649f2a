// Test extension for e2e/specs/extension-ui.spec.ts: one command per
// extension UI method pi 0.87.1 supports in RPC mode. Every dialog command
// reports what pi handed back to the extension through a following notify,
// so a spec can read it off the page. Loaded with `pier … -- -e <this file>`.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

/** How a dialog result reads in the report toast. */
function show(value: string | undefined): string {
  return value === undefined ? "(cancelled)" : JSON.stringify(value);
}

export default function (pi: ExtensionAPI) {
  // Persistent UI set at start: a browser that connects later must rebuild it from the replay.
  pi.on("session_start", async (_event, ctx) => {
    ctx.ui.setStatus("probe", "Probe ready");
    ctx.ui.setStatus("probe-mode", "mode: testing");
    ctx.ui.setWidget("probe", ["UI probe loaded", "Commands: /probe-select, /probe-confirm, /probe-input, /probe-editor"]);
    ctx.ui.setTitle("UI probe");
  });

  // An event handler that throws, on demand: pi reports it as extension_error.
  pi.on("input", async (event) => {
    if (event.text === "probe explode") throw new Error("the probe exploded on purpose");
    return undefined;
  });

  pi.registerCommand("probe-select", {
    description: "select() without a timeout",
    handler: async (_args, ctx) => {
      const value = await ctx.ui.select("Pick a colour", ["Red", "Green", "Blue"]);
      ctx.ui.notify(`select → ${show(value)}`, "info");
    },
  });

  pi.registerCommand("probe-confirm", {
    description: "confirm()",
    handler: async (_args, ctx) => {
      const confirmed = await ctx.ui.confirm("Delete the scratch file?", "The probe will pretend to delete scratch.txt.");
      ctx.ui.notify(`confirm → ${confirmed}`, confirmed ? "warning" : "info");
    },
  });

  pi.registerCommand("probe-input", {
    description: "input()",
    handler: async (_args, ctx) => {
      const value = await ctx.ui.input("Name the branch", "feature/…");
      ctx.ui.notify(`input → ${show(value)}`, "info");
    },
  });

  pi.registerCommand("probe-editor", {
    description: "editor() with prefilled text",
    handler: async (_args, ctx) => {
      const value = await ctx.ui.editor("Edit the release note", "## 1.2.0\n- faster startup\n");
      ctx.ui.notify(`editor → ${show(value)}`, "info");
    },
  });

  pi.registerCommand("probe-timed", {
    description: "select() that pi resolves itself after 2 s",
    handler: async (_args, ctx) => {
      const value = await ctx.ui.select("Quick pick", ["Now", "Later"], { timeout: 2000 });
      ctx.ui.notify(`timed → ${show(value)}`, "info");
    },
  });

  pi.registerCommand("probe-countdown", {
    description: "confirm() with a long timeout (for screenshots and countdown checks)",
    handler: async (_args, ctx) => {
      const confirmed = await ctx.ui.confirm("Allow `rm -rf build/`?", "The agent wants to clean the build directory.", {
        timeout: 30_000,
      });
      ctx.ui.notify(`countdown → ${confirmed}`, "info");
    },
  });

  pi.registerCommand("probe-two", {
    description: "two dialogs at once",
    handler: async (_args, ctx) => {
      const [first, second] = await Promise.all([ctx.ui.confirm("First of two", "Answer me first."), ctx.ui.input("Second of two", "then me")]);
      ctx.ui.notify(`two → ${first} / ${show(second)}`, "info");
    },
  });

  pi.registerCommand("probe-fire", {
    description: "every fire-and-forget method",
    handler: async (_args, ctx) => {
      ctx.ui.setStatus("probe", "Probe fired");
      ctx.ui.setWidget("probe-below", ["Below the prompt", "second line"], { placement: "belowEditor" });
      ctx.ui.setTitle("Probe fired");
      ctx.ui.setEditorText("Text the probe put here");
      ctx.ui.notify("A warning from the probe", "warning");
      ctx.ui.notify("An error from the probe", "error");
    },
  });

  pi.registerCommand("probe-clear", {
    description: "clear status entries and widgets",
    handler: async (_args, ctx) => {
      ctx.ui.setStatus("probe", undefined);
      ctx.ui.setStatus("probe-mode", undefined);
      ctx.ui.setWidget("probe", undefined);
      ctx.ui.setWidget("probe-below", undefined);
      ctx.ui.notify("cleared", "info");
    },
  });
}
