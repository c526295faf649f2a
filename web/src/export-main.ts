// The entry of an exported page (web/vite.export.config.ts; the page itself:
// lib/export/export-page.ts): the same app as `pier replay` shows, playing
// the capture the page carries, opened from disk with no relay and no Node.
import { mount } from "svelte";
import App from "./App.svelte";
import "./app.css";
import { connection } from "./lib/app-context.svelte.ts";
// The inspector describes every record from the first one on (as in main.ts): its store is in the page before anything plays.
import "./lib/inspector/inspector-store.svelte.ts";
import { readEmbeddedCapture } from "./lib/export/embedded-capture.ts";
import { replaySession } from "./lib/replay/replay-session.svelte.ts";
import { startSettings } from "./lib/settings/settings-store.svelte.ts";

// From file:// a worker's script would be another origin, and the page's policy allows none:
// without Worker the long-line parser and the highlighter do their work in the page, as they do wherever no worker starts.
delete (globalThis as { Worker?: unknown }).Worker;
// Nothing is fetched from an exported page (its policy would block it anyway, with an error in the console):
// what the app asks a relay for (a file tree, git status) is refused here at once, before any request.
globalThis.fetch = () => Promise.reject(new TypeError("An exported page fetches nothing: it has no relay."));

const target = document.getElementById("app");
if (target === null) throw new Error("#app is missing from the page");

startSettings();
// A player from the start: the page never tries to reach a relay.
connection.beginReplay();
mount(App, { target });

// The capture comes after this script in the page: read once the browser has all of it.
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", openEmbedded, { once: true });
else openEmbedded();

function openEmbedded(): void {
  const result = readEmbeddedCapture(document);
  if (result.ok) replaySession.open(result.capture, true);
  else connection.notify("error", "Cannot replay", result.message);
}
