// What the Agents button needs once the page is connected, in one lazy chunk:
// the board's store (its socket opens only after the page's own connection is
// up, so nothing it would receive is lost while this loads), desktop notices
// and the signals that call the person back. Not part of the first screen's
// JS (bench/first-load.bench.ts).
export { board, type BoardStore } from "../../lib/live/board-store.svelte.ts";
export { DesktopNotices } from "../../lib/live/desktop-notices.svelte.ts";
export { default as BoardSignals } from "./BoardSignals.svelte";
