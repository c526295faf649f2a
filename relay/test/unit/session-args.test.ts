import { describe, expect, it } from "vitest";
import { piArgsFor, sessionFileIn, sessionSelectorIn, withoutSessionSelectors } from "../../src/sessions/session-args.ts";
import { attachmentDisposition } from "../../src/sessions/download-name.ts";

describe("pi's session arguments", () => {
  it("resumes by default, and leaves a person's own selector alone", () => {
    expect(piArgsFor({ kind: "resume" }, ["--model", "x"], false)).toEqual(["--model", "x", "--continue"]);
    expect(piArgsFor({ kind: "new" }, ["--model", "x"], false)).toEqual(["--model", "x"]);
    expect(piArgsFor({ kind: "resume" }, ["--no-session"], false)).toEqual(["--no-session"]);
    expect(piArgsFor({ kind: "resume" }, ["--session", "/a.jsonl"], false)).toEqual(["--session", "/a.jsonl"]);
  });

  it("an explicit file replaces whatever chose the session before", () => {
    const launch = ["/pi/cli.js", "--mode", "rpc", "--continue", "--model", "x"];
    expect(piArgsFor({ kind: "file", path: "/s/b.jsonl" }, launch, true)).toEqual(["/pi/cli.js", "--mode", "rpc", "--model", "x", "--session", "/s/b.jsonl"]);
    expect(piArgsFor({ kind: "file", path: "/s/c.jsonl" }, ["--session", "/s/b.jsonl", "-c"], true)).toEqual(["--session", "/s/c.jsonl"]);
    expect(piArgsFor({ kind: "new" }, ["--fork=/s/b.jsonl", "--thinking", "high"], true)).toEqual(["--thinking", "high"]);
  });

  it("finds the file pi's own --session names (not an id)", () => {
    expect(sessionFileIn(["--model", "m", "--session", "s/a.jsonl"], "/w")).toBe("/w/s/a.jsonl");
    expect(sessionFileIn(["--session", "01a2312c"], "/w")).toBeNull();
    expect(sessionFileIn(["--session"], "/w")).toBeNull();
  });

  it("finds selectors in every spelling pi accepts", () => {
    expect(sessionSelectorIn(["-c"])).toBe("-c");
    expect(sessionSelectorIn(["--session-id=abc"])).toBe("--session-id");
    expect(sessionSelectorIn(["--model", "session"])).toBeNull();
    expect(withoutSessionSelectors(["--session-id", "abc", "-r", "--model", "m"])).toEqual(["--model", "m"]);
  });
});

describe("download names", () => {
  it("keeps a readable name and encodes the rest", () => {
    expect(attachmentDisposition("Greeter refactor", ".html")).toBe(`attachment; filename="Greeter refactor.html"; filename*=UTF-8''Greeter%20refactor.html`);
    expect(attachmentDisposition("Café (v2)", ".jsonl")).toBe(`attachment; filename="Caf_ (v2).jsonl"; filename*=UTF-8''Caf%C3%A9%20%28v2%29.jsonl`);
  });

  it("never lets the name break the header or name a path", () => {
    const header = attachmentDisposition('../../etc/passwd"\r\nSet-Cookie: x=1', ".jsonl");
    expect(header).not.toMatch(/[\r\n]/);
    expect(header).not.toContain("/");
    expect(header.match(/"/g)).toHaveLength(2);
    expect(attachmentDisposition("   ", ".html")).toContain('filename="pi-session.html"');
    expect(attachmentDisposition("...hidden", ".html")).toContain('filename="hidden.html"');
  });
});
