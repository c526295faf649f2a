// `path:line` and `path:line:column` in a shell's output (compiler errors,
// grep -n, stack traces), found on one line of text so the terminal can make
// them links that open the file in the editor at that line.

export type PathLink = {
  /** Index of the first character of the link in the line, and its length. */
  start: number;
  length: number;
  path: string;
  line: number;
  column: number | null;
};

// A path has a slash or a file extension (so "at 12:30" or "localhost:8080" is
// not one), then :line, optionally :column. It starts at the line's start or
// after a space, quote or bracket.
const PATTERN = /(?<=^|[\s'"`([{<])((?:~|\.{1,2})?\/?(?:[\w.@+-]+\/)*[\w@+-][\w.@+-]*\.[A-Za-z0-9]+|(?:\.{1,2}\/|\/)?(?:[\w.@+-]+\/)+[\w.@+-]+):(\d+)(?::(\d+))?/g;

export function findPathLinks(text: string): PathLink[] {
  const links: PathLink[] = [];
  for (const match of text.matchAll(PATTERN)) {
    const line = Number(match[2]);
    if (line < 1) continue;
    links.push({ start: match.index, length: match[0].length, path: match[1]!, line, column: match[3] ? Number(match[3]) : null });
  }
  return links;
}
