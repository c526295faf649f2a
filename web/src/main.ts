import { mount, unmount } from "svelte";
import App from "./App.svelte";
import "./app.css";
import { connection } from "./lib/app-context.svelte.ts";
import { replaySession } from "./lib/replay/replay-session.svelte.ts";
import { startSettings } from "./lib/settings/settings-store.svelte.ts";
import { registerServiceWorker } from "./lib/app-install.ts";
import { onSessionShown } from "./lib/session-scope.svelte.ts";
import { followSessionLinks } from "./lib/session-navigation.ts";

/** How long a page waits for the inspector's store before it applies what it receives anyway. */
const INSPECTOR_WAIT_MS = 3000;

const target = document.getElementById("app");
if (target === null) throw new Error("#app is missing from index.html");

// Fetched while the app mounts, not after (see connectLive).
const inspectorStore = import("./lib/inspector/inspector-store.svelte.ts").catch((error: unknown) => console.error("the protocol inspector did not load", error));
// The chosen colour scheme before the first paint (a dark page must not flash light).
startSettings();
let app = mount(App, { target });
void start();
// Another live session shown in place (session-navigation.ts): the app starts
// afresh on its values; one the page did not hold yet connects now.
onSessionShown((_base, fresh) => {
  void unmount(app);
  app = mount(App, { target });
  if (fresh) connectLive();
});
registerServiceWorker();

/**
 * A live relay, or the capture `pier replay` serves (its link leads to
 * `/?replay`; then no connection is made at all). A live page connects at
 * once, without asking anything first.
 */
async function start(): Promise<void> {
  if (!new URLSearchParams(location.search).has("replay")) {
    followSessionLinks();
    return connectLive();
  }
  const { fetchServedCapture, fetchServedCompare, probeServedReplay } = await import("./lib/replay/served-replay.ts");
  const served = await probeServedReplay();
  if (served === null) return connectLive();
  connection.beginReplay();
  const result = await fetchServedCapture(served);
  if (!result.ok) return connection.notify("error", "Cannot replay", result.message);
  replaySession.open(result.capture, true);
  // `pier replay A B`: A plays first; B is fetched once A is open, then compared with it.
  if (served.compare !== null) replaySession.compareOnOpen(fetchServedCompare(served.compare));
}

/**
 * The inspector describes each record (what it did, the bytes that carried
 * it) as it is applied, from the moment its store is loaded. The store is
 * fetched while the app mounts, and nothing received is applied before it
 * is there: whenever the panel is first opened, every record the page holds
 * is described, from the first one of the relay's replay on (people open it
 * to look at what just happened). The socket opens meanwhile, so the wait
 * costs the first screen little. The store is a lazy chunk of plain models;
 * the panel's own code (views, composer, Monaco) loads only when it opens.
 * A store that fails to load or hangs costs the descriptions after
 * INSPECTOR_WAIT_MS, never the connection.
 */
function connectLive(): void {
  connection.holdUntil(inspectorStore, INSPECTOR_WAIT_MS);
  connection.connect();
}
