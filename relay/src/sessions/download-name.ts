// A Content-Disposition header for a download whose name comes from
// untrusted text (a session name): ASCII fallback plus RFC 5987 UTF-8, with
// nothing that could break out of the header or name a path.

const MAX_NAME_LENGTH = 80;

export function attachmentDisposition(name: string, extension: string): string {
  const clean = name
    .normalize("NFC")
    // Control characters, path separators and characters Windows refuses in file names.
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, MAX_NAME_LENGTH)
    .replace(/^\.+/, "");
  const base = clean === "" ? "pi-session" : clean;
  const full = base.toLowerCase().endsWith(extension) ? base : `${base}${extension}`;
  const ascii = full.replace(/[^\x20-\x7e]/g, "_").replace(/[%;]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${rfc5987(full)}`;
}

/** encodeURIComponent leaves ' ( ) * as they are; RFC 5987 wants them encoded too. */
function rfc5987(text: string): string {
  return encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
