// Desktop notifications for the board (card-alerts.ts says which): only
// once the person asked for them (the page setting "Desktop notifications",
// switched on from the settings or the board's "Notify me", a click: browsers
// grant the permission on a user gesture only), and only while this tab is
// hidden (a person looking at the page sees the board change). Clicking one
// brings the tab forward and opens that session.
import type { LiveCard } from "@pier/protocol";
import { alertsFor } from "./card-alerts.ts";

export type NoticePermission = NotificationPermission | "unsupported";

export interface DesktopNoticesOptions {
  /** Opens a card's session (the page navigates, or stays when it is this one). */
  open: (card: LiveCard) => void;
  /** The person's choice (page-settings.ts desktopNotifications). */
  wanted: () => boolean;
  setWanted: (on: boolean) => void;
  isHidden?: () => boolean;
}

export class DesktopNotices {
  permission = $state<NoticePermission>("unsupported");
  readonly #options: DesktopNoticesOptions;

  constructor(options: DesktopNoticesOptions) {
    this.#options = options;
    this.permission = typeof Notification === "undefined" ? "unsupported" : Notification.permission;
  }

  get active(): boolean {
    return this.#options.wanted() && this.permission === "granted";
  }

  /** Ask the browser, and remember the choice (call from a click). */
  async enable(): Promise<void> {
    if (typeof Notification === "undefined") return;
    this.#options.setWanted(true);
    this.permission = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
  }

  disable(): void {
    this.#options.setWanted(false);
  }

  /** A new board arrived: notify what changed, while the tab is hidden. Answers how many were shown. */
  handle(before: readonly LiveCard[] | null, now: readonly LiveCard[]): number {
    if (typeof Notification !== "undefined") this.permission = Notification.permission;
    if (!this.active) return 0;
    const hidden = this.#options.isHidden ?? (() => document.visibilityState === "hidden");
    if (!hidden()) return 0;
    let shown = 0;
    for (const alert of alertsFor(before, now)) {
      try {
        const notice = new Notification(alert.title, { body: alert.body, tag: alert.tag });
        notice.onclick = () => {
          window.focus();
          notice.close();
          this.#options.open(alert.card);
        };
        shown++;
      } catch {
        // Some browsers (Android Chrome) notify only through a service worker: nothing shown here.
      }
    }
    return shown;
  }
}
