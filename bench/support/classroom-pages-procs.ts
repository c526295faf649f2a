// What the machine is doing, for bench/classroom-pages.bench.ts, from Linux's
// /proc: the Chromium processes this bench started (by ancestry, so another
// bench's browsers on the same machine are not counted), their CPU time and
// memory, and the machine's load and free memory. On 2 cores, 200 renderers
// are CPU-bound; these figures let a reader judge what a latency means.
//
// Plain TypeScript with erasable types only: Node runs it with type stripping.
import { readdirSync, readFileSync } from "node:fs";

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** user + system CPU time so far, ms (all threads). */
  cpuMs: number;
  rssKB: number;
  /** Chromium's --type= (renderer, gpu-process, zygote, utility…), "browser" for the main process, "" for others. */
  chromiumType: string;
}

const read = (path: string): string | null => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null; // The process went away meanwhile.
  }
};

function info(pid: number): ProcessInfo | null {
  const stat = read(`/proc/${pid}/stat`);
  const status = read(`/proc/${pid}/status`);
  const cmdline = read(`/proc/${pid}/cmdline`);
  if (stat === null || status === null || cmdline === null) return null;
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Chromium sets its processes' titles: their cmdline is then one string, the arguments joined by spaces.
  const args = cmdline.split(/[\0 ]/);
  const isChromium = /chrom/i.test(args[0] ?? "");
  const type = args.find((arg) => arg.startsWith("--type="))?.slice("--type=".length);
  return {
    pid,
    ppid: Number(fields[1]),
    cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / 100, // utime, stime in clock ticks (USER_HZ = 100)
    rssKB: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0),
    chromiumType: isChromium ? (type ?? "browser") : "",
  };
}

/** Every live descendant of `root` (not `root` itself). */
export function descendants(root: number): ProcessInfo[] {
  const all: ProcessInfo[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const found = info(Number(name));
    if (found !== null) all.push(found);
  }
  const byParent = new Map<number, ProcessInfo[]>();
  for (const p of all) (byParent.get(p.ppid) ?? byParent.set(p.ppid, []).get(p.ppid)!).push(p);
  const out: ProcessInfo[] = [];
  const stack = [root];
  while (stack.length > 0) {
    for (const child of byParent.get(stack.pop()!) ?? []) {
      out.push(child);
      stack.push(child.pid);
    }
  }
  return out;
}

/** This bench's Chromium processes, grouped: renderers, and the rest (browser, zygotes, GPU, utilities). */
export function chromiumOf(root: number): { renderers: ProcessInfo[]; others: ProcessInfo[] } {
  const chromium = descendants(root).filter((p) => p.chromiumType !== "");
  return { renderers: chromium.filter((p) => p.chromiumType === "renderer"), others: chromium.filter((p) => p.chromiumType !== "renderer") };
}

/** CPU time (ms) of each process by pid, to subtract a later snapshot from. */
export const cpuByPid = (processes: readonly ProcessInfo[]): Map<number, number> => new Map(processes.map((p) => [p.pid, p.cpuMs]));

/** CPU time (ms) the processes used since `before` (a process new since then counts from 0). */
export function cpuSince(before: Map<number, number>, now: readonly ProcessInfo[]): number {
  return now.reduce((sum, p) => sum + p.cpuMs - (before.get(p.pid) ?? 0), 0);
}

export function cpuMsOf(pid: number): number {
  return info(pid)?.cpuMs ?? NaN;
}

export function rssMBOf(pid: number): number {
  return (info(pid)?.rssKB ?? NaN) / 1024;
}

/** The 1-minute load average: above the core count, processes wait for a CPU. */
export const loadAverage = (): number => Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);

/** MemAvailable, in MB: what the machine can still give without swapping. */
export function memAvailableMB(): number {
  return Number(/MemAvailable:\s+(\d+)/.exec(readFileSync("/proc/meminfo", "utf8"))![1]) / 1024;
}

/**
 * CPU time (ms) the threads of `pids` used so far, summed by thread name
 * (CrRendererMain, Compositor, CompositorTileW…): whether a renderer's time
 * goes to the page's main thread or to drawing.
 */
export function threadCpuByName(pids: readonly number[]): Map<string, number> {
  const byName = new Map<string, number>();
  for (const pid of pids) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // Gone meanwhile.
    }
    for (const tid of tids) {
      const stat = read(`/proc/${pid}/task/${tid}/stat`);
      if (stat === null) continue;
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")).replace(/\d+$/, "");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
      byName.set(name, (byName.get(name) ?? 0) + ms);
    }
  }
  return byName;
}
