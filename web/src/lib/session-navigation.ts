// Going to another live session in place: a board card, a desktop notice,
// the "next that needs you" key, a link to an agent's page and the browser's
// Back and Forward show it without loading the page (session-scope.svelte.ts
// keeps the sessions left behind connected, so most switches are instant).
// A replay `pier replay` serves is one capture, not the relay's sessions:
// there, followSessionLinks is never called and links load their page.
import { LIVE_PREFIX } from "@pier/protocol";
import { liveBase, liveIdOf } from "./live-base.ts";
import { heldSessions, showSession } from "./session-scope.svelte.ts";
import { takeOpenRequest } from "./workspace/open-request.ts";
import { workbench } from "./workspace/workbench-store.svelte.ts";

/** What was typed in each live session's prompt box, by session base, while the page shows another (App.svelte). */
export const promptDrafts = new Map<string, string>();

let following = false;

/** From now on, links to live sessions and Back/Forward switch in place (main.ts, for a live page). */
export function followSessionLinks(): void {
  if (following) return;
  following = true;
  window.addEventListener("popstate", () => show(liveBase()));
  // Every same-page link to a live session, wherever it is drawn (cards, a
  // diff's "Open in the agent's page"); a click meant for a new tab or
  // window keeps its usual meaning.
  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (!(link instanceof HTMLAnchorElement) || (link.target !== "" && link.target !== "_self") || link.hasAttribute("download")) return;
    if (!isSessionPage(new URL(link.href))) return;
    event.preventDefault();
    goToSession(link.href);
  });
}

/** Show the live session `href` names ("/live/<id>/" or "/", maybe with "#open=<path>"). */
export function goToSession(href: string): void {
  const url = new URL(href, location.href);
  if (!following || !isSessionPage(url)) {
    location.assign(url.href);
    return;
  }
  const here = `${location.pathname}${location.search}${location.hash}`;
  const there = `${url.pathname}${url.search}${url.hash}`;
  if (there !== here) history.pushState(null, "", there);
  show(liveBase(url.pathname));
}

function show(base: string): void {
  const held = heldSessions().includes(base);
  showSession(base);
  // A session the page already held has put its tabs back: a file the link
  // asks for opens now. A new one takes it when its tabs come back (workbench.svelte.ts).
  if (held) {
    const asked = takeOpenRequest();
    if (asked !== null) workbench.openFile(asked);
  }
}

/** A page of this pier that shows a live session: "/" or "/live/<id>/", with no query (a replay's is "/?replay"). */
function isSessionPage(url: URL): boolean {
  if (url.origin !== location.origin || url.search !== "") return false;
  if (url.pathname === "/") return true;
  const id = liveIdOf(url.pathname);
  return id !== null && (url.pathname === `${LIVE_PREFIX}${id}/` || url.pathname === `${LIVE_PREFIX}${id}`);
}
