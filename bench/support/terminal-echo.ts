// Typing-echo latency in a terminal page during a flood of output, for
// bench/terminal-flood.bench.ts. Installed into every page of a context
// (addInitScript) before the page's own code: it wraps WebSocket so that, on
// the terminal's socket (`/terminal?id=…`), it counts the output bytes
// received and sees the page's acks ({"type":"ack","bytes":N}: the output
// the page's xterm has parsed, TerminalClientFrame).
//
// A key is armed (`__echoArm(key)`), then typed by the bench: the latency
// runs from the keydown's own timestamp (when the browser got the key, so
// a busy page's input delay counts) to the frame after the page acked the
// byte where the shell's echo of that key arrived, i.e. until xterm has
// parsed the echo and drawn a frame. During a flood the echo scrolls past
// within a frame, so "shown on screen" cannot be waited for; parsed and a
// frame drawn is when it would show. `__terminalCaughtUp()` says whether
// every terminal socket of the page has had its `ready` and its output acked
// whole (an attach's scrollback drawn). The keys used never occur in the
// flood's output (base64 and `yes` print neither `#` nor `%`), and each page
// of a run types its own key, so one page never takes another's echo.
//
// Plain TypeScript with erasable types only: Node runs it with type stripping.

/** The script: a function body for `context.addInitScript`. */
export function installEchoProbe(): void {
  type Counts = { ready: boolean; received: number; acked: number };
  /** `offset`: where the echo ends in the output of the socket (`socket`) it came on. */
  type Wait = { key: number; pressedAt: number | null; offset: number | null; socket: Counts | null; resolve: (ms: number | null) => void; done: Promise<number | null> };
  const w = window as unknown as { __echoArm: (key: string) => void; __echoResult: (timeoutMs: number) => Promise<number | null> };
  let wait: Wait | null = null;
  const sockets = new Set<Counts>();
  (window as unknown as { __terminalCaughtUp: () => boolean }).__terminalCaughtUp = () => sockets.size > 0 && [...sockets].every((socket) => socket.ready && socket.acked >= socket.received);
  const Native = window.WebSocket;
  class Probed extends Native {
    #counts: Counts | null = null;
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      if (!new URL(String(url), location.href).pathname.endsWith("/terminal")) return;
      const counts: Counts = { ready: false, received: 0, acked: 0 };
      this.#counts = counts;
      sockets.add(counts);
      this.addEventListener("close", () => sockets.delete(counts));
      // Registered before the page's onmessage: counts a frame before the page writes it.
      this.addEventListener("message", (event) => {
        if (!(event.data instanceof ArrayBuffer)) {
          if (String(event.data).startsWith('{"type":"ready"')) counts.ready = true;
          return;
        }
        const bytes = new Uint8Array(event.data);
        if (wait && wait.pressedAt !== null && wait.offset === null) {
          const at = bytes.indexOf(wait.key);
          if (at >= 0) {
            wait.offset = counts.received + at + 1;
            wait.socket = counts;
          }
        }
        counts.received += bytes.length;
      });
    }
    override send(data: string | ArrayBufferLike | Blob | ArrayBufferView): void {
      if (typeof data === "string" && data.startsWith('{"type":"ack"') && this.#counts) {
        const acked = (JSON.parse(data) as { bytes: number }).bytes;
        this.#counts.acked = acked;
        const done = wait;
        if (done !== null && done.socket === this.#counts && acked >= done.offset!) {
          wait = null;
          requestAnimationFrame(() => done.resolve(performance.now() - done.pressedAt!));
        }
      }
      super.send(data as never);
    }
  }
  window.WebSocket = Probed as typeof WebSocket;
  addEventListener(
    "keydown",
    (event) => {
      if (wait && wait.pressedAt === null && event.key === String.fromCharCode(wait.key)) wait.pressedAt = event.timeStamp;
    },
    true,
  );
  w.__echoArm = (key: string) => {
    let resolve: (ms: number | null) => void = () => {};
    const done = new Promise<number | null>((r) => (resolve = r));
    wait = { key: key.charCodeAt(0), pressedAt: null, offset: null, socket: null, resolve, done };
  };
  w.__echoResult = (timeoutMs: number) => {
    const armed = wait;
    if (!armed) return Promise.resolve(null);
    return Promise.race([
      armed.done,
      new Promise<null>((resolve) =>
        setTimeout(() => {
          if (wait === armed) wait = null;
          resolve(null);
        }, timeoutMs),
      ),
    ]);
  };
}
