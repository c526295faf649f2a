// Test support: an attacker that keeps swapping a folder for a symbolic link
// to a folder outside the workspace, and back, in a worker thread so that it
// truly runs while the file service works (the service's file-system calls run
// on libuv's thread pool, the swaps on this worker's own thread).
//
// One cycle: the real folder is renamed aside (it stays inside the workspace,
// at `<folder>.real`), a symbolic link takes its name, then the link goes and
// the folder comes back. Whatever the service manages to create "in" the folder
// lands either in the real folder (inside) or, if it follows the link, outside.
// When the folder is missing (the test deleted it), the loop waits for it.
import { Worker } from "node:worker_threads";

const SWAPPER_SOURCE = `
const { renameSync, symlinkSync, unlinkSync, lstatSync } = require("node:fs");
const { workerData } = require("node:worker_threads");
const { folder, away, target, control, linkMicros, realMicros } = workerData;
const flags = new Int32Array(control);
const hold = (micros) => {
  const until = process.hrtime.bigint() + BigInt(micros) * 1000n;
  while (process.hrtime.bigint() < until);
};
while (Atomics.load(flags, 0) === 0) {
  try {
    renameSync(folder, away);
  } catch {
    hold(realMicros); // Nothing to swap just now (the test deleted it): wait for it to come back.
    continue;
  }
  let linked = false;
  try {
    symlinkSync(target, folder);
    linked = true;
  } catch {}
  hold(linkMicros);
  try { if (linked) unlinkSync(folder); } catch {}
  try { renameSync(away, folder); } catch {}
  hold(realMicros);
  Atomics.add(flags, 1, 1);
}
// Leave the real folder in place.
try { if (lstatSync(folder).isSymbolicLink()) { unlinkSync(folder); renameSync(away, folder); } } catch {}
`;

export type FolderSwapper = {
  /** Stops the loop, leaves the real folder at its name, and says how many swaps (link in, link out) were done. */
  stop(): Promise<{ swaps: number }>;
};

/**
 * Starts swapping `folder` (an existing real folder) with a symbolic link to
 * `target`, holding each state for about the given time (busy-waiting, so
 * that the timing is finer than a timer's).
 */
export function startFolderSwapper(folder: string, target: string, hold: { linkMicros: number; realMicros: number }): FolderSwapper {
  const control = new SharedArrayBuffer(8);
  const flags = new Int32Array(control);
  const worker = new Worker(SWAPPER_SOURCE, { eval: true, workerData: { folder, away: `${folder}.real`, target, control, ...hold } });
  const finished = new Promise<void>((resolve, reject) => {
    worker.once("error", reject);
    worker.once("exit", () => resolve());
  });
  return {
    async stop() {
      Atomics.store(flags, 0, 1);
      await finished;
      return { swaps: Atomics.load(flags, 1) };
    },
  };
}
