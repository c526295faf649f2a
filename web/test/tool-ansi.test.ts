// @vitest-environment jsdom
// ANSI → HTML: colours become ansi_up's classes, and nothing in the output
// text can become markup (tool output is untrusted: it prints whatever the
// command or the file contains).
import { describe, expect, test } from "vitest";
import { ansiToHtml, collapseCarriageReturns, hasAnsi, stripAnsi } from "../src/lib/ansi/ansi-to-html.ts";

function parse(html: string): DocumentFragment {
  const template = document.createElement("template");
  template.innerHTML = html;
  return template.content;
}

describe("ansiToHtml", () => {
  test("SGR colours become classes on spans, reset ends them", () => {
    const fragment = parse(ansiToHtml("\u001b[31mred\u001b[0m plain \u001b[1;32mgreen\u001b[0m"));
    const spans = [...fragment.querySelectorAll("span")];
    expect(spans.map((s) => [s.className, s.textContent])).toEqual([
      ["ansi-red-fg", "red"],
      ["ansi-green-fg", "green"],
    ]);
    expect(spans[1]!.getAttribute("style")).toContain("font-weight:bold");
    expect(fragment.textContent).toBe("red plain green");
  });

  test("<script> and other markup in the output come out as text", () => {
    const evil = `<script>alert(1)</script><img src=x onerror=alert(2)>"'&`;
    const html = ansiToHtml(`\u001b[33m${evil}\u001b[0m\n${evil}`);
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;");
    const fragment = parse(html);
    // Only ansi_up's own spans are elements; the rest is text, character for character.
    expect([...fragment.querySelectorAll("*")].every((el) => el.tagName === "SPAN")).toBe(true);
    expect(fragment.textContent).toBe(`${evil}\n${evil}`);
  });

  test("OSC 8 hyperlinks keep their text but never become links", () => {
    const html = ansiToHtml("see \u001b]8;;javascript:alert(1)\u001b\\docs\u001b]8;;\u001b\\ here");
    const fragment = parse(html);
    expect(fragment.querySelector("a")).toBeNull();
    expect(fragment.textContent).toBe("see docs here");
  });

  test("truecolour and 256-colour output becomes inline colour styles only", () => {
    const fragment = parse(ansiToHtml("\u001b[38;2;10;20;30mrgb\u001b[0m \u001b[38;5;196mpal\u001b[0m"));
    const styles = [...fragment.querySelectorAll("span")].map((s) => s.getAttribute("style"));
    expect(styles).toEqual(["color:rgb(10,20,30)", "color:rgb(255,0,0)"]);
  });

  test("an escape cut off at the end of a streamed snapshot is not shown as garbage", () => {
    expect(parse(ansiToHtml("done\u001b[3")).textContent).toBe("done");
  });

  test("each call starts fresh: a colour left open does not leak into the next snapshot", () => {
    ansiToHtml("\u001b[31mopen");
    expect(parse(ansiToHtml("plain")).querySelector("span")).toBeNull();
  });
});

describe("carriage returns and plain text", () => {
  test("a progress bar redrawn with \\r shows its last state", () => {
    expect(collapseCarriageReturns("10%\r50%\r100%\nnext\r\n")).toBe("100%\nnext\n");
  });

  test("stripAnsi removes CSI and OSC sequences", () => {
    expect(stripAnsi("\u001b[1;31mbold red\u001b[0m \u001b]0;title\u0007x")).toBe("bold red x");
    expect(hasAnsi("plain")).toBe(false);
    expect(hasAnsi("\u001b[0m")).toBe(true);
  });
});
