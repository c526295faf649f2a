// Searching a 10,000-file repository (issue #34 item 3): the real `pier`
// answering GET /api/search (NDJSON over HTTP, on loopback) against `git
// grep` run directly on the same files with the same arguments.
//
// A repository of 10,000 committed files (100 folders of 100, ~40 lines
// each) is generated in a temp dir. For each query, after a warm-up, ROUNDS
// runs of each side, alternating: time to the first match (pier: from the
// request to the first NDJSON match line read; git: from spawn to the first
// byte of output) and to the end of the whole search. Printed: medians and
// the ratios issue #34 names — whole search pier ÷ git grep (target ≤ 1.5),
// and the first result (target ≤ 100 ms after the last keystroke, of which
// the page's debounce takes SEARCH_DEBOUNCE_MS). Prints, asserts nothing
// (the tests are relay/test/workspace/search.contract.test.ts).
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SEARCH_LIMITS, type SearchQuery } from "../shared-protocol/src/search-api.ts";
import { grepArgs } from "../relay/src/workspace/content-search.ts";
import { startPier, type RunningPier } from "../relay/test/support/pier-process.ts";

const FOLDERS = 100;
const FILES_PER_FOLDER = 100;
const SEARCH_DEBOUNCE_MS = SEARCH_LIMITS.pageDebounceMs;
const ROUNDS = Number(process.env.PIER_BENCH_ROUNDS ?? 7);

const WORDS = ["value", "result", "config", "handler", "request", "buffer", "window", "record", "stream", "render", "update", "layout", "cursor", "module", "option"];

function makeRepository(): string {
  const root = mkdtempSync(join(tmpdir(), "pier-bench-search-"));
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  for (let folder = 0; folder < FOLDERS; folder++) {
    const dir = join(root, `pkg${folder}`, "src");
    mkdirSync(dir, { recursive: true });
    for (let file = 0; file < FILES_PER_FOLDER; file++) {
      const lines: string[] = [`// module ${folder}/${file}`];
      for (let line = 0; line < 40; line++) {
        const a = WORDS[next() % WORDS.length]!;
        const b = WORDS[next() % WORDS.length]!;
        lines.push(`export const ${a}_${line} = compute(${b}, ${next() % 1000}); // ${a} then ${b}`);
      }
      // One file in 500 holds the rare name.
      if ((folder * FILES_PER_FOLDER + file) % 500 === 0) lines.push("const needleName = findTheNeedle();");
      writeFileSync(join(dir, `file${file}.ts`), lines.join("\n") + "\n");
    }
  }
  const env = { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@b", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@b" };
  execFileSync("git", ["init", "-q"], { cwd: root, env });
  execFileSync("git", ["add", "-A"], { cwd: root, env });
  execFileSync("git", ["-c", "gc.auto=0", "commit", "-q", "-m", "generated"], { cwd: root, env });
  return root;
}

const query = (pattern: string, options: Partial<SearchQuery> = {}): SearchQuery => ({
  pattern,
  regex: false,
  caseSensitive: false,
  wholeWord: false,
  include: [],
  exclude: [],
  ignored: false,
  ...options,
});

const QUERIES: { name: string; query: SearchQuery }[] = [
  { name: "rare name", query: query("needleName") },
  { name: "regex, case", query: query("cursor_3\\d = compute\\(window", { regex: true, caseSensitive: true }) },
  { name: "whole word, case", query: query("layout_1", { wholeWord: true, caseSensitive: true }) },
  { name: "any case, capped at 10,000", query: query("COMPUTE(RESULT") },
];

type Timing = { firstMs: number | null; totalMs: number; lines: number };

function searchPier(pier: RunningPier, search: SearchQuery): Promise<Timing> {
  const params = new URLSearchParams({ q: search.pattern });
  if (search.regex) params.set("regex", "1");
  if (search.caseSensitive) params.set("case", "1");
  if (search.wholeWord) params.set("word", "1");
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstMs: number | null = null;
    let lines = 0;
    let rest = "";
    const request = httpRequest({ host: "127.0.0.1", port: pier.port, path: `/api/search?${params}`, headers: { Host: pier.host, Cookie: pier.cookie } }, (response) => {
      response.setEncoding("utf8");
      response.on("data", (text: string) => {
        const parts = (rest + text).split("\n");
        rest = parts.pop() ?? "";
        for (const part of parts) {
          if (!part.startsWith('{"type":"match"')) continue;
          firstMs ??= performance.now() - started;
          lines++;
        }
      });
      response.on("end", () => resolve({ firstMs, totalMs: performance.now() - started, lines }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end();
  });
}

function searchGit(root: string, search: SearchQuery): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstMs: number | null = null;
    let lines = 0;
    const child = spawn("git", grepArgs(search, false), { cwd: root, stdio: ["ignore", "pipe", "ignore"], env: { ...process.env, LC_ALL: "C.UTF-8" } });
    child.stdout.on("data", (chunk: Buffer) => {
      firstMs ??= performance.now() - started;
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
    });
    child.once("error", reject);
    child.once("close", () => resolve({ firstMs, totalMs: performance.now() - started, lines }));
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

console.log(`Generating ${FOLDERS * FILES_PER_FOLDER} files…`);
const made = performance.now();
const root = makeRepository();
console.log(`  done in ${((performance.now() - made) / 1000).toFixed(1)} s (${root})`);
const pier = await startPier(["--pi", "/nonexistent/pi", "--no-demo-fallback", "--cwd", root]);
try {
  console.log(`\n${ROUNDS} rounds each, medians (pier: HTTP request → first NDJSON match line / end; git grep: spawn → first output / exit)\n`);
  console.log("query                         | lines  | pier first | pier whole | git first | git whole | whole pier÷git | first + debounce");
  for (const { name, query: search } of QUERIES) {
    await searchPier(pier, search);
    await searchGit(root, search);
    const pierRuns: Timing[] = [];
    const gitRuns: Timing[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      pierRuns.push(await searchPier(pier, search));
      gitRuns.push(await searchGit(root, search));
    }
    const pierFirst = median(pierRuns.map((run) => run.firstMs ?? NaN));
    const pierWhole = median(pierRuns.map((run) => run.totalMs));
    const gitFirst = median(gitRuns.map((run) => run.firstMs ?? NaN));
    const gitWhole = median(gitRuns.map((run) => run.totalMs));
    const cells = [
      name.padEnd(29),
      String(pierRuns[0]!.lines).padStart(6),
      ms(pierFirst).padStart(10),
      ms(pierWhole).padStart(10),
      ms(gitFirst).padStart(9),
      ms(gitWhole).padStart(9),
      `${(pierWhole / gitWhole).toFixed(2)}×`.padStart(14),
      `${ms(pierFirst + SEARCH_DEBOUNCE_MS)} (target ≤ 100 ms)`,
    ];
    console.log(cells.join(" | "));
  }
  console.log(`\nTargets (issue #34): whole search ≤ 1.5× git grep; first result ≤ 100 ms after the last keystroke (the page waits ${SEARCH_DEBOUNCE_MS} ms after it).`);
} finally {
  await pier.stop();
  rmSync(root, { recursive: true, force: true, maxRetries: 5 });
}
