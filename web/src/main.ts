import { mount } from "svelte";
import App from "./App.svelte";
import "./app.css";
import { connection } from "./lib/app-context.svelte.ts";
import { fetchServedCapture, probeServedReplay } from "./lib/replay/served-replay.ts";
import { replaySession } from "./lib/replay/replay-session.svelte.ts";

const target = document.getElementById("app");
if (target === null) throw new Error("#app is missing from index.html");

mount(App, { target });
void start();

/** A live relay, or the capture `pier replay` serves (then no connection is made at all). */
async function start(): Promise<void> {
  const served = await probeServedReplay();
  if (served === null) return connection.connect();
  connection.beginReplay();
  const result = await fetchServedCapture(served);
  if (result.ok) replaySession.open(result.capture, true);
  else connection.notify("error", "Cannot replay", result.message);
}
