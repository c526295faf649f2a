import { mount } from "svelte";
import App from "./App.svelte";
import "./app.css";
import { connection, view } from "./lib/app-context.svelte.ts";
import { replaySession } from "./lib/replay/replay-session.svelte.ts";

/** How long a page that left the inspector open waits for its code before connecting anyway. */
const INSPECTOR_WAIT_MS = 3000;

const target = document.getElementById("app");
if (target === null) throw new Error("#app is missing from index.html");

mount(App, { target });
void start();

/**
 * A live relay, or the capture `pier replay` serves (its link leads to
 * `/?replay`; then no connection is made at all). A live page connects at
 * once, without asking anything first (once the inspector's code is there,
 * when it was left open).
 */
async function start(): Promise<void> {
  if (!new URLSearchParams(location.search).has("replay")) {
    await loadInspectorIfOpen();
    return connection.connect();
  }
  const { fetchServedCapture, probeServedReplay } = await import("./lib/replay/served-replay.ts");
  const served = await probeServedReplay();
  if (served === null) return connection.connect();
  connection.beginReplay();
  const result = await fetchServedCapture(served);
  if (result.ok) replaySession.open(result.capture, true);
  else connection.notify("error", "Cannot replay", result.message);
}

/**
 * The inspector describes each record (what it did, the bytes that carried
 * it) as it is applied, from the moment its store is loaded. When it was left
 * open, load the store before connecting, so that the relay's replay of pi's
 * output is described from its first record, not from whenever the panel's
 * code happened to arrive. Waited for INSPECTOR_WAIT_MS at most: a load that
 * fails or hangs costs the descriptions, never the connection.
 */
async function loadInspectorIfOpen(): Promise<void> {
  if (!view.logOpen) return;
  const loaded = import("./lib/inspector/inspector-store.svelte.ts").catch((error: unknown) => console.error("the protocol inspector did not load", error));
  await Promise.race([loaded, new Promise((resolve) => setTimeout(resolve, INSPECTOR_WAIT_MS))]);
}
