import { defineConfig, defaultClientConditions } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";

// The relay serves dist/ under a strict CSP (script-src 'self', no inline
// scripts, no CDNs), so everything is bundled into files next to index.html.
export default defineConfig({
  plugins: [svelte()],
  resolve: {
    // Spread the defaults: without "browser" Svelte's server build gets bundled.
    conditions: [...defaultClientConditions],
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // Keep assets as files: a data: URL script would be an inline script.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
