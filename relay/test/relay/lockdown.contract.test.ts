// Holes an outside attacker found (issue "Locked down for real"), each shown
// against a real pier and pi: a viewer learning the provider key from pi's
// command line or stderr, a revoked driver whose frames keep arriving while
// the relay closes its socket, and a viewer taking a driver's export.
import { request as httpRequest } from "node:http";
import type { Socket } from "node:net";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLOSE_REVOKED, RELAY_SOCKET_PATH, type RelayFrame } from "@pier/protocol";
import { commandId, connectBrowser, exchangeToken, startPier, type Browser, type RunningPier } from "../support/pier-process.ts";
import { httpJson } from "../workspace/workspace-http.ts";

const hello = fileURLToPath(new URL("../../../e2e/scenarios/hello.json", import.meta.url));

type Frame<T extends RelayFrame["type"]> = Extract<RelayFrame, { type: T }>;

/** A link made by `driver`, as the URL a browser would open. */
async function makeLink(pier: RunningPier, driver: Browser, role: "driver" | "viewer"): Promise<{ url: string; linkId: string }> {
  const before = driver.frames.filter((f) => f.type === "link_created").length;
  driver.send({ type: "pier.create_link", role });
  const frame = await driver.waitUntil(() => driver.frames.filter((f): f is Frame<"link_created"> => f.type === "link_created")[before], "link_created");
  const printed = new URL(pier.url);
  return { url: `${printed.origin}/?token=${frame.token}`, linkId: frame.link.id };
}

/**
 * A WebSocket client made by hand, as an attacker would write one: it keeps
 * sending after the relay has told it to go, which a browser's WebSocket (and
 * the `ws` client) would not.
 */
class RawSocket {
  readonly frames: { opcode: number; payload: Buffer }[] = [];
  #pending = Buffer.alloc(0);
  #waiters = new Set<() => void>();
  readonly socket: Socket;
  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on("data", (data: Buffer) => {
      this.#pending = Buffer.concat([this.#pending, data]);
      this.#parse();
      for (const waiter of [...this.#waiters]) waiter();
    });
  }

  static open(pier: RunningPier, cookie: string): Promise<RawSocket> {
    return new Promise((resolve, reject) => {
      const request = httpRequest({
        host: "127.0.0.1",
        port: pier.port,
        path: RELAY_SOCKET_PATH,
        headers: {
          Host: pier.host,
          Origin: pier.origin,
          Cookie: cookie,
          Connection: "Upgrade",
          Upgrade: "websocket",
          "Sec-WebSocket-Version": "13",
          "Sec-WebSocket-Key": randomBytes(16).toString("base64"),
        },
      });
      request.on("upgrade", (_response, socket, head) => {
        const raw = new RawSocket(socket);
        if (head.length > 0) socket.emit("data", head);
        resolve(raw);
      });
      request.on("response", (response) => reject(new Error(`upgrade refused: HTTP ${response.statusCode}`)));
      request.on("error", reject);
      request.end();
    });
  }

  /** A masked text frame, as a client must send. */
  sendText(text: string): void {
    const payload = Buffer.from(text, "utf8");
    const mask = randomBytes(4);
    const header = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
    const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!));
    this.socket.write(Buffer.concat([header, mask, masked]));
  }

  until<T>(check: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(look);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      const look = () => {
        const found = check();
        if (found === undefined) return;
        clearTimeout(timer);
        this.#waiters.delete(look);
        resolve(found);
      };
      this.#waiters.add(look);
      look();
    });
  }

  #parse(): void {
    for (;;) {
      const buffer = this.#pending;
      if (buffer.length < 2) return;
      let length = buffer[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffer.length < 4) return;
        length = buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffer.length < 10) return;
        length = Number(buffer.readBigUInt64BE(2));
        offset = 10;
      }
      if (buffer.length < offset + length) return;
      this.frames.push({ opcode: buffer[0]! & 0x0f, payload: buffer.subarray(offset, offset + length) });
      this.#pending = buffer.subarray(offset + length);
    }
  }
}

describe("secrets in pi's command line and environment never reach a browser", () => {
  const key = "hunter2-not-shaped-like-any-known-key";
  const envSecret = "plain-env-secret-42-abcdef";
  let dir: string;
  let pier: RunningPier;
  let driver: Browser;
  let viewer: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pier-secrets-"));
    // An extension that echoes a secret of pi's environment on stderr, as a failing provider might.
    const echo = join(dir, "echo-secret.ts");
    writeFileSync(echo, `export default function () { console.error("probe: token is " + process.env.PIER_PROBE_TOKEN + " and key " + ${JSON.stringify(key)}); }\n`);
    pier = await startPier(["--demo", "--demo-scenario", hello, "--", "--api-key", key, "-e", echo], {
      env: { ...process.env, PIER_PROBE_TOKEN: envSecret },
    });
    driver = await connectBrowser(pier);
    const link = await makeLink(pier, driver, "viewer");
    viewer = await connectBrowser(pier, { cookie: await exchangeToken(link.url, pier.port) });
  });
  afterAll(async () => {
    await viewer?.close();
    await driver?.close();
    await pier?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the hello says pi's command line with the key redacted, to viewers and drivers alike", async () => {
    for (const browser of [viewer, driver]) {
      const text = JSON.stringify(browser.hello);
      expect(text).not.toContain(key);
      expect(text).not.toContain(envSecret);
      const at = browser.hello.piCommand.indexOf("--api-key");
      expect(at).toBeGreaterThan(0);
      expect(browser.hello.piCommand[at + 1]).toBe("[redacted]");
    }
  });

  it("pi's stderr reaches pages and pier's log with the secrets redacted", async () => {
    const line = await viewer.waitUntil(
      () => [...viewer.hello.recentStderr, ...viewer.frames.flatMap((f) => (f.type === "stderr" ? [f.line] : []))].find((l) => l.startsWith("probe:")),
      "the extension's stderr line",
    );
    expect(line).toBe("probe: token is [redacted] and key [redacted]");
    // A page that joins later gets the kept lines, redacted too.
    const late = await connectBrowser(pier);
    expect(JSON.stringify(late.hello)).not.toContain(envSecret);
    await late.close();
    const log = pier.stderr.join("\n");
    expect(log).toContain("probe: token is [redacted]");
    expect(log).not.toContain(envSecret);
    expect(log).not.toContain(key);
  });
});

describe("a revoked driver stops at once", () => {
  let pier: RunningPier;
  let owner: Browser;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pier-revoke-"));
    pier = await startPier(["--demo", "--demo-scenario", hello]);
    owner = await connectBrowser(pier);
  });
  afterAll(async () => {
    await owner?.close();
    await pier?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("frames that arrive while its socket closes reach neither pi nor the others", async () => {
    const link = await makeLink(pier, owner, "driver");
    const cookie = await exchangeToken(link.url, pier.port);
    const victim = await RawSocket.open(pier, cookie);
    // Connected: its hello came (a text frame).
    await victim.until(() => victim.frames.find((f) => f.opcode === 0x1 && f.payload.toString().includes('"type":"hello"')), "hello");
    owner.send({ type: "pier.revoke_link", linkId: link.linkId });
    const close = await victim.until(() => victim.frames.find((f) => f.opcode === 0x8), "the close frame");
    expect(close.payload.readUInt16BE(0)).toBe(CLOSE_REVOKED);
    await owner.waitUntil(() => owner.frames.some((f) => f.type === "links" && f.links.some((l) => l.id === link.linkId && l.revoked)), "the revoked link listed");
    const linksBefore = owner.frames
      .filter((f): f is Frame<"links"> => f.type === "links")
      .at(-1)!
      .links.map((l) => l.id);
    // The relay has said goodbye; a hand-made client does not answer the close and keeps sending.
    const marker = join(dir, "ran-after-revoke");
    const id = commandId("revoked");
    victim.sendText(JSON.stringify({ type: "bash", command: `touch ${marker}`, id }));
    victim.sendText(JSON.stringify({ type: "pier.create_link", role: "driver" }));
    // Given time to arrive and run (a touch through pi takes milliseconds), then a command of the owner's goes all the way through pi.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const probe = commandId("owner");
    owner.send({ type: "bash", command: "true", id: probe });
    await owner.waitForRecord((r) => r.type === "response" && r.id === probe);
    expect(existsSync(marker)).toBe(false);
    expect(owner.frames.some((f) => f.type === "command_sent" && f.line.includes(id))).toBe(false);
    const links = () => owner.frames.filter((f): f is Frame<"links"> => f.type === "links").at(-1)?.links ?? [];
    expect(links().map((l) => l.id)).toEqual(linksBefore);
    victim.socket.destroy();
  });
});

describe("an export is served to the browser that asked for it", () => {
  let pier: RunningPier;
  let driver: Browser;
  let viewerCookie: string;

  beforeAll(async () => {
    pier = await startPier(["--demo", "--demo-scenario", hello]);
    driver = await connectBrowser(pier);
    const link = await makeLink(pier, driver, "viewer");
    viewerCookie = await exchangeToken(link.url, pier.port);
  });
  afterAll(async () => {
    await driver?.close();
    await pier?.stop();
  });

  it("a viewer who saw the export command go by gets a 404; the driver then gets the file", async () => {
    // Something to export: one answered prompt.
    const promptId = commandId("prompt");
    driver.send({ type: "prompt", message: "hello", id: promptId });
    expect(await driver.waitForRecord((r) => r.type === "response" && r.id === promptId)).toMatchObject({ success: true });
    await driver.waitForRecord((r) => r.type === "agent_settled");
    const id = commandId("export");
    const outputPath = `${driver.hello.sessions!.exportDir}/lesson.html`;
    driver.send({ type: "export_html", outputPath, id });
    expect(await driver.waitForRecord((r) => r.type === "response" && r.id === id)).toMatchObject({ success: true });
    const stolen = await httpJson(pier, "GET", "/api/sessions/export/lesson.html", { cookie: viewerCookie });
    expect(stolen.status).toBe(404);
    const mine = await httpJson(pier, "GET", "/api/sessions/export/lesson.html");
    expect(mine.status).toBe(200);
    expect(mine.text).toMatch(/<html/i);
  });
});
