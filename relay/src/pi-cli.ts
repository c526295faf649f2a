// Where pi's CLI lives. pi's package `exports` has no ./package.json and no
// `require` condition, so require.resolve fails; its ./rpc-entry export does
// resolve, and it sits next to the CLI in dist/bundle/.

import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const PI_PACKAGE = "@earendil-works/pi-coding-agent";

/** Absolute path of pi's `dist/bundle/cli.js`; run it with Node >= 22.19. */
export function defaultPiCliPath(): string {
  let rpcEntry: string;
  try {
    rpcEntry = import.meta.resolve(`${PI_PACKAGE}/rpc-entry`);
  } catch {
    // Module runners without import.meta.resolve: relay/node_modules is a sibling of src/.
    return fileURLToPath(new URL(`../node_modules/${PI_PACKAGE}/dist/bundle/cli.js`, import.meta.url));
  }
  return fileURLToPath(new URL("./cli.js", rpcEntry));
}

/** Where a page of the bundled pi's docs is on this machine (e.g. "models.md"), or null when that pi has none. */
export function bundledPiDoc(name: string): string | null {
  return piDoc(defaultPiCliPath(), name);
}

/** A page of the docs of the pi whose CLI is `cliPath` (a package's dist/bundle/cli.js has them in ../../docs/), or null. */
export function piDoc(cliPath: string, name: string): string | null {
  const path = fileURLToPath(new URL(`../../docs/${name}`, pathToFileURL(cliPath)));
  return existsSync(path) ? path : null;
}
