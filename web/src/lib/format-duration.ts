// How long something took, as a person reads it at a glance on a card:
// "12 ms", "0.4 s", "2.3 s", "14 s", "2 min 3 s", "1 h 5 min". Precision
// shrinks as the number grows: nobody needs the milliseconds of a minute.

/** A duration in milliseconds as short text; "" for anything that is not a finite, non-negative number. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "";
  if (ms < 99.5) return `${Math.round(ms)} ms`;
  if (ms < 10_000) {
    // One decimal, without a rounding that turns 9.96 s into "10.0 s".
    const tenths = Math.round(ms / 100);
    if (tenths < 100) return `${(tenths / 10).toFixed(1)} s`;
  }
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) {
    const rest = seconds % 60;
    return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
  }
  const hours = Math.floor(minutes / 60);
  const restMinutes = minutes % 60;
  return restMinutes === 0 ? `${hours} h` : `${hours} h ${restMinutes} min`;
}
