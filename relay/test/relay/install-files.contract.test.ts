// The files a browser needs to install Pier as an app (its web manifest and
// icons) are served without the session cookie, as browsers fetch them, and
// only them: under pier's own Host, nothing else opens without a link.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPier, type RunningPier } from "../support/pier-process.ts";
import { httpJson } from "../workspace/workspace-http.ts";

const WEB_DIST = fileURLToPath(new URL("../../../web/dist", import.meta.url));

describe("install files", () => {
  let pier: RunningPier;
  beforeAll(async () => {
    pier = await startPier(["--demo"]);
  });
  afterAll(async () => {
    await pier?.stop();
  });

  it("serves the manifest and icons without a cookie, under pier's Host only; the page, its worker and the API still need a link", async () => {
    // The door lets them through: 200 once the web app is built (`pnpm build`; CI runs these tests before it), 503 "not built yet" before.
    const built = existsSync(join(WEB_DIST, "manifest.webmanifest"));
    const manifest = await httpJson(pier, "GET", "/manifest.webmanifest", { cookie: null, origin: null });
    expect(manifest.status).toBe(built ? 200 : 503);
    if (built) {
      expect(manifest.headers["content-type"]).toContain("application/manifest+json");
      expect(JSON.parse(manifest.text).short_name).toBe("Pier");
    }
    expect((await httpJson(pier, "GET", "/icons/pier-192.png", { cookie: null, origin: null })).status).toBe(built ? 200 : 503);
    // Another site's name for this address: refused as for any other file.
    expect((await httpJson(pier, "GET", "/manifest.webmanifest", { cookie: null, origin: null, headers: { Host: `evil.example:${pier.port}` } })).status).toBe(403);
    for (const path of ["/", "/sw.js", "/icons/../index.html", "/icons/other.png", "/api/files/tree"]) {
      expect((await httpJson(pier, "GET", path, { cookie: null, origin: null })).status, path).toBe(401);
    }
  });
});
