import { defineConfig } from "vitest/config";

// Two layers run by Vitest: fast unit tests (no child processes) and contract
// tests that drive a real pi 0.87.1 child against the scripted model server.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["{shared-protocol,relay,web}/test/**/*.test.ts"],
          exclude: ["**/*.contract.test.ts", "**/node_modules/**"],
          environment: "node",
        },
      },
      {
        test: {
          name: "contract",
          include: ["{shared-protocol,relay,web}/test/**/*.contract.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
