// The capture inside an exported page: escaped so that no capture text can
// end its element or start another, and read back exactly. Checked with a
// real HTML parser (jsdom's DOMParser, which follows the standard's
// script-data states; this file runs in jsdom: unit-runes).
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CAPTURE_ELEMENT_ID, escapeForScript, unescapeFromScript } from "../../src/lib/export/embed.ts";
import { exportPageHtml, inlineScriptText } from "../../src/lib/export/export-page.ts";

const NASTY = [
  "",
  "plain text",
  '{"c":"</script><script>alert(1)</script>"}',
  "</SCRIPT >",
  "<!--<script>x</script>-->",
  "<!-- </script",
  "&lt; written as an entity already, &amp; &#13; &#0;",
  "&&&<<<",
  "a\r\nb\rc\n",
  "nul \0 here",
  "\u2028 \u2029 é 😀",
  "</style></head><body><script>alert(2)</script>",
];

function parse(html: string): Document {
  return new DOMParser().parseFromString(html, "text/html");
}

function page(capture: string, js = "window.ran = true;"): string {
  const scriptText = inlineScriptText(js);
  return exportPageHtml({
    info: { name: 'x</script>"<b>.jsonl', exportedAt: "2026-12-06T00:00:00.000Z" },
    capture,
    scriptText,
    scriptHash: createHash("sha256").update(scriptText).digest("base64"),
    css: "body{color:red}",
  });
}

describe("escapeForScript", () => {
  it("gives every text back exactly", () => {
    for (const text of NASTY) expect(unescapeFromScript(escapeForScript(text))).toBe(text);
    expect(unescapeFromScript(escapeForScript(NASTY.join("\n")))).toBe(NASTY.join("\n"));
  });

  it("leaves no <, CR or NUL in what it writes", () => {
    for (const text of NASTY) expect(escapeForScript(text)).not.toMatch(/[<\r\0]/);
  });

  it("leaves text with nothing to escape as it is (a capture is mostly base64)", () => {
    const text = '{"t":1,"k":"bytes","b":"eyJ0eXBlIjoiYWdlbnRfc3RhcnQifQo="}\n';
    expect(escapeForScript(text)).toBe(text);
  });
});

describe("an exported page, as a browser parses it", () => {
  it("holds exactly its three script elements, whatever the capture says, and the capture comes back exactly", () => {
    for (const text of NASTY) {
      const doc = parse(page(text));
      const scripts = [...doc.querySelectorAll("script")];
      expect(scripts.map((s) => s.id)).toEqual(["pier-export", "pier-player", CAPTURE_ELEMENT_ID]);
      // The HTML parser turns CR into LF and NUL into U+FFFD: the escaping keeps both from it.
      expect(unescapeFromScript(doc.getElementById(CAPTURE_ELEMENT_ID)!.textContent!)).toBe(text);
      expect(doc.body.children).toHaveLength(4);
    }
  });

  it("a capture cannot end the element early even without the escaping (the test can fail)", () => {
    const unescaped = page("x").replace(">x</script>", "></script><script>alert(1)</script>");
    expect(parse(unescaped).querySelectorAll("script")).toHaveLength(4);
  });

  it("a player whose code holds </script or <!--<script is still one script, and the same program", () => {
    const js = 'window.a = "</script><b>"; window.b = /<!--<script>/.source; window.c = `<SCRIPT`;';
    const doc = parse(page("x", js));
    const player = doc.getElementById("pier-player")!;
    expect(doc.querySelectorAll("script")).toHaveLength(3);
    // Run as the page would run it: the same values as the code it was made from.
    const scope = { a: "", b: "", c: "" };
    new Function("window", player.textContent!)(scope);
    expect([scope.a, scope.b, scope.c]).toEqual(["</script><b>", "\\u003c!--\\u003cscript>", "<SCRIPT"]);
    expect(player.textContent).not.toMatch(/<\/script|<!--|<script/i);
  });

  it("names its one script in the policy and allows no connection", () => {
    const doc = parse(page("x"));
    const policy = doc.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute("content")!;
    const script = doc.getElementById("pier-player")!.textContent!;
    expect(policy).toContain(`script-src 'sha256-${createHash("sha256").update(script).digest("base64")}'`);
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toMatch(/connect-src|unsafe-eval|script-src[^;]*unsafe-inline/);
    expect(doc.title).toBe('x</script>"<b>.jsonl — Pier replay');
  });
});
