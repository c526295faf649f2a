import { describe, expect, it } from "vitest";
import { LineCutter } from "../../src/tap/line-cutter.ts";

describe("LineCutter", () => {
  it("cuts on LF only, strips a trailing CR, and joins a line and a UTF-8 character split across chunks", () => {
    const lines = new LineCutter(1024);
    const bytes = Buffer.from('{"a":"é\u2028x"}\r\n{"b":1}\n{"c"');
    const at = bytes.indexOf(0xc3) + 1; // inside é
    expect(lines.push(bytes.subarray(0, at))).toEqual([]);
    expect(lines.push(bytes.subarray(at))).toEqual(['{"a":"é\u2028x"}', '{"b":1}']);
    expect(lines.end()).toBe('{"c"');
    expect(lines.end()).toBeNull();
  });

  it("shows a line longer than its bound cut, with its length, and holds no more than the bound", () => {
    const lines = new LineCutter(8);
    expect(lines.push(Buffer.from("0123456789"))).toEqual([]);
    expect(lines.push(Buffer.from("abc\nnext\n"))).toEqual(["01234567 … (line cut: 13 bytes; pier tap shows the first part only)", "next"]);
  });
});
