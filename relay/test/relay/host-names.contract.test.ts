// pier's own host name for each launch (relay/src/launch-host.ts): cookies
// are scoped by host name, not port, so a cookie on 127.0.0.1 reached every
// local server. On loopback pier answers only under `pier-<random>.localhost`
// (any port: a tunnel renames it); a valid link opened at 127.0.0.1 or
// localhost is sent on there unspent; everything else naming those is
// refused with a sentence that does not give the name away. Also: the link
// door's Location is always a path on this origin (never `//other-host/…`),
// and a cookie of our name set by someone else cannot lock the user out.
// The same in real Chromium: e2e/specs/other-port.spec.ts.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attemptUpgrade, exchangeToken, httpGet, startPier, startPierReplay, type RunningPier } from "../support/pier-process.ts";

const NAME = /^pier-[a-z2-7]{10}\.localhost$/;
const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

describe("pier's per-launch host name", () => {
  let pier: RunningPier;
  beforeAll(async () => {
    pier = await startPier(["--demo"]);
  });
  afterAll(async () => {
    await pier?.stop();
  });

  it("names the printed links, and the session cookie is set under it only", async () => {
    expect(new URL(pier.url).hostname).toMatch(NAME);
    expect(pier.hostname).toMatch(NAME);
    const answer = await httpGet(pier, `/?token=${tokenOf(await pier.freshUrl())}`);
    expect(answer.status).toBe(303);
    expect(answer.headers["set-cookie"]?.[0]).toMatch(new RegExp(`^pier_${pier.port}=[A-Za-z0-9_-]{20,}; HttpOnly; SameSite=Strict; Path=/$`));
  });

  it.each(["127.0.0.1", "localhost", "[::1]"])("sends a valid link opened at %s on, unspent and with no cookie, to the same link under pier's name", async (address) => {
    const token = tokenOf(await pier.freshUrl());
    const answer = await httpGet(pier, `/?token=${token}`, { Host: `${address}:${pier.port}` });
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe(`http://${pier.hostname}:${pier.port}/?token=${token}`);
    expect(answer.headers["set-cookie"]).toBeUndefined();
    expect(answer.headers["referrer-policy"]).toBe("no-referrer");
    // Not spent: the browser that follows it gets in under the name.
    expect(await exchangeToken(answer.headers.location!, pier.port)).toMatch(new RegExp(`^pier_${pier.port}=`));
  });

  it("keeps the port the browser named (an SSH tunnel's) in that hand-over", async () => {
    const token = tokenOf(await pier.freshUrl());
    const answer = await httpGet(pier, `/?token=${token}`, { Host: "127.0.0.1:8080" });
    expect(answer.headers.location).toBe(`http://${pier.hostname}:8080/?token=${token}`);
  });

  it("refuses an unknown, used or revoked link at 127.0.0.1 as anywhere, without telling pier's name", async () => {
    const used = tokenOf(await pier.freshUrl());
    await exchangeToken(`${pier.origin}/?token=${used}`, pier.port);
    for (const [token, reason] of [
      ["not-a-secret", /not one this pier issued/],
      [used, /used already/],
    ] as const) {
      const answer = await httpGet(pier, `/?token=${token}`, { Host: `127.0.0.1:${pier.port}` });
      expect(answer.status).toBe(401);
      expect(answer.headers.location).toBeUndefined();
      expect(answer.headers["set-cookie"]).toBeUndefined();
      expect(answer.body).toMatch(reason);
      expect(answer.body).not.toContain(pier.hostname);
    }
  });

  it("refuses every other request naming 127.0.0.1 or localhost, cookie or not, with a sentence and without telling pier's name", async () => {
    for (const address of [`127.0.0.1:${pier.port}`, `localhost:${pier.port}`]) {
      const withAndWithout: { [name: string]: string }[] = [{}, { Cookie: pier.cookie }];
      for (const cookie of withAndWithout) {
        const page = await httpGet(pier, "/", { Host: address, ...cookie });
        expect(page.status).toBe(403);
        expect(page.headers["content-type"]).toMatch(/^text\/html/);
        expect(page.body).toContain("open the link pier printed (it starts with http://pier-)");
        expect(page.body).not.toContain(pier.hostname);
        const api = await httpGet(pier, "/api/files/tree", { Host: address, ...cookie });
        expect(api.status).toBe(403);
        expect(JSON.parse(api.body)).toMatchObject({ error: { code: "forbidden", message: expect.stringContaining("open the link pier printed") } });
        expect(api.body).not.toContain(pier.hostname);
      }
      const upgrade = await attemptUpgrade(pier, { host: address, origin: `http://${address}` });
      expect(upgrade.status).toBe(403);
      expect(upgrade.body).toContain("open the link pier printed");
      expect(upgrade.body).not.toContain(pier.hostname);
    }
  });

  it("refuses another pier's name and names that only look like ours", async () => {
    for (const host of [`pier-aaaaaaaaaa.localhost:${pier.port}`, `x.${pier.host}`, `${pier.hostname}.evil.example:${pier.port}`]) {
      expect((await httpGet(pier, "/", { Host: host, Cookie: pier.cookie })).status).toBe(403);
      expect((await httpGet(pier, `/?token=${tokenOf(await pier.freshUrl())}`, { Host: host })).status).toBe(403);
    }
  });

  it("a cookie of pier's name set by someone else (a shadow, sent first) locks nobody out", async () => {
    const name = `pier_${pier.port}`;
    for (const shadow of [`${name}=junk`, `${name}=`, `${name}=${tokenOf(await pier.freshUrl())}`]) {
      const cookie = `${shadow}; ${pier.cookie}`;
      expect((await attemptUpgrade(pier, { cookie })).status).toBe("open");
      expect((await httpGet(pier, "/api/files/tree", { Cookie: cookie })).status).toBe(200);
    }
    // A shadow alone is still nobody.
    expect((await attemptUpgrade(pier, { cookie: `${name}=junk` })).status).toBe(401);
  });

  describe("the link door's Location (hole 10)", () => {
    it.each(["//other-host/x", "/.//other-host/x", "/\\other-host/x", "/x/..//other-host/x", "///other-host"])("is a path on this origin for a raw request to %s", async (path) => {
      const token = tokenOf(await pier.freshUrl());
      const answer = await httpGet(pier, `${path}?token=${token}&keep=1`);
      expect(answer.status).toBe(303);
      expect(answer.headers.location).toBe("/?keep=1");
      // Signed in already (a reopened spent link): the same.
      const again = await httpGet(pier, `${path}?token=${token}`, { Cookie: pier.cookie });
      expect(again.headers.location).toBe("/");
      // The hand-over from 127.0.0.1 names pier's own origin, and no other host.
      const fresh = tokenOf(await pier.freshUrl());
      const handOver = await httpGet(pier, `${path}?token=${fresh}`, { Host: `127.0.0.1:${pier.port}` });
      expect(handOver.headers.location).toBe(`http://${pier.hostname}:${pier.port}/?token=${fresh}`);
    });
  });
});

describe("pier replay's per-launch host name", () => {
  let dir: string;
  let pier: RunningPier;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pier-replay-host-"));
    const file = join(dir, "capture.jsonl");
    const header = { type: "pier-capture", version: 1, startedAt: "2026-12-01T10:00:00.000Z", pier: "0.1.0", redacted: ["secrets"] };
    await writeFile(file, `${JSON.stringify(header)}\n${JSON.stringify({ t: 0, k: "frame", f: { type: "replay_end" } })}\n`);
    pier = await startPierReplay(file);
  });
  afterAll(async () => {
    await pier?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("names its links too, hands a valid link over from 127.0.0.1, and lands on /?replay whatever the raw path", async () => {
    expect(pier.hostname).toMatch(NAME);
    const token = tokenOf(await pier.freshUrl());
    const handOver = await httpGet(pier, `/?token=${token}`, { Host: `127.0.0.1:${pier.port}` });
    expect(handOver.headers.location).toBe(`http://${pier.hostname}:${pier.port}/?token=${token}`);
    expect((await httpGet(pier, "/api/replay", { Host: `127.0.0.1:${pier.port}`, Cookie: pier.cookie })).status).toBe(403);
    const answer = await httpGet(pier, `/.//other-host/x?token=${token}`);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe("/?replay");
  });
});
