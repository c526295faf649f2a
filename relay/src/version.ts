import { readFileSync } from "node:fs";

/** The relay package's version, for the hello frame and `pier --version`. */
export const RELAY_VERSION: string = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
