// @vitest-environment jsdom
// LiveMarkdown must render a growing text exactly as renderMarkdown renders
// each prefix of it, whatever the cuts between updates: checked on texts with
// every kind of block, grown a character at a time and in uneven pieces.
import { describe, expect, test } from "vitest";
import { LiveMarkdown } from "../src/lib/markdown/live-markdown.ts";
import { renderBlocksToFragment, renderMarkdown } from "../src/lib/markdown/render-markdown.ts";

const SAMPLES: Record<string, string> = {
  paragraphs: "First paragraph with **bold** and `code`.\nA second line.\n\nSecond paragraph, _emphasis_ over\ntwo lines.\n\n\n\nAfter several blank lines.",
  fences:
    "Before.\n\n```ts\nconst a = 1;\n\n\nconst b = 2;\n```\n\nBetween.\n\n~~~\nraw ``` inside\n~~~\n\n````md\n```\nnested\n```\n````\nAfter, no blank line.\n\n```py\nunclosed = True\n\nstill code",
  lists:
    "- one\n- two\n\n- three (loose now)\n  continued\n\n  second paragraph of three\n- four\n    - nested\n    - nested two\n\n1. ordered\n2. two\n\n3) other delimiter\n\nAfter the lists.\n\n- [ ] task\n- [x] done\n\n* star\n+ plus",
  tables: "Intro line\n| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 | 4 |\n\nNot a table | really\n\n| x |\n|---|\nafter table lazily",
  headings: "# One\nText under.\n\nSetext\n======\n\nAnother\n---\n\n## Two ##\n\n---\n\n***\nParagraph then\n- list interrupts",
  quotes: "> quoted\nlazy continuation\n> > nested\n\n> second quote\n\n    indented code\n    more\n\nText\n    not code (continuation)",
  html: "<div>\n*not* a tag\n</div>\n\n<script>alert(1)</script>\n\nInline <b>bold</b> and <img src=x onerror=alert(1)>.\n\n<!-- comment\nstill comment -->\nafter",
  links:
    'See [the docs](https://example.com "title") and <https://auto.link> and www.example.com and [bad](javascript:alert(1)).\n\n![image](https://example.com/x.png)\n\n[ref]: https://example.com/ref\n\nUse [ref] and [ref][] after the definition.',
  crlf: "Windows line\r\nendings\r\n\r\n- item\r\n- item\r\n\r\n```\r\ncode\r\n```\r\n",
  edgy: "text\n\n\n```\n```\n\n`inline ``fence`` here`\n\n|\n\n-\n\n1.\n\n>\n\n#\n\n***bold italic***\n\n~~strike~~ done\n\nline with trailing spaces  \nbreak",
};

/** The text in pieces of the given sizes (cycled), as deltas would bring it. */
function grow(text: string, sizes: number[]): string[] {
  const prefixes: string[] = [];
  let at = 0;
  for (let i = 0; at < text.length; i++) {
    at = Math.min(text.length, at + sizes[i % sizes.length]!);
    prefixes.push(text.slice(0, at));
  }
  return prefixes;
}

function expectSameAsWhole(live: LiveMarkdown, text: string): void {
  live.update(text);
  expect(live.blocks.join("") + live.tail, JSON.stringify(text)).toBe(renderMarkdown(text));
}

describe("LiveMarkdown", () => {
  for (const [name, text] of Object.entries(SAMPLES)) {
    test(`${name}: every prefix, one character at a time, renders as the whole`, () => {
      const live = new LiveMarkdown();
      for (const prefix of grow(text, [1])) {
        if (name === "links" && prefix.includes("[ref]:")) break; // see the definition test below
        expectSameAsWhole(live, prefix);
      }
    });

    test(`${name}: uneven pieces render as the whole`, () => {
      const live = new LiveMarkdown();
      for (const prefix of grow(text, [7, 1, 13, 2, 40, 5])) {
        if (name === "links" && prefix.includes("[ref]:")) break;
        expectSameAsWhole(live, prefix);
      }
    });
  }

  test("keeps finished blocks and renders only the rest again", () => {
    const live = new LiveMarkdown();
    live.update("one\n\ntwo\n\nthr");
    expect(live.blocks.join("")).toBe(renderMarkdown("one\n\ntwo\n\n"));
    expect(live.tail).toBe(renderMarkdown("thr"));
    const kept = live.blocks.slice();
    live.update("one\n\ntwo\n\nthree\nmore\n\n- four\n- fi");
    expect(live.blocks.slice(0, kept.length)).toEqual(kept);
    expect(live.blocks.join("")).toBe(renderMarkdown("one\n\ntwo\n\nthree\nmore\n\n"));
    expect(live.tail).toBe(renderMarkdown("- four\n- fi"));
  });

  test("a code fence is one block until it closes", () => {
    const live = new LiveMarkdown();
    live.update("```\na\n\nb\n\nc\n");
    expect(live.blocks).toEqual([]);
    live.update("```\na\n\nb\n\nc\n```\n\nafter\n");
    expect(live.blocks.join("")).toBe(renderMarkdown("```\na\n\nb\n\nc\n```\n\n"));
  });

  test("without a blank line, a block is not finished (the next lines can still change where it ends)", () => {
    const live = new LiveMarkdown();
    live.update("para\n1. \n|");
    expect(live.blocks).toEqual([]);
  });

  test("a list is finished only when the next block's first line is (it may be the list's next item)", () => {
    const live = new LiveMarkdown();
    live.update("1. a\n\n2");
    expect(live.blocks).toEqual([]);
    live.update("1. a\n\n2. b\n\naft");
    expect(live.blocks).toEqual([]);
    live.update("1. a\n\n2. b\n\nafter\n");
    expect(live.blocks.join("")).toBe(renderMarkdown("1. a\n\n2. b\n\n"));
  });

  test("a text that is not an extension of the last one renders from scratch", () => {
    const live = new LiveMarkdown();
    live.update("alpha\n\nbeta\n\ngam");
    live.update("other\n\ntext");
    expect(live.blocks.join("") + live.tail).toBe(renderMarkdown("other\n\ntext"));
    expect(live.text).toBe("other\n\ntext");
  });

  test("a link definition after its use makes it inexact (the caller renders whole)", () => {
    const live = new LiveMarkdown();
    live.update("Use [ref].\n\nMore text.\n\n");
    expect(live.exact).toBe(true);
    live.update("Use [ref].\n\nMore text.\n\n[ref]: https://example.com\n\nend");
    expect(live.exact).toBe(false);
  });

  test("a definition before its use still links in later blocks", () => {
    const live = new LiveMarkdown();
    const text = "[ref]: https://example.com/ref\n\nfirst\n\nUse [ref] here.\n\nand [ref][] again";
    for (const prefix of grow(text, [3])) live.update(prefix);
    expect(live.blocks.join("") + live.tail).toBe(renderMarkdown(text));
  });

  test("stays as strict as renderMarkdown", () => {
    const live = new LiveMarkdown();
    const text = "<script>alert(1)</script>\n\n[x](javascript:alert(1))\n\n<img src=x onerror=alert(1)>\n\n```\n</code></pre><script>alert(2)</script>\n```\n\nend";
    for (const prefix of grow(text, [2])) live.update(prefix);
    const html = live.blocks.join("") + live.tail;
    expect(html).toBe(renderMarkdown(text));
    expect(html).not.toMatch(/<script|<img|javascript:/i);
  });

  test("random texts of Markdown's trickiest pieces render as the whole at every cut", () => {
    const pieces = [
      "\n",
      "\n\n",
      "- ",
      "* ",
      "1. ",
      "2) ",
      "> ",
      "```",
      "~~~",
      "    ",
      "  ",
      "# ",
      "===",
      "---",
      "| a | b |",
      "|---|---|",
      "**",
      "_",
      "`",
      "[x]",
      "(http://e.com)",
      "<div>",
      "</div>",
      "<!--",
      "-->",
      "text",
      "word ",
      "\t",
      "***",
      "- [ ] ",
      "\\",
      "&amp;",
      ":",
      "|",
    ];
    let seed = 12345;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let round = 0; round < 60; round++) {
      let text = "";
      for (let i = 10 + random(30); i > 0; i--) text += pieces[random(pieces.length)];
      const live = new LiveMarkdown();
      for (let at = 0; at < text.length;) {
        at = Math.min(text.length, at + 1 + random(6));
        expectSameAsWhole(live, text.slice(0, at));
      }
    }
  }, 30_000);
});

describe("LiveMarkdown.wait", () => {
  /** A clock that reads the given times, one per call, then stays at the last. */
  const clockOf = (times: number[]) => () => (times.length > 1 ? times.shift()! : times[0]!);

  test("renders at once until it has rendered, then waits three times as long as renders take", () => {
    const times = [0, 40, 50];
    const live = new LiveMarkdown(clockOf(times));
    expect(live.wait()).toBe(0);
    live.update("- one\n- two"); // from 0 to 40 ms
    expect(live.wait()).toBe(40 * 3 - 10); // asked at 50 ms
  });

  test("a cheap render is due again at once", () => {
    const live = new LiveMarkdown(clockOf([0, 0.5, 20]));
    live.update("A short paragraph");
    expect(live.wait()).toBe(0);
  });

  test("one slow render among cheap ones does not slow the text down (the median of the last five counts)", () => {
    const times: number[] = [];
    for (const [at, cost] of [
      [0, 1],
      [20, 1],
      [40, 60],
      [120, 1],
      [140, 1],
    ] as const)
      times.push(at, at + cost);
    times.push(145);
    const live = new LiveMarkdown(clockOf(times));
    let text = "";
    for (let i = 0; i < 5; i++) live.update((text += "word "));
    expect(live.wait()).toBe(0); // 141 + 1 × 3 is before 145
  });

  test("waiting does not change what is rendered: the newest text renders exactly", () => {
    const live = new LiveMarkdown(clockOf([0, 100, 101]));
    live.update("- one");
    expect(live.wait()).toBeGreaterThan(0);
    live.update("- one\n- two\n\nAfter.");
    expect(live.blocks.join("") + live.tail).toBe(renderMarkdown("- one\n- two\n\nAfter."));
  });

  // The page renders to nodes (MarkdownView.svelte): each item and each tail
  // put into the page once, as it comes. What ends up there is the whole text.
  for (const [name, text] of Object.entries(SAMPLES)) {
    test(`${name}: rendered to nodes and put in as they come, uneven pieces show as the whole`, () => {
      const live = new LiveMarkdown(undefined, renderBlocksToFragment);
      const shown = document.createElement("div");
      const tail = document.createElement("div");
      let inserted = 0;
      for (const prefix of grow(text, [7, 1, 13, 2, 40, 5])) {
        if (name === "links" && prefix.includes("[ref]:")) break;
        live.update(prefix);
        for (; inserted < live.blocks.length; inserted++) shown.append(live.blocks[inserted]!);
        tail.replaceChildren(live.tail);
        expect(shown.innerHTML + tail.innerHTML, JSON.stringify(prefix)).toBe(renderMarkdown(prefix));
      }
    });
  }
});
