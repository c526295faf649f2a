// The count of what needs the person, where they see it with the tab in the
// background: in front of the tab's title ("(2) Pier") and on its icon. The
// title belongs to others too (an extension's setTitle, the session's name,
// ExtensionUiHost): whatever they write is kept as the base, and the count
// is put back in front of it.

/** "(2) Pier"; the base alone at 0. */
export function titleWithCount(base: string, count: number): string {
  return count > 0 ? `(${count > 99 ? "99+" : count}) ${base}` : base;
}

export class TabBadge {
  #count = 0;
  #base: string;
  #written: string;
  readonly #observer: MutationObserver | null = null;
  readonly #icon: HTMLLinkElement | null;
  readonly #iconHref: string | null;
  readonly #doc: Document;

  constructor(doc: Document = document) {
    this.#base = doc.title;
    this.#written = doc.title;
    this.#icon = doc.querySelector<HTMLLinkElement>('link[rel~="icon"]');
    this.#iconHref = this.#icon?.getAttribute("href") ?? null;
    const title = doc.querySelector("title");
    if (title !== null && typeof MutationObserver !== "undefined") {
      this.#observer = new MutationObserver(() => {
        // Someone else set the title: that is the new base.
        if (doc.title === this.#written) return;
        this.#base = doc.title;
        this.#write(doc);
      });
      this.#observer.observe(title, { childList: true, characterData: true, subtree: true });
    }
    this.#doc = doc;
  }

  set(count: number): void {
    if (count === this.#count) return;
    this.#count = count;
    this.#write(this.#doc);
    this.#drawIcon(count);
  }

  dispose(): void {
    this.#observer?.disconnect();
    this.set(0);
  }

  #write(doc: Document): void {
    this.#written = titleWithCount(this.#base, this.#count);
    if (doc.title !== this.#written) doc.title = this.#written;
  }

  #drawIcon(count: number): void {
    if (this.#icon === null) return;
    const href = count > 0 ? badgeIcon(count) : null;
    this.#icon.setAttribute("href", href ?? this.#iconHref ?? "data:,");
  }
}

/** Pier's mark with a red count, as a PNG data URL (the CSP allows data: images); null where canvas cannot draw. */
export function badgeIcon(count: number): string | null {
  if (typeof document === "undefined") return null;
  const canvas = document.createElement("canvas");
  canvas.width = 32;
  canvas.height = 32;
  let g: CanvasRenderingContext2D | null = null;
  try {
    g = canvas.getContext("2d");
  } catch {
    return null;
  }
  if (g === null) return null;
  g.fillStyle = "#3b5bdb";
  g.beginPath();
  g.roundRect(1, 1, 30, 30, 8);
  g.fill();
  g.strokeStyle = "#ffffff";
  g.lineWidth = 3;
  g.lineCap = "round";
  g.lineJoin = "round";
  g.beginPath();
  g.moveTo(9, 23);
  g.lineTo(9, 9);
  g.lineTo(15.5, 9);
  g.arc(15.5, 13.2, 4.2, -Math.PI / 2, Math.PI / 2);
  g.lineTo(9, 17.4);
  g.stroke();
  const text = count > 9 ? "9+" : String(count);
  g.fillStyle = "#d92d20";
  g.beginPath();
  g.arc(23, 23, 9, 0, Math.PI * 2);
  g.fill();
  g.fillStyle = "#ffffff";
  g.font = `bold ${text.length > 1 ? 10 : 13}px sans-serif`;
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText(text, 23, 23.5);
  try {
    return canvas.toDataURL("image/png");
  } catch {
    return null;
  }
}
