// A TCP proxy on loopback in front of a real pier, for network faults pier
// itself cannot make: in "hold" mode it accepts connections and then says
// nothing, ever (a relay behind a network that lets the handshake through
// and then drops everything, a captive portal, a frozen middlebox); in
// "pass" mode it forwards bytes both ways. `cutAll` resets the connections
// it is forwarding, as a network change does.
import { createConnection, createServer, type Server, type Socket } from "node:net";

export type HoldProxy = {
  /** The port browsers connect to (pier accepts any port in the Host header). */
  port: number;
  /** New connections are accepted and left unanswered. */
  hold(): void;
  /** New connections are forwarded to pier. */
  pass(): void;
  /** Resets every connection being forwarded. */
  cutAll(): void;
  /** The connections that arrived while holding, in order: when (ms since the epoch), and their request line once read. */
  held: HeldConnection[];
  close(): Promise<void>;
};

export type HeldConnection = { at: number; request: string };

export async function startHoldProxy(targetPort: number): Promise<HoldProxy> {
  let holding = false;
  const held: HeldConnection[] = [];
  const sockets = new Set<Socket>();
  const forwarded = new Set<Socket>();
  const track = (socket: Socket, into: Set<Socket>) => {
    into.add(socket);
    socket.on("close", () => into.delete(socket));
    socket.on("error", () => {});
  };
  const server: Server = createServer((client) => {
    track(client, sockets);
    if (holding) {
      // Read (to know what was asked) and never answer.
      const connection = { at: Date.now(), request: "" };
      held.push(connection);
      let head = "";
      client.setEncoding("latin1");
      client.on("data", (text: string) => {
        if (connection.request !== "") return;
        head += text;
        const end = head.indexOf("\r\n");
        if (end !== -1) connection.request = head.slice(0, end);
      });
      return;
    }
    const upstream = createConnection({ host: "127.0.0.1", port: targetPort });
    track(upstream, sockets);
    track(client, forwarded);
    track(upstream, forwarded);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the hold proxy has no port");
  return {
    port: address.port,
    hold: () => void (holding = true),
    pass: () => void (holding = false),
    cutAll: () => {
      for (const socket of forwarded) socket.resetAndDestroy();
    },
    held,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
