// The density strip of a message bar: how the deltas were spread over the
// message's time, from the timeline's thinned sample of delta times (every
// stride-th one, at most a few hundred), as counts per bin.

/**
 * Count the sample times falling in each of `bins` equal slices of
 * [start, end] (a zero-length range puts everything in the first bin).
 * Times outside the range are ignored. O(samples).
 */
export function densityBins(times: readonly number[], start: number, end: number, bins: number, out?: Uint16Array): Uint16Array {
  const n = Math.max(1, Math.floor(bins));
  const counts = out !== undefined && out.length >= n ? out.subarray(0, n) : new Uint16Array(n);
  counts.fill(0);
  const length = end - start;
  for (const t of times) {
    if (t < start || t > end) continue;
    const bin = length > 0 ? Math.min(n - 1, Math.floor(((t - start) / length) * n)) : 0;
    if (counts[bin]! < 65535) counts[bin]!++;
  }
  return counts;
}

export function maxBin(counts: Uint16Array): number {
  let max = 0;
  for (const c of counts) if (c > max) max = c;
  return max;
}
