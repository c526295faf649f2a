// What pier says on standard error when `--host` puts it on the network:
// what is exposed, to whom, and the safer way (docs/remote-demos.md).
// Off loopback pier has no host name of its own (launch-host.ts), so its
// cookie lives on an IP address, which no browser isolates by port.

/** The warning's lines (each printed as `pier: <line>`); `exposure` says what a link's holder can do. */
export function networkWarning(host: string, port: number, exposure: string): string[] {
  const tunnelPort = port === 0 ? "<port>" : String(port);
  return [
    `WARNING: listening on ${host}, not loopback. ${exposure}`,
    "WARNING: this is plain HTTP: traffic, links and session cookies cross the network in clear text; anyone who can watch it can copy them.",
    "WARNING: a browser sends a cookie set for an IP address to every port on that address: any other server there receives it.",
    `WARNING: to show Pier to another machine, tunnel instead: leave out --host, and there run \`ssh -N -L 8080:127.0.0.1:${tunnelPort} you@this-machine\` (docs/remote-demos.md).`,
  ];
}
