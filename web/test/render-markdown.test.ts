// @vitest-environment jsdom
// jsdom (not happy-dom): DOMPurify's own test suite runs on jsdom, and its
// HTML parser is close enough to browsers' for the mXSS cases below.
import { describe, expect, test } from "vitest";
import { renderMarkdown } from "../src/lib/markdown/render-markdown.ts";

/** Parses renderer output the way the browser will when {@html} inserts it. */
function parse(html: string): HTMLTemplateElement {
  const template = document.createElement("template");
  template.innerHTML = html;
  return template;
}

const all = (html: string): Element[] => [...parse(html).content.querySelectorAll("*")];

/** The URL a browser would act on: entity-decoded by the parser, minus whitespace/control characters. */
const normalizedUrl = (value: string): string =>
  // eslint-disable-next-line no-control-regex
  value.replace(/[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000\ufeff]/g, "").toLowerCase();

const FORBIDDEN_ELEMENTS = [
  "script",
  "style",
  "iframe",
  "frame",
  "object",
  "embed",
  "form",
  "button",
  "textarea",
  "select",
  "img",
  "svg",
  "math",
  "video",
  "audio",
  "source",
  "link",
  "meta",
  "base",
  "template",
  "noscript",
];
const URL_ATTRIBUTES = ["href", "src", "xlink:href", "action", "formaction", "srcset", "poster", "data", "background"];

function expectSafe(html: string): void {
  const elements = all(html);
  for (const element of elements) {
    const tag = element.localName;
    expect(FORBIDDEN_ELEMENTS, `element <${tag}> in ${html}`).not.toContain(tag);
    if (tag === "input") {
      expect(element.getAttribute("type")).toBe("checkbox");
      expect(element.hasAttribute("disabled")).toBe(true);
    }
    for (const attribute of element.attributes) {
      const name = attribute.name.toLowerCase();
      expect(name.startsWith("on"), `attribute ${name} in ${html}`).toBe(false);
      expect(name, `attribute ${name} in ${html}`).not.toBe("style");
      if (URL_ATTRIBUTES.includes(name)) {
        expect(normalizedUrl(attribute.value), `${name}="${attribute.value}"`).not.toMatch(/^(javascript|data|vbscript|file):/);
      }
    }
    if (tag === "a") expectSafeLink(element);
  }
}

function expectSafeLink(link: Element): void {
  expect(link.getAttribute("target")).toBe("_blank");
  const rel = (link.getAttribute("rel") ?? "").split(/\s+/);
  expect(rel).toContain("noopener");
  expect(rel).toContain("noreferrer");
}

describe("GFM rendering", () => {
  test("inline formatting, headings, code", () => {
    const doc = parse(renderMarkdown("# Title\n\n**bold** _em_ ~~gone~~ `code`\n\n```ts\nconst a = 1 < 2;\n```")).content;
    expect(doc.querySelector("h1")?.textContent).toBe("Title");
    expect(doc.querySelector("strong")?.textContent).toBe("bold");
    expect(doc.querySelector("em")?.textContent).toBe("em");
    expect(doc.querySelector("del")?.textContent).toBe("gone");
    expect(doc.querySelector("p code")?.textContent).toBe("code");
    expect(doc.querySelector("pre code")?.textContent).toBe("const a = 1 < 2;\n");
  });

  test("lists, task lists, tables, blockquotes", () => {
    const doc = parse(renderMarkdown("- one\n- two\n\n3. three\n4. four\n\n- [x] done\n- [ ] todo\n\n| a | b |\n|:--|--:|\n| 1 | 2 |\n\n> quoted")).content;
    expect([...doc.querySelectorAll("ul:first-child li")].map((li) => li.textContent)).toEqual(["one", "two"]);
    expect(doc.querySelector("ol")?.getAttribute("start")).toBe("3");
    const boxes = [...doc.querySelectorAll<HTMLInputElement>("input")];
    expect(boxes.map((box) => [box.type, box.checked, box.disabled])).toEqual([
      ["checkbox", true, true],
      ["checkbox", false, true],
    ]);
    expect([...doc.querySelectorAll("th")].map((th) => th.textContent)).toEqual(["a", "b"]);
    expect(doc.querySelector("td:last-child")?.getAttribute("align")).toBe("right");
    expect(doc.querySelector("blockquote")?.textContent?.trim()).toBe("quoted");
  });

  test("links open in a new tab without opener or referrer; bare URLs are autolinked", () => {
    const html = renderMarkdown("[docs](https://example.com/a?b=1&c=2) and https://pier.dev and [mail](mailto:a@b.c) [top](#top) [rel](./x.md)");
    const links = [...parse(html).content.querySelectorAll("a")];
    expect(links.map((a) => a.getAttribute("href"))).toEqual(["https://example.com/a?b=1&c=2", "https://pier.dev", "mailto:a@b.c", "#top", "./x.md"]);
    links.forEach(expectSafeLink);
    expect(links[0]!.getAttribute("rel")).toBe("noopener noreferrer nofollow");
  });

  test("single newlines are line breaks", () => {
    expect(parse(renderMarkdown("one\ntwo")).content.querySelector("p br")).not.toBeNull();
  });

  test("raw HTML is shown as text, not interpreted", () => {
    const doc = parse(renderMarkdown("Use <b>bold</b> or a <div> block.\n\n<details><summary>x</summary></details>")).content;
    expect(doc.querySelector("b, div, details")).toBeNull();
    expect(doc.textContent).toContain("Use <b>bold</b> or a <div> block.");
    expect(doc.textContent).toContain("<details><summary>x</summary></details>");
  });

  test("images become links named by their alt text; non-web images become text", () => {
    const doc = parse(renderMarkdown("![a chart](https://example.com/c.png) ![pixel](data:image/png;base64,AAAA) ![x](javascript:alert(1))")).content;
    expect(doc.querySelector("img")).toBeNull();
    const links = [...doc.querySelectorAll("a")];
    expect(links).toHaveLength(1);
    expect(links[0]!.getAttribute("href")).toBe("https://example.com/c.png");
    expect(links[0]!.textContent).toContain("a chart");
    expect(doc.textContent).toContain("pixel");
  });

  test("an incomplete stream tail still renders sensibly", () => {
    const fence = parse(renderMarkdown("Here:\n\n```js\nconst a = 1;\nconst b")).content;
    expect(fence.querySelector("pre code")?.textContent).toContain("const b");
    expect(parse(renderMarkdown("half **bold")).content.textContent).toContain("half **bold");
    expect(parse(renderMarkdown("| a | b |\n|--")).content.textContent).toContain("a");
    expect(renderMarkdown("")).toBe("");
  });
});

const XSS_PAYLOADS: Record<string, string> = {
  "script tag": "<script>alert(1)</script>",
  "script inline": "text <script>alert(1)</script> text",
  "img onerror": '<img src=x onerror="alert(1)">',
  "img onerror inline": "hello <img src=x onerror=alert(1)> world",
  "svg onload": "<svg onload=alert(1)><circle r=1 /></svg>",
  "svg script": "<svg><script>alert(1)</script></svg>",
  "javascript link": "[x](javascript:alert(1))",
  "JAVASCRIPT link": "[x](JAVASCRIPT:alert(1))",
  "spaced javascript link": "[x](  javascript:alert(1))",
  "angle javascript link": "[x](<javascript:alert(1)>)",
  "tab in scheme": "[x](java\tscript:alert(1))",
  "newline in scheme": "[x](java%0ascript:alert(1))",
  "entity colon": "[x](javascript&#58;alert(1))",
  "entity colon named": "[x](javascript&colon;alert(1))",
  "entity letters": "[x](&#106;avascript:alert(1))",
  "hex entity": "[x](&#x6A;&#x61;vascript:alert(1))",
  "reference link": "[x][evil]\n\n[evil]: javascript:alert(1)",
  "vbscript link": "[x](vbscript:msgbox(1))",
  "data link": "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "raw data anchor": '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  "raw javascript anchor": '<a href="javascript:alert(1)">x</a>',
  "raw anchor entity": '<a href="jav&#x09;ascript:alert(1)">x</a>',
  "autolink javascript": "<javascript:alert(1)>",
  "autolink vbscript": "<vbscript:msgbox(1)>",
  "autolink data": "<data:text/html,<script>alert(1)</script>>",
  "image javascript": "![x](javascript:alert(1))",
  "image data svg": "![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
  "link title breakout": '[x](https://a.com "title\\" onmouseover=\\"alert(1)")',
  "link href breakout": '[x](https://a.com" onmouseover="alert(1))',
  "image alt breakout": '![x" onerror="alert(1)](https://a.com/x.png)',
  iframe: '<iframe src="https://evil.example"></iframe>',
  "iframe srcdoc": '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  form: '<form action="https://evil.example"><input name=password><button>Log in</button></form>',
  "input autofocus": "<input autofocus onfocus=alert(1)>",
  style: "<style>body{display:none}</style>",
  "style attribute": '<p style="position:fixed;inset:0">cover</p>',
  "math mXSS": "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>",
  "math mXSS 2": '<math><mi><mglyph><svg><mtext><textarea><path id="</textarea><img onerror=alert(1) src=1>"></path></textarea></mtext></svg></mglyph></mi></math>',
  "noscript mXSS": '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  "object/embed": '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">',
  "details ontoggle": "<details open ontoggle=alert(1)>",
  "base href": '<base href="https://evil.example/">',
  "meta refresh": '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  "html in table cell": "| a |\n|---|\n| <img src=x onerror=alert(1)> |",
  "html in link text": "[<img src=x onerror=alert(1)>](https://a.com)",
  "html in heading": "# <script>alert(1)</script>",
  "html in code span": "`<script>alert(1)</script>`",
  "html in fence": "```html\n<script>alert(1)</script>\n```",
  "html in blockquote": "> <iframe src=x></iframe>",
  "html in list": "- <svg onload=alert(1)>",
  "html comment trick": "<!-- --><script>alert(1)</script><!-- -->",
  cdata: "<![CDATA[<script>alert(1)</script>]]>",
  "id clobbering": '<a id="__pierXss" name="x">x</a> <form name="body"></form>',
};

describe("XSS", () => {
  for (const [name, payload] of Object.entries(XSS_PAYLOADS)) {
    test(name, () => {
      expectSafe(renderMarkdown(payload));
      // Also embedded in a larger answer, and as a live (incomplete) prefix.
      expectSafe(renderMarkdown(`Some **text** first.\n\n${payload}\n\n- and a list`));
      expectSafe(renderMarkdown(payload.slice(0, Math.ceil(payload.length * 0.6))));
    });
  }

  test("refused URLs leave a plain-text link, not a working one", () => {
    const links = [...parse(renderMarkdown("[x](javascript:alert(1)) <javascript:alert(1)>")).content.querySelectorAll("a")];
    for (const link of links) expect(link.hasAttribute("href")).toBe(false);
  });

  test("no id or name attributes survive (no DOM clobbering)", () => {
    const elements = all(renderMarkdown('<a id="x" name="y">x</a>\n\n# Heading'));
    for (const element of elements) {
      expect(element.hasAttribute("id")).toBe(false);
      expect(element.hasAttribute("name")).toBe(false);
    }
  });
});

describe("code fence languages", () => {
  test("a fence keeps its language class on <code>, for the highlighter", () => {
    const code = parse(renderMarkdown("```ts\nconst a = 1;\n```")).content.querySelector("pre > code");
    expect(code?.className).toBe("language-ts");
  });

  test("no other class survives, and a hostile fence name cannot break out", () => {
    const fragment = parse(renderMarkdown('```"><script>alert(1)</script>\nx\n```\n\n`inline`')).content;
    expect(fragment.querySelector("script")).toBeNull();
    for (const element of fragment.querySelectorAll("[class]")) {
      expect(element.tagName).toBe("CODE");
      expect(element.className).toMatch(/^language-[a-z0-9+#.-]+$/i);
    }
  });
});
