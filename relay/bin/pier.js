#!/usr/bin/env node
// Entry point of the `pier` command. Plain JavaScript on purpose: it must run
// on any Node to be able to say which Node it needs, before loading the relay
// (TypeScript run by Node's built-in type stripping, Node >= 22.19).
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(
    `pier needs Node.js 22.19 or newer (pi 0.87.1 requires it), but this is Node.js ${process.versions.node}.\n`,
  );
  process.exit(1);
}
const { main } = await import("../src/cli.ts");
await main(process.argv.slice(2));
