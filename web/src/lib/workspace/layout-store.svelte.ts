// The layout of the IDE surface: explorer drawer, chat width, which pane a
// narrow screen shows, the quick-open box. The explorer's state and the chat
// width are remembered per browser; with a `storageScope` (one workspace of
// several) per workspace too, starting from the browser's unscoped choice.

const NARROW_QUERY = "(max-width: 900px)";
const WIDE_QUERY = "(min-width: 1100px)";
const CHAT_WIDTH_KEY = "pier.chatWidth";
const EXPLORER_KEY = "pier.explorerOpen";
export const MIN_CHAT_WIDTH = 360;
export const DEFAULT_CHAT_WIDTH = 440;

type MediaQuery = Pick<MediaQueryList, "matches" | "addEventListener">;

export interface LayoutOptions {
  /** Keys this workspace's saved layout apart from others' (absent: the browser-wide keys). */
  storageScope?: string;
  /** Defaults to the page's localStorage (none: nothing persists). */
  storage?: Pick<Storage, "getItem" | "setItem"> | null;
  /** Defaults to the page's matchMedia (none: a wide screen that never changes). */
  matchMedia?: ((query: string) => MediaQuery) | null;
}

function pageStorage(): Pick<Storage, "getItem" | "setItem"> | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Storage disabled: reading the property itself throws.
    return null;
  }
}

function pageMatchMedia(): ((query: string) => MediaQuery) | null {
  return typeof globalThis.matchMedia === "function" ? (query) => globalThis.matchMedia(query) : null;
}

export class LayoutStore {
  narrow = $state(false);
  explorerOpen = $state(false);
  explorerView = $state<"files" | "changes" | "search">("files");
  /** On narrow screens only one of the editor and the chat shows. */
  mobilePane = $state<"editor" | "chat">("chat");
  chatWidth = $state(DEFAULT_CHAT_WIDTH);
  quickOpenVisible = $state(false);

  readonly #storage: Pick<Storage, "getItem" | "setItem"> | null;
  readonly #scope: string | null;

  constructor(options: LayoutOptions = {}) {
    this.#storage = options.storage === undefined ? pageStorage() : options.storage;
    this.#scope = options.storageScope ?? null;
    const width = Number(this.#read(CHAT_WIDTH_KEY));
    if (Number.isFinite(width) && width > 0) this.chatWidth = Math.max(MIN_CHAT_WIDTH, Math.round(width));
    const media = options.matchMedia === undefined ? pageMatchMedia() : options.matchMedia;
    if (!media) return;
    const narrow = media(NARROW_QUERY);
    this.narrow = narrow.matches;
    const saved = this.#read(EXPLORER_KEY);
    this.explorerOpen = saved === null ? media(WIDE_QUERY).matches : saved === "1";
    narrow.addEventListener("change", (event) => {
      this.narrow = event.matches;
      // A drawer left open over the page would hide it on a small screen.
      if (event.matches) this.explorerOpen = false;
    });
    if (this.narrow) this.explorerOpen = false;
  }

  /** Opens or closes the explorer; remembered only on wide screens (a narrow one always starts closed). */
  setExplorerOpen(open: boolean): void {
    this.explorerOpen = open;
    if (!this.narrow) this.#write(EXPLORER_KEY, open ? "1" : "0");
  }

  /** Never narrower than MIN_CHAT_WIDTH; whole pixels. */
  setChatWidth(width: number): void {
    if (!Number.isFinite(width)) return;
    this.chatWidth = Math.max(MIN_CHAT_WIDTH, Math.round(width));
    this.#write(CHAT_WIDTH_KEY, String(this.chatWidth));
  }

  /** Something opened in the editor: a narrow screen shows it instead of the chat. */
  showEditor(): void {
    if (!this.narrow) return;
    this.mobilePane = "editor";
    this.explorerOpen = false;
  }

  /** The last tab closed: a narrow screen goes back to the chat. */
  editorEmptied(): void {
    if (this.narrow) this.mobilePane = "chat";
  }

  #key(key: string): string {
    return this.#scope === null ? key : `${key}:${this.#scope}`;
  }

  #read(key: string): string | null {
    try {
      return this.#storage?.getItem(this.#key(key)) ?? (this.#scope === null ? null : (this.#storage?.getItem(key) ?? null));
    } catch {
      return null;
    }
  }

  #write(key: string, value: string): void {
    try {
      this.#storage?.setItem(this.#key(key), value);
    } catch {
      // Private mode or storage full: preferences just don't persist.
    }
  }
}
