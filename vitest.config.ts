import { defineConfig } from "vitest/config";

// Node clients resolve `*.localhost` (pier's per-launch host names) to
// loopback, as browsers do: relay/test/support/resolve-localhost.ts.
const setupFiles = ["relay/test/support/resolve-localhost.ts"];

const contract = {
  setupFiles,
  include: ["{shared-protocol,relay,web}/test/**/*.contract.test.ts"],
  environment: "node",
  testTimeout: 60_000,
  hookTimeout: 60_000,
  fileParallelism: false,
} as const;

// Fast unit tests (no child processes), and contract tests that drive a real
// pi child against the scripted model server: the pinned pi 0.87.1, then the
// same files against pi 1.6.0 (relay/test/support/pi-under-test.ts picks the
// pi from PIER_TEST_PI). The two contract projects run one after the other
// (groupOrder): their tests time aborts and shutdowns, which two pi runs at
// once on a small machine would blur.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          setupFiles,
          include: ["{shared-protocol,relay,web}/test/**/*.test.ts"],
          exclude: ["**/*.contract.test.ts", "**/*.svelte.test.ts", "**/node_modules/**"],
          environment: "node",
          // One module graph per worker, not one per file: importing the
          // relay's and the page's modules again for each of ~170 files was
          // half of this project's time (95 s → 48 s). Safe because every
          // file puts back what it changes (stubbed globals, fake timers) in
          // afterEach; runs with the files shuffled (--sequence.shuffle.files) pass.
          isolate: false,
        },
      },
      // Rune stores' unit tests, compiled by the Svelte plugin (web/vitest.runes.config.ts).
      "web/vitest.runes.config.ts",
      {
        test: { name: "contract", ...contract, sequence: { groupOrder: 1 } },
      },
      {
        test: {
          name: "contract-pi-1.6",
          ...contract,
          // Relay-only files, where pi is just a process that starts or a
          // source of bytes the relay never reads: running them twice would
          // prove nothing about pi 1.6 and cost half a minute.
          exclude: [
            "**/node_modules/**",
            "relay/test/relay/access.contract.test.ts",
            // Search: git grep and the file service; pi is not started.
            "relay/test/workspace/search.contract.test.ts",
            // The real terminal: a shell in a PTY; pi is not involved.
            "relay/test/terminal/*.contract.test.ts",
            "relay/test/relay/faults.contract.test.ts",
            "relay/test/relay/fresh-links.contract.test.ts",
            "relay/test/relay/heartbeat.contract.test.ts",
            "relay/test/relay/host-names.contract.test.ts",
            "relay/test/relay/install-files.contract.test.ts",
            "relay/test/live/workspaces.contract.test.ts",
            "relay/test/live/board-memory.contract.test.ts",
            "relay/test/live/agent-args.contract.test.ts",
            "relay/test/relay/replay.contract.test.ts",
            "relay/test/relay/startup.contract.test.ts",
            // Runs pi 0.87.1 and the bundled 1.6.0 itself (which pi pier picks).
            "relay/test/relay/which-pi.contract.test.ts",
            "relay/test/workspace/workspace-api.contract.test.ts",
            "relay/test/workspace/git-repo-commands.contract.test.ts",
            // git's commits, branches and remotes: pi only starts, as any pi does.
            "relay/test/workspace/git-actions.contract.test.ts",
            "relay/test/workspace/git-actions-http.contract.test.ts",
            // The hunk review's routes: git's index and the file service; pi only starts.
            "relay/test/workspace/git-review.contract.test.ts",
            // git's worktrees, merges and discards; the relay's fan-out to many
            // viewers and its queues for a stalled one; an SSH tunnel: pi only
            // starts and prints, as any pi does.
            "relay/test/live/worktrees.contract.test.ts",
            "relay/test/relay/classroom.contract.test.ts",
            "relay/test/relay/backpressure.contract.test.ts",
            "relay/test/relay/remote-demo.contract.test.ts",
          ],
          env: { PIER_TEST_PI: "1.6.0" },
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
