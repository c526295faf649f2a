// Fresh single-use links on demand: each line typed on pier's standard input
// (Enter in its terminal) prints one on stdout, and so does SIGUSR2
// (`kill -USR2 <pid>`), for a pier with no terminal to type into: a
// background job, a service manager, standard input closed.
//
// A background job must not read its terminal: the kernel stops a process
// that reads from its controlling terminal outside the terminal's foreground
// process group (SIGTTIN), and `pier &` was stopped that way, serving
// nothing, until brought back with `fg`. So a terminal is read only while
// pier is in the foreground: checked at the start, whenever the job is
// continued (SIGCONT, sent by `bg`, and by `fg` to a stopped job), and every
// second where /proc tells it cheaply (`fg` on a running job sends no
// signal). A pipe (a script, the tests) is always read; anything else
// (/dev/null, a file) never is.
import { execFileSync } from "node:child_process";
import { existsSync, fstatSync, readFileSync } from "node:fs";

const PROC_STAT = "/proc/self/stat";
/** How soon Enter works after a running background job is brought to the foreground. */
const FOREGROUND_POLL_MS = 1000;

export interface FreshLinkOptions {
  freshUrl: () => string;
  log: (line: string) => void;
}

/** Prints a fresh link for every line on stdin (when it can be read safely) and for every SIGUSR2; says which. */
export function offerFreshLinks({ freshUrl, log }: FreshLinkOptions): void {
  const print = () => void process.stdout.write(`${freshUrl()}\n`);
  // Windows has neither these signals nor job control.
  const posix = process.platform !== "win32";
  if (posix) process.on("SIGUSR2", print);
  const how = `run \`kill -USR2 ${process.pid}\``;
  const kind = stdinKind();
  if (kind === "none") return log(posix ? `each link works once, for one browser: ${how} for a fresh one` : "each link works once, for one browser");

  const input = process.stdin;
  input.setEncoding("utf8");
  // A closed or unreadable stdin is not an error of pier's: Enter just does nothing then.
  input.on("error", () => {});
  const onData = (text: string) => {
    for (let i = 0; i < text.split("\n").length - 1; i++) print();
  };
  let reading = false;
  const follow = () => {
    const read = kind === "pipe" || inForeground();
    if (read === reading) return;
    reading = read;
    if (read) input.on("data", onData).resume();
    else input.off("data", onData).pause();
  };
  follow();
  if (kind === "terminal" && posix) {
    process.on("SIGCONT", follow);
    // `fg` on a job that runs in the background sends no signal: look now and then (a read of /proc, where there is one).
    if (existsSync(PROC_STAT)) setInterval(follow, FOREGROUND_POLL_MS).unref();
  }
  log(
    reading
      ? "each link works once, for one browser: press Enter here for a fresh one"
      : `each link works once, for one browser: press Enter here once pier is in the foreground (fg), or ${how}, for a fresh one`,
  );
}

/** What standard input is: a terminal, a pipe or socket (read as lines), or nothing worth reading. */
function stdinKind(): "terminal" | "pipe" | "none" {
  if (process.stdin.isTTY) return "terminal";
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isSocket() ? "pipe" : "none";
  } catch {
    return "none";
  }
}

/**
 * True when pier's process group is its terminal's foreground group. On
 * Linux from /proc; elsewhere from `ps`; when neither answers, true (reading
 * as pier always did) rather than never offering Enter.
 */
export function inForeground(): boolean {
  try {
    return foregroundFromStat(readFileSync(PROC_STAT, "utf8"));
  } catch {
    // No /proc (macOS, the BSDs): ps knows both numbers.
  }
  try {
    const [group, foreground] = execFileSync("ps", ["-o", "pgid=,tpgid=", "-p", String(process.pid)], { encoding: "utf8", timeout: 2000 })
      .trim()
      .split(/\s+/)
      .map(Number);
    return group === foreground;
  } catch {
    return true;
  }
}

/**
 * From the text of /proc/<pid>/stat: is the process group (field 5) the
 * terminal's foreground group (field 8)? The command name (field 2) is in
 * parentheses and may hold spaces and parentheses itself, so the fields are
 * counted from the last ")". Throws on text that is not such a line.
 */
export function foregroundFromStat(stat: string): boolean {
  const close = stat.lastIndexOf(")");
  if (close === -1) throw new Error("not a /proc stat line");
  // After the name: state, ppid, pgrp, session, tty_nr, tpgid, …
  const fields = stat.slice(close + 2).split(" ");
  const group = Number(fields[2]);
  const foreground = Number(fields[5]);
  if (!Number.isInteger(group) || !Number.isInteger(foreground)) throw new Error("not a /proc stat line");
  return group === foreground;
}
