// The parser of `git grep -z --line-number --column` output (grep-output.ts).
import { describe, expect, it } from "vitest";
import { GrepOutputParser } from "../../src/workspace/grep-output.ts";

const record = (path: string, line: number, column: number, text: string) =>
  Buffer.concat([Buffer.from(path), Buffer.from([0]), Buffer.from(`${line}\0${column}\0`), Buffer.from(text), Buffer.from("\n")]);

describe("GrepOutputParser", () => {
  it("reads path, line, column and text of each record", () => {
    const parser = new GrepOutputParser();
    const out = parser.push(Buffer.concat([record("src/a.ts", 3, 7, "const x = 1;"), record("b.md", 10, 1, "x")]));
    expect(out).toEqual([
      { path: "src/a.ts", line: 3, column: 7, text: "const x = 1;" },
      { path: "b.md", line: 10, column: 1, text: "x" },
    ]);
    expect(parser.pendingBytes).toBe(0);
  });

  it("keeps a name holding a newline or colons whole (the NUL ends it), and a text holding colons", () => {
    const parser = new GrepOutputParser();
    expect(parser.push(record("odd\nname:1:2.txt", 1, 2, "a:b:c"))).toEqual([{ path: "odd\nname:1:2.txt", line: 1, column: 2, text: "a:b:c" }]);
  });

  it("waits for a record cut anywhere, a multi-byte character included, and decodes it whole", () => {
    const bytes = Buffer.concat([record("é/ü.txt", 1, 1, "naïve → café"), record("z", 2, 1, "end")]);
    for (let cut = 1; cut < bytes.length; cut++) {
      const parser = new GrepOutputParser();
      const out = [...parser.push(bytes.subarray(0, cut)), ...parser.push(bytes.subarray(cut))];
      expect(out, `cut at ${cut}`).toEqual([
        { path: "é/ü.txt", line: 1, column: 1, text: "naïve → café" },
        { path: "z", line: 2, column: 1, text: "end" },
      ]);
    }
  });

  it("keeps a carriage return as part of the line, as git does", () => {
    expect(new GrepOutputParser().push(record("w.txt", 1, 1, "dos\r"))[0]!.text).toBe("dos\r");
  });
});
