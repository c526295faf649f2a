import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineProject } from "vitest/config";

// Unit tests for rune stores (`*.svelte.ts`): compiled by the Svelte plugin
// for the browser (the "browser" condition), so $state, $derived and $effect
// behave as they do in the page, not as Svelte's server build would.
export default defineProject({
  // No svelte.config: the page's build (vite.config.ts) uses the defaults too.
  plugins: [svelte({ configFile: false })],
  resolve: { conditions: ["browser"] },
  test: {
    name: "unit-runes",
    include: ["test/**/*.svelte.test.ts"],
    environment: "jsdom",
    // One jsdom per worker, not one per file: making it 26 times was 62% of
    // this project's time (35 s → 8 s). Safe for the same reason as the unit
    // project's (vitest.config.ts). pool "vmThreads" would keep files apart
    // but has no TextDecoderStream, which the search store's tests need.
    isolate: false,
  },
});
