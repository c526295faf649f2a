// The count in the tab's title and icon (jsdom: a real DOM, no canvas).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TabBadge, titleWithCount } from "../../src/lib/live/tab-badge.ts";

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the tab badge", () => {
  beforeEach(() => {
    document.head.innerHTML = '<title>Pier</title><link rel="icon" href="data:," />';
  });
  afterEach(() => {
    document.head.innerHTML = "";
  });

  it("puts the count in front of the title, and nothing at zero", () => {
    expect(titleWithCount("Pier", 0)).toBe("Pier");
    expect(titleWithCount("Pier", 2)).toBe("(2) Pier");
    expect(titleWithCount("Pier", 120)).toBe("(99+) Pier");
  });

  it("keeps the count in front of whatever title others set, and takes it away at zero", async () => {
    const badge = new TabBadge(document);
    badge.set(2);
    expect(document.title).toBe("(2) Pier");
    // An extension's setTitle, or the session's name (ExtensionUiHost writes it).
    document.title = "Fix the login · Pier";
    await settle();
    expect(document.title).toBe("(2) Fix the login · Pier");
    badge.set(1);
    expect(document.title).toBe("(1) Fix the login · Pier");
    badge.set(0);
    expect(document.title).toBe("Fix the login · Pier");
    badge.dispose();
    document.title = "Other";
    await settle();
    expect(document.title).toBe("Other");
  });

  it("puts the page's own icon back at zero", () => {
    const badge = new TabBadge(document);
    const icon = document.querySelector('link[rel~="icon"]')!;
    badge.set(3);
    // jsdom draws nothing (no canvas): the icon falls back to the page's own.
    expect(icon.getAttribute("href")).toBe("data:,");
    badge.set(0);
    expect(icon.getAttribute("href")).toBe("data:,");
    badge.dispose();
  });
});
