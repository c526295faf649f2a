// Ending a shell ends what it started. The shell is a session leader (the
// PTY library starts it with setsid), and an interactive shell puts each job
// in a process group of its own, so killing the shell's process group alone
// would leave `vim`, `sleep 1000 &` or a pipeline running. On Linux every
// process of the shell's session is found in /proc; elsewhere the shell's
// process group is what can be reached. (A process that made a session of
// its own — setsid, a daemon — has left the shell on purpose and is left.)
import { readdir, readFile } from "node:fs/promises";

/** The processes in session `sid` (the shell's pid), the shell included; [sid] where /proc is not there. */
export async function sessionMembers(sid: number): Promise<number[]> {
  let names: string[];
  try {
    names = await readdir("/proc");
  } catch {
    return [sid];
  }
  const members: number[] = [];
  await Promise.all(
    names.map(async (name) => {
      if (!/^\d+$/.test(name)) return;
      try {
        const stat = await readFile(`/proc/${name}/stat`, "latin1");
        // After the command name (in parentheses, which may itself hold ") "): state ppid pgrp session …
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        if (Number(fields[3]) === sid || Number(fields[2]) === sid) members.push(Number(name));
      } catch {
        // Gone meanwhile, or not ours to read.
      }
    }),
  );
  return members.includes(sid) ? members : [sid, ...members];
}

/** Sends `signal` to every process of the shell's session and to its process group; what is gone already is skipped. */
export async function signalSession(sid: number, signal: NodeJS.Signals): Promise<number[]> {
  const members = await sessionMembers(sid);
  for (const pid of [-sid, ...members]) {
    try {
      process.kill(pid, signal);
    } catch {
      // ESRCH: already gone; EPERM: not ours (a setuid program), left alone.
    }
  }
  return members;
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
