import { defineConfig, defaultClientConditions, type Plugin } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";

// The player of an exported page (src/export-main.ts): the same app, built as
// one script and one stylesheet (dist/export/player.js, player.css) that
// lib/export/export-page.ts writes inline into a single HTML file, which
// opens from disk with nothing fetched. So: an IIFE (no modules to load),
// every lazy import inside it, images as data: URLs, and no Monaco (≈ 4 MB;
// a replay never edits: the composer and editor dialogs say it is missing).
// Built after the main app by `pnpm build` (package.json), into its dist.

/** Monaco's loader resolves to a stand-in that refuses (load-monaco.ts handles a failed load). */
function withoutMonaco(): Plugin {
  return {
    name: "pier-export-without-monaco",
    enforce: "pre",
    resolveId(source) {
      if (/monaco-setup(\.ts)?$/.test(source)) return "\0pier-export-no-monaco";
      return null;
    },
    load(id) {
      if (id !== "\0pier-export-no-monaco") return null;
      return 'export function setupMonaco() { return Promise.reject(new Error("The editor is not part of an exported page.")); }';
    },
  };
}

/**
 * The page has no Worker (export-main.ts deletes it: from file:// a worker's
 * script is another origin): the workers' scripts are left out, not emitted
 * as files nothing could load.
 */
function withoutWorkers(): Plugin {
  const WORKER_URL = /new URL\((["'])\.\/[\w.-]+\.worker\.ts\1,\s*import\.meta\.url\)/g;
  return {
    name: "pier-export-without-workers",
    enforce: "pre",
    transform(code, id) {
      if (!/\.ts$/.test(id) || !WORKER_URL.test(code)) return null;
      WORKER_URL.lastIndex = 0;
      return { code: code.replace(WORKER_URL, '"data:,"'), map: null };
    },
  };
}

export default defineConfig({
  plugins: [withoutMonaco(), withoutWorkers(), svelte()],
  resolve: {
    // Spread the defaults: without "browser" Svelte's server build gets bundled.
    conditions: [...defaultClientConditions],
  },
  // Library builds leave process.env.NODE_ENV to the user: this one is the app.
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  publicDir: false,
  build: {
    outDir: "dist/export",
    emptyOutDir: true,
    target: "es2022",
    assetsInlineLimit: Number.MAX_SAFE_INTEGER,
    copyPublicDir: false,
    lib: {
      entry: "src/export-main.ts",
      formats: ["iife"],
      name: "PierExportedPage",
      fileName: () => "player.js",
      cssFileName: "player",
    },
  },
});
