// Whether relay/dist/pier.cjs (see relay/scripts/bundle.mjs) was built from
// the files as they are now. Its stamp lists the repository's files it was
// built from (relay and protocol sources, the build script, and the lockfile,
// which pins what it took from node_modules), each with size, mtime and a
// hash of the contents. Like git, a file whose size and mtime are as
// recorded is not read again, so the check is a few stat calls.
//
// CommonJS, like pier.js next to it: the relay process then never starts
// Node's ES module loader, which alone holds ~4 MB.
"use strict";
const { createHash } = require("node:crypto");
const { existsSync, readFileSync, statSync } = require("node:fs");
const { join, sep } = require("node:path");

const REPO = join(__dirname, "..", "..");
const BUNDLE = join(__dirname, "..", "dist", "pier.cjs");
const STAMP = join(__dirname, "..", "dist", "pier.stamp.json");
// Not path.join per file: dozens of calls make V8 optimize it, and paging in
// its optimizing compiler alone shows as ~6 MB more RSS in an idle relay.
const inRepo = (path) => REPO + sep + path;

const digest = (path) =>
  createHash("sha256")
    .update(readFileSync(inRepo(path)))
    .digest("base64url");

/** Per input file (path relative to the repository): [size, mtime, hash of its contents]. */
function describeInputs(paths) {
  const inputs = {};
  for (const path of paths) {
    const { size, mtimeMs } = statSync(inRepo(path));
    inputs[path] = [size, mtimeMs, digest(path)];
  }
  return inputs;
}

function unchanged(path, [size, mtimeMs, recorded]) {
  const now = statSync(inRepo(path));
  if (now.size !== size) return false;
  return now.mtimeMs === mtimeMs || digest(path) === recorded;
}

/** The bundle's path if it is current, else null. */
function currentBundle() {
  try {
    const stamp = JSON.parse(readFileSync(STAMP, "utf8"));
    for (const [path, recorded] of Object.entries(stamp.inputs)) if (!unchanged(path, recorded)) return null;
  } catch {
    return null; // not built yet, or an input is gone
  }
  return existsSync(BUNDLE) ? BUNDLE : null;
}

module.exports = { REPO, BUNDLE, STAMP, currentBundle, describeInputs };
