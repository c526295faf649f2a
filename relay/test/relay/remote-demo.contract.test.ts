// Showing Pier to someone on another machine, the ways docs/remote-demos.md
// describes, against the real pier:
// - through an SSH tunnel: a throwaway sshd on loopback (its own host key,
//   config and authorized key, which carries exactly the restrictions the
//   doc recommends for a guest's key), and `ssh -N -L` from a free local port
//   to pier's, as the other person would run it. Through the tunnel's port a
//   driver link opens Pier once, a viewer link opens it for anyone as a
//   viewer, and revoking it shuts them out; the guest's key reaches nothing
//   but pier's port and runs no command.
// - with `--host`: pier warns on stderr, and answers on this machine's
//   non-loopback address (all of them with 0.0.0.0, only that one when named).
//
// The SSH part skips (saying why) only when sshd is not installed; .ci/run
// installs it. The other address is this machine's own (os.networkInterfaces):
// connections to it never leave the machine.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { mkdtemp, rm, writeFile, readFile } from "node:fs/promises";
import { connect, createServer, type AddressInfo } from "node:net";
import { networkInterfaces, tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { CLOSE_REVOKED } from "@pier/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandId, connectBrowser, exchangeToken, startPier, type Browser, type RunningPier } from "../support/pier-process.ts";
import { networkWarning } from "../../src/network-warning.ts";

/** pier's stderr line for a non-loopback --host (relay/src/cli.ts), after its "pier: " prefix. */
const hostWarning = (host: string) => `pier: WARNING: listening on ${host}, not loopback. Anyone who can reach this address and obtains the URL can run shell commands as you through pi.`;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TCP port free on 127.0.0.1 right now (the caller binds it next; a clash is retried where it matters). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The first path of `name` on PATH (sshd lives in sbin, which a non-root PATH may lack). */
function findProgram(name: string): string | null {
  for (const dir of [...(process.env.PATH ?? "").split(":"), "/usr/sbin", "/usr/local/sbin", "/sbin"]) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** What bytes a TCP connection to `port` gets before it closes (or `ms` passes). */
function firstBytes(port: number, ms = 5000): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const socket = connect(port, "127.0.0.1");
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(text);
    };
    const timer = setTimeout(done, ms);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
      if (text.includes("\n")) done();
    });
    socket.on("error", done);
    socket.on("close", done);
  });
}

// ── a throwaway sshd and the other person's ssh ─────────────────────────

type Ssh = { sshd: string; ssh: string; keygen: string };

const programs: Ssh | null = (() => {
  const [sshd, ssh, keygen] = ["sshd", "ssh", "ssh-keygen"].map(findProgram);
  return sshd && ssh && keygen ? { sshd, ssh, keygen } : null;
})();

type ThrowawaySshd = {
  port: number;
  user: string;
  /** The guest's private key, for `ssh -i`. */
  key: string;
  /** Runs `ssh <options> user@127.0.0.1 <command>` as the guest would. */
  ssh(options: string[], command?: string[]): ChildProcess;
  stop(): Promise<void>;
};

/**
 * An sshd for the current user on 127.0.0.1, with a fresh host key and one
 * authorized key (the guest's) carrying `keyOptions`. Key logins only; its
 * config, keys and log live in a temporary folder removed by stop().
 */
async function startThrowawaySshd(tools: Ssh, keyOptions: string): Promise<ThrowawaySshd> {
  const dir = await mkdtemp(join(tmpdir(), "pier-sshd-"));
  const keygen = (file: string) => {
    const result = spawnSync(tools.keygen, ["-q", "-t", "ed25519", "-N", "", "-C", "pier-test", "-f", join(dir, file)], { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`ssh-keygen failed: ${result.stderr}`);
  };
  keygen("host_key");
  keygen("guest_key");
  const guestPublic = (await readFile(join(dir, "guest_key.pub"), "utf8")).trim();
  await writeFile(join(dir, "authorized_keys"), `${keyOptions} ${guestPublic}\n`, { mode: 0o600 });
  const user = userInfo().username;
  // As root, sshd insists on its privilege separation folder, which Debian's
  // service creates at boot and a container without services lacks.
  if (process.getuid?.() === 0 && !existsSync("/run/sshd")) mkdirSync("/run/sshd", { mode: 0o755 });

  let lastError = "";
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const config = join(dir, "sshd_config");
    await writeFile(
      config,
      [
        "ListenAddress 127.0.0.1",
        `Port ${port}`,
        `HostKey ${join(dir, "host_key")}`,
        "PidFile none",
        `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
        // The temporary folder is under /tmp, which "strict modes" rejects for being world-writable.
        "StrictModes no",
        "UsePAM no",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        // Only here, only with a key: CI runs as root.
        "PermitRootLogin prohibit-password",
        `AllowUsers ${user}`,
        "",
      ].join("\n"),
    );
    // -D: stay in the foreground (so we hold its pid), -e: log to stderr.
    const daemon = spawn(tools.sshd, ["-D", "-e", "-f", config], { stdio: ["ignore", "ignore", "pipe"] });
    let log = "";
    daemon.stderr!.setEncoding("utf8");
    daemon.stderr!.on("data", (text: string) => (log += text));
    const outcome = await new Promise<"listening" | "exited" | "timeout">((resolve) => {
      const timer = setTimeout(() => finish("timeout"), 10_000);
      const onLog = () => log.includes(`Server listening on 127.0.0.1 port ${port}`) && finish("listening");
      const onExit = () => finish("exited");
      const finish = (how: "listening" | "exited" | "timeout") => {
        clearTimeout(timer);
        daemon.stderr!.off("data", onLog);
        daemon.off("exit", onExit);
        resolve(how);
      };
      daemon.stderr!.on("data", onLog);
      daemon.once("exit", onExit);
    });
    if (outcome === "listening") {
      const clients = new Set<ChildProcess>();
      return {
        port,
        user,
        key: join(dir, "guest_key"),
        ssh(options, command = []) {
          const client = spawn(
            tools.ssh,
            [
              // No user config, no agent, no host key prompts: a clean client with no stdin.
              "-F",
              "/dev/null",
              "-p",
              String(port),
              "-i",
              join(dir, "guest_key"),
              "-o",
              "IdentitiesOnly=yes",
              "-o",
              "IdentityAgent=none",
              "-o",
              "BatchMode=yes",
              "-o",
              "StrictHostKeyChecking=no",
              "-o",
              "UserKnownHostsFile=/dev/null",
              "-o",
              "LogLevel=ERROR",
              ...options,
              `${user}@127.0.0.1`,
              ...command,
            ],
            { stdio: ["ignore", "pipe", "pipe"] },
          );
          clients.add(client);
          client.once("exit", () => clients.delete(client));
          return client;
        },
        async stop() {
          // Clients first: their connections' sshd processes end with them.
          await Promise.all([...clients].map(stopProcess));
          await stopProcess(daemon);
          await rm(dir, { recursive: true, force: true });
        },
      };
    }
    await stopProcess(daemon);
    lastError = `sshd ${outcome === "timeout" ? "did not start listening within 10 s" : "exited"}: ${log.trim()}`;
    if (!/Address already in use|Cannot bind/.test(log)) break;
  }
  await rm(dir, { recursive: true, force: true });
  throw new Error(lastError);
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** `ssh -N -L 127.0.0.1:<free port>:127.0.0.1:<target>`, resolved once the local end accepts connections. */
async function openTunnel(sshd: ThrowawaySshd, target: number): Promise<{ port: number; process: ChildProcess }> {
  const port = await freePort();
  const client = sshd.ssh(["-N", "-o", "ExitOnForwardFailure=yes", "-L", `127.0.0.1:${port}:127.0.0.1:${target}`]);
  let stderr = "";
  client.stderr!.setEncoding("utf8");
  client.stderr!.on("data", (text: string) => (stderr += text));
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    if (client.exitCode !== null) throw new Error(`ssh -L exited with ${client.exitCode}: ${stderr.trim()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.destroy();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (open) return { port, process: client };
    await delay(50);
  }
  throw new Error(`ssh -L did not open 127.0.0.1:${port} within 15 s: ${stderr.trim()}`);
}

/** A view of `pier` as a browser on the other end of a tunnel sees it: its address, its Origin. */
const through = (pier: RunningPier, address: string, cookie: string): RunningPier => ({
  ...pier,
  host: address,
  origin: `http://${address}`,
  cookie,
});

/** The guest's key line from docs/remote-demos.md, for pier's port. */
const guestKeyOptions = (pierPort: number) => `restrict,port-forwarding,permitopen="127.0.0.1:${pierPort}",command="/bin/false"`;

describe("showing Pier through an SSH tunnel (docs/remote-demos.md)", () => {
  let pier: RunningPier | null = null;
  let sshd: ThrowawaySshd | null = null;
  let tunnel: { port: number; process: ChildProcess } | null = null;
  /** The driver who came in through the tunnel (first test); the next one makes a viewer link with it. */
  let driver: Browser | null = null;
  const browsers: Browser[] = [];

  beforeAll(async () => {
    if (!programs) return;
    pier = await startPier(["--demo"]);
    sshd = await startThrowawaySshd(programs, guestKeyOptions(pier.port));
    tunnel = await openTunnel(sshd, pier.port);
  });
  afterAll(async () => {
    await Promise.all(browsers.map((browser) => browser.close()));
    await sshd?.stop();
    await pier?.stop();
  });

  const skipWithoutSsh = (skip: (note: string) => never) => {
    if (!programs) skip("sshd, ssh or ssh-keygen is not installed (apt-get install openssh-server openssh-client; .ci/run does)");
  };

  it("opens Pier with a driver link at the tunnel's address, once", async ({ skip }) => {
    skipWithoutSsh(skip);
    // The link pier printed, with the tunnel's port in place of pier's own: the
    // guest's browser resolves pier's `*.localhost` name to its own loopback,
    // where the tunnel listens.
    const address = `${pier!.hostname}:${tunnel!.port}`;
    const link = `http://${address}/?token=${pier!.token}`;
    // Typed with 127.0.0.1 instead, the link is handed over to that name, unspent.
    const typed = await fetch(`http://127.0.0.1:${tunnel!.port}/?token=${pier!.token}`, { redirect: "manual" });
    expect({ status: typed.status, location: typed.headers.get("location") }).toEqual({ status: 303, location: link });
    const cookie = await exchangeToken(link, pier!.port);
    driver = await connectBrowser(through(pier!, address, cookie));
    browsers.push(driver);
    expect(driver.hello.you.role).toBe("driver");
    const id = commandId("tunnel");
    driver.send({ type: "get_state", id });
    expect(await driver.waitForRecord((record) => record.type === "response" && record.id === id)).toMatchObject({ success: true });
    // Spent: a second browser (or a copy of the link) gets nothing.
    expect((await fetch(link, { redirect: "manual" })).status).toBe(401);
  });

  it("opens Pier as a viewer for everyone with a viewer link, until the driver revokes it", async ({ skip }) => {
    skipWithoutSsh(skip);
    if (!driver) throw new Error("no driver came in through the tunnel (see the test before)");
    const address = `${pier!.hostname}:${tunnel!.port}`;
    driver.send({ type: "pier.create_link", role: "viewer" });
    const created = await driver.waitForFrame("link_created");
    const link = `http://${address}/?token=${created.token}`;
    const viewers = await Promise.all([1, 2].map(async () => connectBrowser(through(pier!, address, await exchangeToken(link, pier!.port)))));
    browsers.push(...viewers);
    for (const viewer of viewers) expect(viewer.hello.you.role).toBe("viewer");
    const id = commandId("tunnel-viewer");
    viewers[0]!.send({ type: "prompt", message: "rm -rf everything", id });
    expect((await viewers[0]!.waitForFrame("error", (frame) => frame.command?.id === id)).code).toBe("forbidden");

    driver.send({ type: "pier.revoke_link", linkId: created.link.id });
    for (const viewer of viewers) expect((await viewer.closed).code).toBe(CLOSE_REVOKED);
    expect((await fetch(link, { redirect: "manual" })).status).toBe(401);
  });

  it("gives the guest's key a tunnel to pier's port only, and no command", async ({ skip }) => {
    skipWithoutSsh(skip);
    // Through a tunnel to another port (sshd's own, which would greet with "SSH-2.0-…"), nothing comes back.
    const elsewhere = await openTunnel(sshd!, sshd!.port);
    expect(await firstBytes(elsewhere.port)).toBe("");
    await stopProcess(elsewhere.process);
    // Through the tunnel to pier's port, pier answers (and wants a cookie).
    expect((await fetch(`http://${pier!.hostname}:${tunnel!.port}/api/files/tree`)).status).toBe(401);
    // A command runs the forced /bin/false instead: no output, exit status 1.
    const shell = sshd!.ssh([], ["id"]);
    let output = "";
    let errors = "";
    shell.stdout!.setEncoding("utf8").on("data", (text: string) => (output += text));
    shell.stderr!.setEncoding("utf8").on("data", (text: string) => (errors += text));
    const code = await new Promise<number | null>((resolve) => shell.once("exit", (exitCode) => resolve(exitCode)));
    expect({ output, code }, errors).toEqual({ output: "", code: 1 });
  });
});

/** An IPv4 address of this machine that is not loopback (its LAN address, say), if it has one. */
const ownAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address !== undefined && address.family === "IPv4" && !address.internal)?.address;

/** Waits for `line` on pier's stderr (printed before the URL, but stdout and stderr are read apart). */
async function stderrLine(pier: RunningPier, line: string): Promise<void> {
  const until = Date.now() + 10_000;
  while (!pier.stderr.includes(line)) {
    if (Date.now() > until) expect(pier.stderr).toContain(line);
    await delay(20);
  }
}

describe("pier --host (docs/remote-demos.md)", () => {
  const running: RunningPier[] = [];
  afterAll(async () => {
    for (const pier of running) await pier.stop();
  });

  it("with 0.0.0.0: warns on stderr and answers on this machine's other addresses too", async ({ skip }) => {
    if (!ownAddress) skip("this machine has no non-loopback IPv4 address to reach pier on");
    const pier = await startPier(["--demo", "--host", "0.0.0.0"]);
    running.push(pier);
    await stderrLine(pier, hostWarning("0.0.0.0"));
    for (const line of networkWarning("0.0.0.0", 0, "")) if (!line.startsWith("WARNING: listening")) await stderrLine(pier, `pier: ${line}`);
    // The printed link names pier's own name (this machine's browser keeps its cookie off the IP address); from elsewhere it is this machine's address instead.
    expect(new URL(pier.url).hostname).toMatch(/^pier-[a-z2-7]{10}\.localhost$/);
    const address = `${ownAddress}:${pier.port}`;
    const cookie = await exchangeToken(`http://${address}/?token=${pier.token}`, pier.port);
    const browser = await connectBrowser(through(pier, address, cookie));
    expect(browser.hello.you.role).toBe("driver");
    await browser.close();
  });

  it("with one address: warns, answers there, and not on loopback", async ({ skip }) => {
    if (!ownAddress) skip("this machine has no non-loopback IPv4 address to reach pier on");
    const pier = await startPier(["--demo", "--host", ownAddress!]);
    running.push(pier);
    await stderrLine(pier, hostWarning(ownAddress!));
    expect(new URL(pier.url).hostname).toBe(ownAddress);
    // startPier already traded a link at that address; loopback is simply not listening.
    const refused = await fetch(`http://127.0.0.1:${pier.port}/`).then(
      () => "answered",
      (error: { cause?: { code?: string } }) => error.cause?.code,
    );
    expect(refused).toBe("ECONNREFUSED");
  });
});
