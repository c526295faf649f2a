/** "1.4 MB", "820 KB", "312 bytes": a page's size as said before it is written (1 KB = 1,000 bytes, as file managers say). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
