// The house rules of web/src/lib, checked on the source itself so that a
// newcomer's import cannot quietly break them:
//  - lib is below the components: nothing in it imports from web/src/components;
//  - its folders depend one way: no folder-level import loop (a → b → … → a).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../src");
const LIB = join(SRC, "lib");
const COMPONENTS = join(SRC, "components");

// Static imports, re-exports, side-effect imports and dynamic import("…").
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|svelte)$/.test(entry.name) ? [path] : [];
  });
}

interface Import {
  file: string;
  specifier: string;
  target: string;
}

/** Every relative import of `files`, resolved to an absolute path. */
function relativeImports(files: { file: string; text: string }[]): Import[] {
  return files.flatMap(({ file, text }) =>
    [...text.matchAll(SPECIFIER)]
      .map((m) => m[1] as string)
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => ({ file, specifier, target: resolve(dirname(file), specifier) })),
  );
}

/** "lib/a.ts → ../../components/x.ts" for each import that leaves lib for the components. */
function importsIntoComponents(imports: Import[]): string[] {
  return imports.filter((i) => i.target === COMPONENTS || i.target.startsWith(COMPONENTS + sep)).map((i) => `${relative(SRC, i.file)} imports ${i.specifier}`);
}

/** The folder of web/src/lib a path is in, or null for lib's own top-level files and anything outside. */
function libFolder(path: string): string | null {
  const parts = relative(LIB, path).split(sep);
  return parts.length < 2 || parts[0] === ".." ? null : (parts[0] as string);
}

/** Folder → folders it imports from, each edge with one import that makes it (for the message). */
function folderGraph(imports: Import[]): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const i of imports) {
    const from = libFolder(i.file);
    const to = libFolder(i.target);
    if (from === null || to === null || from === to) continue;
    const edges = graph.get(from) ?? new Map<string, string>();
    if (!edges.has(to)) edges.set(to, `${relative(LIB, i.file)} imports ${i.specifier}`);
    graph.set(from, edges);
  }
  return graph;
}

/** One loop of the graph as its folders (first repeated at the end), or null when it has none. */
function findCycle(graph: Map<string, Map<string, string>>): string[] | null {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, "open");
    path.push(node);
    for (const next of [...(graph.get(node)?.keys() ?? [])].sort()) {
      if (state.get(next) === "open") return [...path.slice(path.indexOf(next)), next];
      if (state.get(next) === undefined) {
        const found = visit(next);
        if (found !== null) return found;
      }
    }
    path.pop();
    state.set(node, "done");
    return null;
  };
  for (const node of [...graph.keys()].sort()) {
    if (state.get(node) !== undefined) continue;
    const found = visit(node);
    if (found !== null) return found;
  }
  return null;
}

/** The loop in words, one line per step with the import that makes it. */
function describeCycle(graph: Map<string, Map<string, string>>, cycle: string[]): string {
  const steps = cycle.slice(1).map((to, k) => `  ${cycle[k]} → ${to}: ${graph.get(cycle[k] as string)?.get(to)}`);
  return `web/src/lib folders import each other in a loop (${cycle.join(" → ")}):\n${steps.join("\n")}`;
}

const libImports = relativeImports(sourceFiles(LIB).map((file) => ({ file, text: readFileSync(file, "utf8") })));

describe("web/src/lib's imports", () => {
  it("never reach into web/src/components", () => {
    expect(importsIntoComponents(libImports), "lib is below the components: move what both need into lib").toEqual([]);
  });

  it("form no loop between lib's folders", () => {
    const graph = folderGraph(libImports);
    const cycle = findCycle(graph);
    expect(cycle === null ? null : describeCycle(graph, cycle)).toBeNull();
  });
});

describe("the checks themselves", () => {
  const lib = (path: string) => join(LIB, path);

  it("name a lib file that imports a component module", () => {
    const imports = relativeImports([{ file: lib("transcript/search.ts"), text: 'import { x } from "../../components/tools/x.ts";' }]);
    expect(importsIntoComponents(imports)).toEqual(["lib/transcript/search.ts imports ../../components/tools/x.ts"]);
  });

  it("see dynamic imports and re-exports, and ignore packages", () => {
    const text = 'const m = await import("../../components/a.ts");\nexport { b } from "../../components/b.ts";\nimport "svelte";';
    expect(importsIntoComponents(relativeImports([{ file: lib("x/y.ts"), text }]))).toHaveLength(2);
  });

  it("find a loop through three folders and none in a one-way graph", () => {
    const files = [
      { file: lib("a/one.ts"), text: 'import { b } from "../b/two.ts";' },
      { file: lib("b/two.ts"), text: 'import { c } from "../c/three.ts";\nimport { t } from "../top.ts";' },
      { file: lib("c/three.ts"), text: 'import type { A } from "../a/one.ts";' },
    ];
    expect(findCycle(folderGraph(relativeImports(files)))).toEqual(["a", "b", "c", "a"]);
    expect(findCycle(folderGraph(relativeImports(files.slice(0, 2))))).toBeNull();
  });
});
