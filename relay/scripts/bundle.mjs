// Builds the relay as one compiled JavaScript file, relay/dist/pier.cjs,
// which bin/pier.js runs instead of the TypeScript sources while it is
// current (bin/current-bundle.js). Why, measured on Node 22 (idle relay,
// RSS): the sources hold ~118 MB, the bundle ~64 MB, a bare node ~42 MB.
// Running TypeScript loads Node's type stripper (a WebAssembly compiler); an
// ES module importing a CommonJS one (ws, ignore) loads the CommonJS export
// lexer (WebAssembly too); an ES module importing node:http builds its
// namespace, reading the lazy `http.WebSocket` getter, which loads undici;
// and an ES module entry starts the ES module loader. A CommonJS bundle does
// none of that.
//
// The bundle is only used while it is current: its stamp lists every file
// it was built from, checked at start. Anything edited since, and pier runs
// the sources, which behave the same. Built by `pnpm install` (prepare) and
// `pnpm --filter @pier/relay build`:
//
//   node relay/scripts/bundle.mjs [--if-possible]
import { createRequire } from "node:module";
import { mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const { REPO, BUNDLE, STAMP, describeInputs } = createRequire(import.meta.url)("../bin/current-bundle.js");
const THIS_FILE = fileURLToPath(import.meta.url);
const RELAY = join(REPO, "relay");

/**
 * Each source module keeps its own import.meta.url (the path of its .ts
 * file), so paths it builds relative to itself (../../web/dist, the demo
 * project, pi's package) mean what they mean when the sources run.
 */
const importMetaPlugin = {
  name: "import-meta-url",
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      if (!text.includes("import.meta")) return undefined;
      const fromBundle = JSON.stringify(relative(dirname(BUNDLE), args.path));
      const url = `require("node:url").pathToFileURL(require("node:path").join(__dirname, ${fromBundle})).href`;
      return {
        contents: text
          .replaceAll("import.meta.url", url)
          // pi-cli.ts falls back to a path relative to itself without it.
          .replaceAll("import.meta.resolve(", "(void 0)("),
        loader: args.path.endsWith(".ts") ? "ts" : "js",
      };
    });
  },
};

/**
 * ws loads https and tls at start for its client side (wss:// URLs); the
 * relay only serves, over plain HTTP, and those two modules hold ~3 MB. In
 * the bundle they are stand-ins that throw if ws ever reaches for them.
 */
const clientOnlyStub = {
  name: "ws-client-only",
  setup(build) {
    build.onResolve({ filter: /^(https|tls)$/ }, (args) => (/[\\/]ws[\\/]lib[\\/]/.test(args.importer) ? { path: args.path, namespace: "ws-client-only" } : undefined));
    build.onLoad({ filter: /.*/, namespace: "ws-client-only" }, (args) => ({
      contents: `module.exports = new Proxy({}, { get(_, name) { throw new Error("the relay does not load ${args.path} (ws needs it only as a client): " + String(name)); } });`,
      loader: "js",
    }));
  },
};

/** Files a build may read from the repository (besides node_modules), relative to it. */
function candidateInputs() {
  const files = ["pnpm-lock.yaml", relative(REPO, THIS_FILE), "relay/bin/current-bundle.js"];
  for (const dir of ["relay/src", "shared-protocol/src"]) {
    for (const entry of readdirSync(join(REPO, dir), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) files.push(relative(REPO, join(entry.parentPath, entry.name)));
    }
  }
  return files;
}

export async function buildBundle() {
  const { build } = await import("esbuild");
  // Described before the build: a file edited while it runs then no longer
  // matches its stamp, and pier runs the sources rather than a stale bundle.
  const before = describeInputs(candidateInputs());
  const temporary = `${BUNDLE}.${process.pid}.tmp`;
  const temporaryStamp = `${STAMP}.${process.pid}.tmp`;
  mkdirSync(dirname(BUNDLE), { recursive: true });
  const result = await build({
    absWorkingDir: REPO,
    entryPoints: [join(RELAY, "src", "cli.ts")],
    outfile: temporary,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node22",
    // ws's optional native helpers: required inside try/catch, absent here. The PTY library is
    // native (its binary is in a per-platform package): required from its installed package at run time.
    external: ["bufferutil", "utf-8-validate", "@lydell/node-pty"],
    plugins: [importMetaPlugin, clientOnlyStub],
    metafile: true,
    logLevel: "warning",
    // Any import.meta left over would be {} in CommonJS: fail instead.
    logOverride: { "empty-import-meta": "error" },
    banner: { js: "// Built by relay/scripts/bundle.mjs from relay/src: do not edit." },
  });
  // The repository's own files it was built from (not the stubs above), the
  // build's code included. What came from node_modules is pinned by the
  // lockfile: checking it instead of those ~400 files keeps the start-up
  // check to a few dozen stat calls.
  const files = Object.keys(result.metafile.inputs).filter((path) => !/^[\w-]+:/.test(path) && !path.startsWith("node_modules/"));
  const inputs = [...new Set([...files, "pnpm-lock.yaml", relative(REPO, THIS_FILE), "relay/bin/current-bundle.js"])].sort();
  const missing = inputs.filter((path) => !(path in before));
  const stamp = { ...Object.fromEntries(inputs.filter((path) => path in before).map((path) => [path, before[path]])), ...describeInputs(missing) };
  writeFileSync(temporaryStamp, `${JSON.stringify({ inputs: stamp })}\n`);
  // Bundle first, then its stamp: a pier starting in between finds the new
  // bundle with the old stamp, which no longer matches the sources it came
  // from (it runs the sources), or matches them (the same code either way).
  renameSync(temporary, BUNDLE);
  renameSync(temporaryStamp, STAMP);
}

// --if-possible (pnpm install): a failed build is not an error, pier runs its sources.
if (process.argv[1] === THIS_FILE) {
  const started = Date.now();
  try {
    await buildBundle();
    process.stderr.write(`relay bundle built in ${Date.now() - started} ms: ${relative(process.cwd(), BUNDLE)}\n`);
  } catch (error) {
    process.stderr.write(`the relay bundle did not build; pier will run its TypeScript sources (${error instanceof Error ? error.message : String(error)})\n`);
    process.exit(process.argv.includes("--if-possible") ? 0 : 1);
  }
}
