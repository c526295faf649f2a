import { mount } from "svelte";
import App from "./App.svelte";
import "./app.css";
import { connection } from "./lib/app-context.svelte.ts";
import { replaySession } from "./lib/replay/replay-session.svelte.ts";

const target = document.getElementById("app");
if (target === null) throw new Error("#app is missing from index.html");

mount(App, { target });
void start();

/**
 * A live relay, or the capture `pier replay` serves (its link leads to
 * `/?replay`; then no connection is made at all). A live page connects at
 * once, without asking anything first.
 */
async function start(): Promise<void> {
  if (!new URLSearchParams(location.search).has("replay")) return connection.connect();
  const { fetchServedCapture, probeServedReplay } = await import("./lib/replay/served-replay.ts");
  const served = await probeServedReplay();
  if (served === null) return connection.connect();
  connection.beginReplay();
  const result = await fetchServedCapture(served);
  if (result.ok) replaySession.open(result.capture, true);
  else connection.notify("error", "Cannot replay", result.message);
}
