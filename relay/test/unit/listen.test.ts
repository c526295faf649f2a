import { createServer } from "node:net";
import { createServer as createHttpServer } from "node:http";
import { describe, expect, it } from "vitest";
import { listen, listenFailure } from "../../src/listen.ts";

const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

describe("listen", () => {
  it("rejects a taken port with what to do about it, keeping the system's error as the cause", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    const server = createHttpServer();
    try {
      const error = await listen(server, port, "127.0.0.1").then(
        () => null,
        (e: Error) => e,
      );
      expect(error?.message).toBe(`cannot listen on 127.0.0.1:${port}: the port is in use (another pier?). Choose another with --port, or leave --port out to get a free one.`);
      expect((error?.cause as NodeJS.ErrnoException).code).toBe("EADDRINUSE");
      expect(server.listening).toBe(false);
    } finally {
      taken.close();
    }
  });

  it("listens on a free port", async () => {
    const server = createHttpServer();
    await listen(server, 0, "127.0.0.1");
    expect(server.listening).toBe(true);
    server.close();
  });
});

describe("listenFailure", () => {
  it("names the address, and the port unless any port was asked for", () => {
    expect(listenFailure(failure("EADDRNOTAVAIL"), 0, "10.9.8.7")).toBe("cannot listen on 10.9.8.7: 10.9.8.7 is not an address of this machine (--host).");
    expect(listenFailure(failure("EADDRNOTAVAIL"), 8080, "fd00::1")).toBe("cannot listen on [fd00::1]:8080: fd00::1 is not an address of this machine (--host).");
    expect(listenFailure(failure("EACCES"), 80, "127.0.0.1")).toBe("cannot listen on 127.0.0.1:80: ports below 1024 need privileges. Choose another with --port.");
    expect(listenFailure(failure("EMFILE"), 4000, "127.0.0.1")).toBe("cannot listen on 127.0.0.1:4000: listen EMFILE");
  });
});
