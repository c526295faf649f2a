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
const bundle = process.env.PIER_FROM_SOURCES ? null : require("./current-bundle.js").currentBundle();
const relay = bundle ? Promise.resolve(require(bundle)) : import("../src/cli.ts");
relay.then(({ main }) => main(process.argv.slice(2)));
