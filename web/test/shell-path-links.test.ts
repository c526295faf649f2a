// Which `path:line` a shell printed become links into the editor.
import { describe, expect, it } from "vitest";
import { findPathLinks } from "../src/lib/shell/path-links.ts";

const found = (text: string) => findPathLinks(text).map(({ path, line, column }) => [path, line, column]);

describe("findPathLinks", () => {
  it("finds compiler, grep and stack-trace shapes", () => {
    expect(found("src/app.ts:12:5 - error TS2322")).toEqual([["src/app.ts", 12, 5]]);
    expect(found("README.md:3:Pier is a browser IDE")).toEqual([["README.md", 3, null]]);
    expect(found("    at main (/home/ada/proj/lib/index.js:40:17)")).toEqual([["/home/ada/proj/lib/index.js", 40, 17]]);
    expect(found("./scripts/build.sh:7 and ../other/Makefile:2")).toEqual([
      ["./scripts/build.sh", 7, null],
      ["../other/Makefile", 2, null],
    ]);
  });

  it("says where each link is on the line, for the terminal's range", () => {
    const [link] = findPathLinks("error in 'web/src/x.svelte:9'");
    expect(link).toMatchObject({ start: 10, length: "web/src/x.svelte:9".length });
  });

  it("leaves times, ports and bare words alone", () => {
    expect(found("at 12:30 on localhost:8080, ratio 3:2, build:1")).toEqual([]);
    expect(found("file.txt:0")).toEqual([]);
  });
});
