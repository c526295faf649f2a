// Compressed answers: pre-built .br/.gz copies of the web app's files, and
// JSON made on the fly, each only for a browser that accepts the encoding,
// through a real HTTP server.
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pickEncoding, serveStatic } from "../../src/static-files.ts";
import { sendJson } from "../../src/workspace/json-http.ts";

describe("pickEncoding", () => {
  it.each([
    [undefined, null],
    ["", null],
    ["identity", null],
    ["gzip, deflate", "gzip"],
    ["gzip, deflate, br, zstd", "br"],
    ["br;q=0, gzip", "gzip"],
    ["BR", "br"],
    ["gzip;q=0", null],
  ])("%j → %j", (header, expected) => {
    expect(pickEncoding(header)).toBe(expected);
  });
});

describe("compressed answers over HTTP", () => {
  let root: string;
  let server: Server;
  const script = "console.log('pier');\n".repeat(500);
  const json = { items: Array.from({ length: 400 }, (_, i) => ({ name: `file-${i}.ts`, size: i })) };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "pier-compress-"));
    await writeFile(join(root, "index.html"), "<!doctype html><title>x</title>");
    await writeFile(join(root, "app.js"), script);
    await writeFile(join(root, "app.js.br"), brotliCompressSync(script));
    await writeFile(join(root, "app.js.gz"), gzipSync(script));
    await writeFile(join(root, "plain.js"), script); // no compressed copies
    server = createServer((req, res) => {
      if (req.url === "/api") return sendJson(res, 200, json);
      void serveStatic(root, req.url ?? "/", res, false, req.headers["accept-encoding"]);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    server.close();
    await rm(root, { recursive: true, force: true });
  });

  function get(path: string, acceptEncoding?: string): Promise<{ headers: Record<string, unknown>; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const port = (server.address() as AddressInfo).port;
      const req = request({ host: "127.0.0.1", port, path, headers: acceptEncoding ? { "Accept-Encoding": acceptEncoding } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.end();
    });
  }

  it("sends the Brotli copy to a browser that accepts br, gzip to one that accepts gzip, the file itself otherwise", async () => {
    const br = await get("/app.js", "gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(br.headers["vary"]).toBe("Accept-Encoding");
    expect(brotliDecompressSync(br.body).toString()).toBe(script);
    const gz = await get("/app.js", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toBe(script);
    const plain = await get("/app.js");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    // No copy on disk: the file as it is.
    const none = await get("/plain.js", "br");
    expect(none.headers["content-encoding"]).toBeUndefined();
    expect(none.body.toString()).toBe(script);
  });

  it("compresses JSON it makes for a browser that accepts it, and only then", async () => {
    const br = await get("/api", "br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(json);
    expect(br.body.length).toBeLessThan(JSON.stringify(json).length / 3);
    const gz = await get("/api", "gzip");
    expect(JSON.parse(gunzipSync(gz.body).toString())).toEqual(json);
    const plain = await get("/api");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(plain.body.toString())).toEqual(json);
  });
});
