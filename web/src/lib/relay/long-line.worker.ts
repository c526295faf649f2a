// The worker that parses pi's long lines off the page's thread
// (long-line-parser.ts): it receives a line's bytes (transferred, not
// copied), decodes and parses them, and posts the record back in slices
// (record-slices.ts). It says "ready" first, so the page knows it started
// (a worker that cannot start never gets bytes it would lose).
import { sliceLine } from "./record-slices.ts";

export type WorkerRequest = { id: number; buffer: ArrayBuffer };

const scope = self as unknown as { onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null; postMessage(message: unknown): void };

scope.onmessage = (event) => {
  const { id, buffer } = event.data;
  for (const message of sliceLine(new Uint8Array(buffer))) scope.postMessage({ id, message });
};
scope.postMessage("ready");
