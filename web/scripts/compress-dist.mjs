// After `vite build`: a Brotli (.br) and a gzip (.gz) copy of every text file
// in dist/ that is worth it, so the relay can send a browser that accepts
// them about a quarter of the bytes without compressing anything at run time
// (Monaco alone is 15 MB of JavaScript). Quality 9 rather than 11: within 10 %
// of the size, in seconds rather than a minute.
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const dist = new URL("../dist/", import.meta.url).pathname;
const TEXT = /\.(js|mjs|css|html|svg|json|jsonl|txt|ttf|wasm)$/;
const MIN_BYTES = 1024;
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (TEXT.test(entry.name)) yield path;
  }
}

let saved = 0;
let total = 0;
const started = Date.now();
for await (const path of files(dist)) {
  if ((await stat(path)).size < MIN_BYTES) continue;
  const raw = await readFile(path);
  const [br, gzipped] = await Promise.all([brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }), gz(raw, { level: 9 })]);
  // Only copies that are really smaller are worth a second request path.
  if (br.length < raw.length * 0.9) await writeFile(`${path}.br`, br);
  if (gzipped.length < raw.length * 0.9) await writeFile(`${path}.gz`, gzipped);
  total += raw.length;
  saved += raw.length - Math.min(br.length, raw.length);
}
console.log(`compressed web/dist in ${((Date.now() - started) / 1000).toFixed(1)} s: ${(total / 1e6).toFixed(1)} MB of text, ${(saved / 1e6).toFixed(1)} MB less with Brotli`);
