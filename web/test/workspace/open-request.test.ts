// A page's address may ask it to open one file (`#open=<path>`): read once, then dropped.
import { describe, expect, it } from "vitest";
import { openRequestHref, takeOpenRequest } from "../../src/lib/workspace/open-request.ts";

describe("open requests", () => {
  it("reads the path and drops the hash from the address", () => {
    const replaced: string[] = [];
    const href = openRequestHref("/live/3/", "src/a b.ts");
    expect(href).toBe("/live/3/#open=src%2Fa%20b.ts");
    const where = { pathname: "/live/3/", search: "?x=1", hash: href.slice("/live/3/".length) };
    expect(takeOpenRequest(where, (url) => replaced.push(url))).toBe("src/a b.ts");
    expect(replaced).toEqual(["/live/3/?x=1"]);
  });

  it("ignores other hashes, an empty path and bad escapes (a bad one is still dropped)", () => {
    const replaced: string[] = [];
    const at = (hash: string) => takeOpenRequest({ pathname: "/", search: "", hash }, (url) => replaced.push(url));
    expect(at("")).toBeNull();
    expect(at("#section")).toBeNull();
    expect(replaced).toEqual([]);
    expect(at("#open=")).toBeNull();
    expect(at("#open=%E0%A4%A")).toBeNull();
    expect(replaced).toEqual(["/", "/"]);
  });
});
