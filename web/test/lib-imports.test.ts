// The house rules of web/src/lib, checked on the source itself so that a
// newcomer's import cannot quietly break them: lib is below the components,
// nothing in it imports from web/src/components.
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
  return imports
    .filter((i) => i.target === COMPONENTS || i.target.startsWith(COMPONENTS + sep))
    .map((i) => `${relative(SRC, i.file)} imports ${i.specifier}`);
}

const libImports = relativeImports(sourceFiles(LIB).map((file) => ({ file, text: readFileSync(file, "utf8") })));

describe("web/src/lib's imports", () => {
  it("never reach into web/src/components", () => {
    expect(importsIntoComponents(libImports), "lib is below the components: move what both need into lib").toEqual([]);
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
});
