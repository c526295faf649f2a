// Starts an HTTP server listening, with the reason in words when it cannot:
// the port taken (another pier, say), an address that is not this machine's,
// a port below 1024 without the rights for it.
import type { Server } from "node:http";

export async function listen(server: Server, port: number, host: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) => reject(new Error(listenFailure(error, port, host), { cause: error }));
    server.once("error", fail);
    server.listen(port, host, () => {
      server.off("error", fail);
      resolve();
    });
  });
}

/** What went wrong, and what to do about it. */
export function listenFailure(error: NodeJS.ErrnoException, port: number, host: string): string {
  const address = host.includes(":") ? `[${host}]` : host;
  // Port 0 asks for any free port: only the address can have failed.
  const where = port === 0 ? address : `${address}:${port}`;
  switch (error.code) {
    case "EADDRINUSE":
      return `cannot listen on ${where}: the port is in use (another pier?). Choose another with --port, or leave --port out to get a free one.`;
    case "EADDRNOTAVAIL":
      return `cannot listen on ${where}: ${host} is not an address of this machine (--host).`;
    case "EACCES":
      return `cannot listen on ${where}: ports below 1024 need privileges. Choose another with --port.`;
    default:
      return `cannot listen on ${where}: ${error.message}`;
  }
}
