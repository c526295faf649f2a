#!/usr/bin/env node
// Usage: node src/cli.js <name> [--lang xx]
import { greet } from "./greet.js";

const args = process.argv.slice(2);
const langAt = args.indexOf("--lang");
const language = langAt === -1 ? undefined : args[langAt + 1];
const name = args.filter((_, i) => i !== langAt && i !== langAt + 1).join(" ");

try {
  console.log(greet(name, language));
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
}
