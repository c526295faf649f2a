// The tap's own stdout or stderr (fd 1 or 2), as a stream whose write()
// says when the reader is behind, so that pi is paused (pipe semantics)
// rather than its output buffered without bound.
//
// Not process.stdout: on Linux Node makes a pipe stdout blocking, so a
// client reading slowly would freeze the whole tap (the browsers' sockets,
// the client's stdin to pi) instead of pausing pi alone. A pipe or socket
// is opened as a non-blocking net.Socket; anything else (a file, a
// terminal) is written by fs, off the event loop.
import { createWriteStream } from "node:fs";
import { Socket } from "node:net";
import type { Writable } from "node:stream";

export function openOutput(fd: 1 | 2): Writable {
  try {
    return new Socket({ fd, readable: false, writable: true });
  } catch {
    // ERR_INVALID_FD_TYPE: a file or a terminal.
    return createWriteStream("", { fd, autoClose: false });
  }
}

/** Resolves once everything written to `out` so far is handed to the OS (or `out` failed). */
export function drained(out: Writable): Promise<void> {
  return new Promise((resolve) => {
    if (out.destroyed || out.writableLength === 0) return resolve();
    const done = () => {
      out.off("error", done);
      resolve();
    };
    out.once("error", done);
    // An empty write's callback runs after every earlier write's.
    out.write(Buffer.alloc(0), done);
  });
}
