// @vitest-environment jsdom
// patchChildren must leave the nodes that did not change in place (that is
// its point: a long block's earlier items are not built and laid out again)
// and end with exactly the new HTML.
import { describe, expect, test } from "vitest";
import { patchChildren } from "../src/lib/markdown/patch-children.ts";

const items = (n: number, last = "") => `<ul>\n${Array.from({ length: n }, (_, i) => `<li>Step ${i + 1}${i === n - 1 ? last : ""}</li>`).join("\n")}\n</ul>\n`;

describe("patchChildren", () => {
  test("a list that grows keeps its earlier items' elements and ends as the new HTML", () => {
    const element = document.createElement("div");
    patchChildren(element, items(3));
    const [first, second] = element.querySelectorAll("li");
    patchChildren(element, items(5, " and more"));
    expect(element.innerHTML).toBe(items(5, " and more"));
    const now = element.querySelectorAll("li");
    expect(now[0]).toBe(first);
    expect(now[1]).toBe(second);
  });

  test("anything else becomes exactly the new HTML: other blocks, fewer nodes, nothing", () => {
    const element = document.createElement("div");
    patchChildren(element, items(4));
    for (const html of ["<p>A <strong>paragraph</strong></p>\n", '<pre><code class="language-ts">const a = 1;\n</code></pre>\n', items(2), ""]) {
      patchChildren(element, html);
      expect(element.innerHTML).toBe(html);
    }
  });

  test("the caret mark stays on the element that had it (Markdown.svelte moves it)", () => {
    const element = document.createElement("div");
    patchChildren(element, "<p>Being written</p>");
    element.querySelector("p")!.setAttribute("data-caret", "");
    patchChildren(element, "<p>Being written, more</p>");
    expect(element.querySelector("p")!.hasAttribute("data-caret")).toBe(true);
    expect(element.textContent).toBe("Being written, more");
  });

  test("nodes (a sanitized fragment) patch in like their HTML, keeping what did not change", () => {
    const element = document.createElement("div");
    const fragmentOf = (html: string) => document.createRange().createContextualFragment(html);
    patchChildren(element, fragmentOf(items(3)));
    expect(element.innerHTML).toBe(items(3));
    const [first] = element.querySelectorAll("li");
    const next = fragmentOf(items(4, " and more"));
    patchChildren(element, next);
    expect(element.innerHTML).toBe(items(4, " and more"));
    expect(element.querySelector("li")).toBe(first);
    expect(next.childNodes).toHaveLength(0);
  });
});
