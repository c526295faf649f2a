// `pier replay FILE [OTHER]`: a capture (and a second one to compare it
// with) served behind the same door as a live Pier, with no pi at all; and
// clear refusals (one sentence, an exit code) for a file that cannot be one.
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attemptUpgrade, httpGet, runPier, startPierReplay, type RunningPier } from "../support/pier-process.ts";

const HEADER = { type: "pier-capture", version: 1, startedAt: "2026-12-01T10:00:00.000Z", pier: "0.1.0", redacted: ["secrets"] };
const CAPTURE = `${JSON.stringify(HEADER)}\n${JSON.stringify({ t: 0, k: "frame", f: { type: "replay_end" } })}\n`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pier-replay-cli-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("pier replay refuses what is not a capture", () => {
  it("a missing file: exit 1, its path named", async () => {
    const missing = join(dir, "nope.jsonl");
    const result = await runPier(["replay", missing]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`pier: ${missing}: no such file\n`);
    expect(result.stdout).toBe("");
  });

  it("no file at all: exit 2 with the usage", async () => {
    const result = await runPier(["replay"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("pier replay needs the capture file to open");
    expect(result.stderr).toContain("Usage: pier replay FILE");
  });

  it("a pi session file, an empty file, a folder, a newer capture version: exit 1, each with its reason", async () => {
    const session = join(dir, "session.jsonl");
    await writeFile(session, `${JSON.stringify({ type: "session", version: 3, id: "x", timestamp: "2026-12-01T10:00:00Z", cwd: "/tmp" })}\n`);
    const empty = join(dir, "empty.jsonl");
    await writeFile(empty, "");
    const binary = join(dir, "image.png");
    await writeFile(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const newer = join(dir, "newer.jsonl");
    await writeFile(newer, `${JSON.stringify({ ...HEADER, version: 3 })}\n`);
    const cases: [string, string][] = [
      [session, `${session} is not a Pier capture: its first line is not a capture header (type "pier-capture")`],
      [empty, `${empty} is empty, not a Pier capture`],
      [dir, `${dir} is a folder, not a capture file`],
      [binary, `${binary} is not a Pier capture: its first line is not JSON`],
      [newer, `${newer} is not a Pier capture: capture version 3 is not supported (this Pier reads versions 1 and 2)`],
    ];
    for (const [file, message] of cases) {
      const result = await runPier(["replay", file]);
      expect({ file, code: result.code, stderr: result.stderr }).toEqual({ file, code: 1, stderr: `pier: ${message}\n` });
    }
  });
});

// Hole 9 of issue 31: `pier replay <FIFO>` waited for a writer forever, with
// no word and no exit. Every kind of file that is not a regular file gets one
// sentence and exit 1, at once.
describe("pier replay refuses what is not a regular file, without waiting on it", () => {
  it("a named pipe, a device, a folder: exit 1 within seconds, each named for what it is", async () => {
    const fifo = join(dir, "pipe.jsonl");
    execFileSync("mkfifo", [fifo]);
    const cases: [string, string][] = [
      [fifo, `${fifo} is a named pipe (FIFO), not a capture file`],
      ["/dev/zero", "/dev/zero is a device, not a capture file"],
      [dir, `${dir} is a folder, not a capture file`],
    ];
    for (const [file, message] of cases) {
      const started = performance.now();
      const result = await runPier(["replay", file], { timeoutMs: 10_000 });
      expect({ file, code: result.code, stderr: result.stderr, stdout: result.stdout }).toEqual({ file, code: 1, stderr: `pier: ${message}\n`, stdout: "" });
      expect(performance.now() - started).toBeLessThan(10_000);
    }
  });
});

describe("pier replay serves a capture", () => {
  let pier: RunningPier;
  beforeAll(async () => {
    const file = join(dir, "good.jsonl");
    await writeFile(file, CAPTURE);
    pier = await startPierReplay(file);
  });
  afterAll(async () => {
    await pier?.stop();
  });

  it("prints a single-use loopback link and says no pi is started", () => {
    expect(pier.url).toMatch(/^http:\/\/pier-[a-z2-7]{10}\.localhost:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
    expect(pier.stderr.join("\n")).toContain("replaying good.jsonl (no pi is started)");
    expect(pier.stderr.join("\n")).not.toContain(pier.token);
  });

  it("serves the capture and its name only with the cookie, and only to an allowed Host", async () => {
    expect((await httpGet(pier, "/api/replay/capture")).status).toBe(401);
    expect((await httpGet(pier, "/api/replay")).status).toBe(401);
    expect((await httpGet(pier, "/api/replay/capture", { Cookie: pier.cookie, Host: `evil.example:${pier.port}` })).status).toBe(403);
    const probe = await httpGet(pier, "/api/replay", { Cookie: pier.cookie });
    expect(probe.status).toBe(200);
    expect(JSON.parse(probe.body)).toEqual({ name: "good.jsonl", size: Buffer.byteLength(CAPTURE) });
    const capture = await httpGet(pier, "/api/replay/capture", { Cookie: pier.cookie });
    expect(capture.status).toBe(200);
    expect(capture.body).toBe(CAPTURE);
    expect(capture.headers["content-security-policy"]).toContain("default-src 'none'");
    // The app itself, behind the same cookie (contract tests may run before
    // `pnpm build`: then it is the "not built yet" page, also past the door).
    const app = await httpGet(pier, "/", { Cookie: pier.cookie });
    expect(app.status === 200 ? "the app" : app.body).toMatch(/^the app$|^The web app is not built yet/);
    expect((await httpGet(pier, "/")).status).toBe(401);
  });

  it("has no relay: no WebSocket, no workspace, nothing to change", async () => {
    const upgrade = await attemptUpgrade(pier);
    expect(upgrade.status).toBe(404);
    expect(upgrade.body).toContain("pier replay has no relay");
    expect((await httpGet(pier, "/api/workspace/tree", { Cookie: pier.cookie })).status).toBe(404);
  });

  it("with one capture, has none to compare with", async () => {
    const compare = await httpGet(pier, "/api/replay/compare", { Cookie: pier.cookie });
    expect(compare.status).toBe(404);
    expect(JSON.parse(compare.body).error.message).toBe("pier replay was given one capture: there is none to compare with.");
  });
});

describe("pier replay A B: a second capture to compare with", () => {
  // Another capture (B) with a record of its own, so serving A in its place would show.
  const OTHER = `${JSON.stringify({ ...HEADER, startedAt: "2026-12-02T10:00:00.000Z" })}\n${JSON.stringify({ t: 0, k: "frame", f: { type: "replay_end" } })}\n${JSON.stringify({ t: 5, k: "out", b: "e30K" })}\n`;
  let a: string;
  let b: string;
  beforeAll(async () => {
    a = join(dir, "a.jsonl");
    b = join(dir, "b.jsonl");
    await writeFile(a, CAPTURE);
    await writeFile(b, OTHER);
  });

  it("serves both, each at its own path, behind the same door as the first", async () => {
    const pier = await startPierReplay(a, { compareWith: b });
    try {
      expect(pier.stderr.join("\n")).toContain("replaying a.jsonl compared with b.jsonl (no pi is started)");
      // Without the link's cookie, or to another Host: neither file, nor its name.
      for (const path of ["/api/replay", "/api/replay/capture", "/api/replay/compare"]) {
        expect({ path, status: (await httpGet(pier, path)).status }).toEqual({ path, status: 401 });
        expect({ path, status: (await httpGet(pier, path, { Cookie: `pier_${pier.port}=not-the-one` })).status }).toEqual({ path, status: 401 });
        expect({ path, status: (await httpGet(pier, path, { Cookie: pier.cookie, Host: `evil.example:${pier.port}` })).status }).toEqual({ path, status: 403 });
      }
      const probe = await httpGet(pier, "/api/replay", { Cookie: pier.cookie });
      expect(JSON.parse(probe.body)).toEqual({ name: "a.jsonl", size: Buffer.byteLength(CAPTURE), compare: { name: "b.jsonl", size: Buffer.byteLength(OTHER) } });
      expect((await httpGet(pier, "/api/replay/capture", { Cookie: pier.cookie })).body).toBe(CAPTURE);
      const compare = await httpGet(pier, "/api/replay/compare", { Cookie: pier.cookie });
      expect(compare.status).toBe(200);
      expect(compare.body).toBe(OTHER);
      expect(compare.headers["content-type"]).toBe("application/x-ndjson; charset=utf-8");
      expect(compare.headers["content-security-policy"]).toContain("default-src 'none'");
      // Served from the descriptor opened at the start: the name replaced since changes nothing.
      await rm(b);
      await writeFile(b, "replaced\n");
      expect((await httpGet(pier, "/api/replay/compare", { Cookie: pier.cookie })).body).toBe(OTHER);
    } finally {
      await pier.stop();
    }
  });

  it("the same file twice is fine", async () => {
    const pier = await startPierReplay(a, { compareWith: a });
    try {
      const probe = JSON.parse((await httpGet(pier, "/api/replay", { Cookie: pier.cookie })).body);
      expect(probe.compare).toEqual({ name: "a.jsonl", size: Buffer.byteLength(CAPTURE) });
      expect((await httpGet(pier, "/api/replay/compare", { Cookie: pier.cookie })).body).toBe(CAPTURE);
    } finally {
      await pier.stop();
    }
  });

  it("a second file that cannot be one is refused as the first is, saying it is the second", async () => {
    const missing = join(dir, "nope.jsonl");
    const session = join(dir, "session-b.jsonl");
    await writeFile(session, `${JSON.stringify({ type: "session", version: 3, id: "x", timestamp: "2026-12-01T10:00:00Z", cwd: "/tmp" })}\n`);
    const cases: [string, string][] = [
      [missing, `${missing}: no such file (the second file, to compare with)`],
      [dir, `${dir} is a folder, not a capture file (the second file, to compare with)`],
      [session, `${session} is not a Pier capture: its first line is not a capture header (type "pier-capture") (the second file, to compare with)`],
    ];
    for (const [file, message] of cases) {
      const result = await runPier(["replay", a, file]);
      expect({ file, code: result.code, stderr: result.stderr, stdout: result.stdout }).toEqual({ file, code: 1, stderr: `pier: ${message}\n`, stdout: "" });
    }
    // The first file is checked first, and named without a note.
    const first = await runPier(["replay", missing, a]);
    expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 1, stderr: `pier: ${missing}: no such file\n` });
  });

  it("three files: exit 2, the limit named, with the usage", async () => {
    const result = await runPier(["replay", a, a, a]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("pier replay opens one capture file, or two to compare, not 3");
    expect(result.stderr).toContain("Usage: pier replay FILE [OTHER]");
  });
});
