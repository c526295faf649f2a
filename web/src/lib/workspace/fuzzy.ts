// Fuzzy file matching for quick open (Ctrl/Cmd+P). The query's characters must
// appear in order in the path (case-insensitive; spaces are ignored). Matches
// score higher when they are contiguous, start a word or path segment, and
// fall in the file name rather than the folders; shorter paths break ties.

export interface FuzzyMatch {
  path: string;
  score: number;
  /** Indexes into `path` of the matched characters, ascending. */
  positions: number[];
}

const SEPARATORS = new Set(["/", "\\", "_", "-", ".", " "]);

function isWordStart(text: string, index: number): boolean {
  if (index === 0) return true;
  const previous = text[index - 1]!;
  if (SEPARATORS.has(previous)) return true;
  const current = text[index]!;
  // camelCase boundary
  return previous === previous.toLowerCase() && current !== current.toLowerCase();
}

/**
 * Scores one path against a query, or returns null when it does not match.
 * Greedy from the file name backwards would miss better alignments, so this
 * is a small dynamic programme over (query index, path index): O(q·p), fine
 * for paths of a few hundred characters.
 */
export function fuzzyScore(query: string, path: string): FuzzyMatch | null {
  const needle = query.replace(/\s+/g, "").toLowerCase();
  if (needle === "") return { path, score: 0, positions: [] };
  const hay = path.toLowerCase();
  const n = needle.length;
  const m = hay.length;
  if (n > m) return null;

  const nameStart = path.lastIndexOf("/") + 1;
  const NEG = -Infinity;
  // best[i][j]: best score matching needle[0..i] with needle[i] at hay[j].
  const best: Float64Array[] = [];
  const from: Int32Array[] = [];
  for (let i = 0; i < n; i++) {
    const row = new Float64Array(m).fill(NEG);
    const back = new Int32Array(m).fill(-1);
    const ch = needle[i]!;
    // Running maximum of best[i-1][k] for k < j, and where it was.
    let runMax = NEG;
    let runArg = -1;
    for (let j = 0; j < m; j++) {
      if (i > 0 && j > 0) {
        const candidate = best[i - 1]![j - 1]!;
        if (candidate > runMax) {
          runMax = candidate;
          runArg = j - 1;
        }
      }
      if (hay[j] !== ch) continue;
      let bonus = 1;
      if (isWordStart(path, j)) bonus += 6;
      if (j >= nameStart) bonus += 2;
      if (j === nameStart) bonus += 4;
      if (path[j] === query.replace(/\s+/g, "")[i]) bonus += 0.5; // same case
      if (i === 0) {
        row[j] = bonus - (j >= nameStart ? 0 : 1) - Math.min(j, 20) * 0.05;
        continue;
      }
      // Contiguous with the previous match?
      const contiguous = best[i - 1]![j - 1]!;
      let score = NEG;
      let arg = -1;
      if (contiguous !== NEG) {
        score = contiguous + bonus + 5;
        arg = j - 1;
      }
      if (runMax !== NEG) {
        const gapArg = runArg;
        const gap = j - gapArg - 1;
        const gapped = runMax + bonus - Math.min(gap, 10) * 0.2;
        if (gapped > score) {
          score = gapped;
          arg = gapArg;
        }
      }
      row[j] = score;
      back[j] = arg;
    }
    best.push(row);
    from.push(back);
  }

  const last = best[n - 1]!;
  let end = -1;
  let score = NEG;
  for (let j = 0; j < m; j++) {
    if (last[j]! > score) {
      score = last[j]!;
      end = j;
    }
  }
  if (end === -1) return null;
  const positions = new Array<number>(n);
  for (let i = n - 1, j = end; i >= 0; i--) {
    positions[i] = j;
    j = from[i]![j]!;
  }
  return { path, score: score - m * 0.01, positions };
}

/** Matching paths, best first; at most `limit`. */
export function fuzzyFilter(query: string, paths: readonly string[], limit = 50): FuzzyMatch[] {
  const matches: FuzzyMatch[] = [];
  for (const path of paths) {
    const match = fuzzyScore(query, path);
    if (match) matches.push(match);
  }
  matches.sort((a, b) => b.score - a.score || a.path.length - b.path.length || (a.path < b.path ? -1 : 1));
  return matches.slice(0, limit);
}

/** Splits `text` into runs for highlighting matched characters. */
export function highlightRuns(text: string, positions: readonly number[], offset = 0): { text: string; hit: boolean }[] {
  const hits = new Set(positions.map((p) => p - offset));
  const runs: { text: string; hit: boolean }[] = [];
  for (let i = 0; i < text.length; i++) {
    const hit = hits.has(i);
    const lastRun = runs.at(-1);
    if (lastRun && lastRun.hit === hit) lastRun.text += text[i];
    else runs.push({ text: text[i]!, hit });
  }
  return runs;
}
