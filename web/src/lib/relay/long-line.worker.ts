// The worker that parses pi's long lines off the page's thread
// (long-line-parser.ts): it is given a line's bytes while they arrive
// (transferred, not copied) and decodes each part as it comes, so that
// when the line ends only the parse is left; then it posts the record back
// in slices (record-slices.ts). It says "ready" first, so the page knows it
// started (a worker that cannot start never gets bytes it would lose).
//
// The slices are cut once the line is whole, not while it arrives: reading
// them meanwhile (tried: a scan of the entries array as its text came) made
// the page's thread read slices while it was still receiving the rest, and
// on two cores the last byte came that much later, and the session no
// sooner (50,000 messages, one run of 5 rounds: the last byte 1.4 → 2.2 s,
// the last message visible 2.4 → 2.7 s).
import { sliceText } from "./record-slices.ts";

export type WorkerRequest =
  | { id: number; kind: "begin" }
  | { id: number; kind: "bytes"; buffer: ArrayBuffer }
  | { id: number; kind: "end" }
  /** The line will never end: forget it. */
  | { id: number; kind: "abort" };

const scope = self as unknown as { onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null; postMessage(message: unknown): void };

/** The lines arriving: each one's decoder (a character may be cut between parts) and its text so far. */
const arriving = new Map<number, { decoder: TextDecoder; text: string[] }>();

scope.onmessage = (event) => {
  const request = event.data;
  if (request.kind === "begin") {
    arriving.set(request.id, { decoder: new TextDecoder("utf-8", { ignoreBOM: true }), text: [] });
    return;
  }
  const line = arriving.get(request.id);
  if (line === undefined) return;
  if (request.kind === "bytes") line.text.push(line.decoder.decode(new Uint8Array(request.buffer), { stream: true }));
  else {
    arriving.delete(request.id);
    if (request.kind === "abort") return;
    line.text.push(line.decoder.decode());
    for (const message of sliceText(line.text.join(""))) scope.postMessage({ id: request.id, message });
  }
};
scope.postMessage("ready");
