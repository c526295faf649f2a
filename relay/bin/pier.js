#!/usr/bin/env node
// Entry point of the `pier` command. Plain JavaScript on purpose: it must run
// on any Node to be able to say which Node it needs, before loading the relay.
//
// The relay runs from relay/dist/pier.cjs, a compiled bundle of its sources
// (relay/scripts/bundle.mjs says why: about half the memory), while that
// bundle is current; otherwise (not built yet, or a source changed since),
// or with PIER_FROM_SOURCES=1, from the TypeScript sources, run by Node's
// type stripping (Node >= 22.19). Both are the same code. CommonJS (see
// package.json here): an ES module entry would start Node's ES module
// loader, ~4 MB, for nothing when the bundle runs.
"use strict";
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(`pier needs Node.js 22.19 or newer (pi requires it), but this is Node.js ${process.versions.node}.\n`);
  process.exit(1);
}
// The relay runs with one V8 helper thread instead of Node's four. Each
// helper that compiles or marks in the background gets a malloc arena of its
// own, and glibc keeps what an arena once grew to: a relay whose eight
// agents had each streamed a run and gone to sleep held ~4 MB more with four
// helpers (bench/live-sessions.bench.ts). V8 reads the flag only at start, so
// pier starts itself again in place (execve: the same pid, the same stdio).
// A --v8-pool-size of one's own wins; a debugger's flags,
// and a parent's IPC channel (it would not survive), are left be; where
// execve fails, pier runs as it is.
const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
if (typeof process.execve === "function" && process.send === undefined && !flags.some((flag) => flag.startsWith("--v8-pool-size") || flag.startsWith("--inspect"))) {
  try {
    process.execve(process.execPath, [process.execPath, "--v8-pool-size=1", ...process.execArgv, __filename, ...process.argv.slice(2)]);
  } catch {
    // Still this process, unchanged: run here, with Node's helpers.
  }
}
const bundle = process.env.PIER_FROM_SOURCES ? null : require("./current-bundle.js").currentBundle();
const relay = bundle ? Promise.resolve(require(bundle)) : import("../src/cli.ts");
relay.then(({ main }) => main(process.argv.slice(2)));
