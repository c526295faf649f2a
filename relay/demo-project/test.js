// Run with: node test.js
import assert from "node:assert/strict";
import { greet } from "./src/greet.js";
import { GREETINGS } from "./src/greetings.js";

const tests = {
  "greets in English by default": () => assert.equal(greet("Ada"), "Hello, Ada!"),
  "greets in French": () => assert.equal(greet("Ada", "fr"), "Bonjour, Ada\u202f!"),
  "calls a blank name friend": () => assert.equal(greet("  "), "Hello, friend!"),
  "rejects an unknown language": () => assert.throws(() => greet("Ada", "xx"), /Unknown language "xx"/),
  "every language mentions the name": () => {
    for (const language of Object.keys(GREETINGS)) {
      assert.match(greet("Ada", language), /Ada/, `language ${language}`);
    }
  },
};

let failed = 0;
for (const [name, test] of Object.entries(tests)) {
  try {
    test();
    console.log(`✓ ${name}`);
  } catch (error) {
    failed++;
    console.log(`✗ ${name}\n  ${error.message}`);
  }
}
console.log(`\n${Object.keys(tests).length - failed} passed, ${failed} failed (${Object.keys(GREETINGS).length} languages)`);
process.exitCode = failed === 0 ? 0 : 1;
