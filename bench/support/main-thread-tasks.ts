// The page's main-thread tasks during a traced stretch, from a Chromium
// trace (categories "toplevel" and "__metadata"): every task, not only
// those over 50 ms that the longtask API reports. Shared by the benches.

/** One task: its wall time and its thread (CPU) time, in ms; `start`: when it began, in ms of the trace's clock. */
export interface MainThreadTask {
  wall: number;
  cpu: number;
  start: number;
}

/**
 * The page's renderer main-thread tasks, from a trace: each one's wall time
 * and its thread (CPU) time, in ms. On a machine where the browser, pi, the
 * relay and this bench share a few cores, a task's wall time also counts the
 * time its thread waited for a core; the CPU time is the page's own work.
 */
export function mainThreadTasks(trace: Buffer): MainThreadTask[] {
  const { traceEvents } = JSON.parse(trace.toString("utf8")) as {
    traceEvents: { name: string; ph: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number; args?: { name?: string } }[];
  };
  const mains = new Set(traceEvents.filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`));
  const byThread = new Map<string, MainThreadTask[]>();
  for (const e of traceEvents) {
    if (e.ph !== "X" || e.dur === undefined || !/RunTask/.test(e.name)) continue;
    const key = `${e.pid}:${e.tid}`;
    if (!mains.has(key)) continue;
    (byThread.get(key) ?? byThread.set(key, []).get(key)!).push({ wall: e.dur / 1000, cpu: (e.tdur ?? e.dur) / 1000, start: e.ts / 1000 });
  }
  // The busiest renderer main thread is the page's.
  const busy = (tasks: { wall: number }[]) => tasks.reduce((sum, task) => sum + task.wall, 0);
  let busiest: MainThreadTask[] = [];
  for (const tasks of byThread.values()) if (busy(tasks) > busy(busiest)) busiest = tasks;
  return busiest;
}

/**
 * When the page called `performance.mark(name)` (its first time), in ms of the
 * trace's clock; null when the trace holds no such mark. Needs the
 * "blink.user_timing" category.
 */
export function traceMark(trace: Buffer, name: string): number | null {
  const { traceEvents } = JSON.parse(trace.toString("utf8")) as { traceEvents: { name: string; cat: string; ts: number }[] };
  const mark = traceEvents.find((e) => e.name === name && e.cat.includes("blink.user_timing"));
  return mark === undefined ? null : mark.ts / 1000;
}
