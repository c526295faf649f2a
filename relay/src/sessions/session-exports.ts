// HTML exports of a session. pi's `export_html` writes a file wherever its
// `outputPath` says, so a browser could otherwise make pi write anywhere the
// user can: the relay lets it write only into a private folder of its own
// (mode 0700, removed when pier stops), serves each export once as a
// download, and removes it right after (or after EXPORT_TTL_MS if nobody
// fetches it). An export is served only to the browser that asked for it
// (the grant its cookie carries): its name is no secret (every page sees the
// command go by), so without that a viewer's GET could take a driver's
// export before the driver did.
import { constants } from "node:fs";
import { pipeline } from "node:stream";
import { mkdtemp, open, readdir, rm, stat, unlink, type FileHandle } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { SECURITY_HEADERS } from "../static-files.ts";
import { sendApiError } from "../workspace/json-http.ts";
import { attachmentDisposition } from "./download-name.ts";

/** An export name: what a browser picks for `<exportDir>/<name>.html`. */
const EXPORT_NAME = /^[A-Za-z0-9_-]{1,64}\.html$/;
const EXPORT_TTL_MS = 10 * 60_000;
/** Exports asked for and not yet fetched; more are refused until some are fetched or expire. */
const MAX_PENDING_EXPORTS = 100;

const NO_SUCH_EXPORT = "No such export: it was downloaded already or has expired. Export again.";

export class SessionExports {
  readonly dir: string;
  /** Export name → the grant of the browser that asked for it, and when. */
  readonly #owners = new Map<string, { grantId: string; at: number }>();
  #sweeper: NodeJS.Timeout;

  private constructor(dir: string) {
    this.dir = dir;
    this.#sweeper = setInterval(() => void this.#sweep(), EXPORT_TTL_MS);
    this.#sweeper.unref();
  }

  static async create(): Promise<SessionExports> {
    // mkdtemp creates the folder with mode 0700: only this user can read exports.
    return new SessionExports(await mkdtemp(join(tmpdir(), "pier-exports-")));
  }

  /**
   * Why an `export_html` outputPath is refused, or null when pi may write
   * there; then the export is the asking browser's (`grantId`) to download.
   */
  refuseOutputPath(outputPath: string, grantId: string): string | null {
    const name = basename(outputPath);
    if (dirname(outputPath) !== this.dir || !EXPORT_NAME.test(name)) {
      return `export_html may only write into Pier's export folder (${this.dir}/<name>.html, name of letters, digits, - and _); use Export in the Sessions panel, or leave outputPath out to let pi pick its default`;
    }
    this.#forgetExpired(Date.now());
    const owner = this.#owners.get(name);
    if (owner !== undefined && owner.grantId !== grantId) return "export_html refused: another browser's export has that name; pick another";
    if (owner === undefined && this.#owners.size >= MAX_PENDING_EXPORTS) return `export_html refused: ${MAX_PENDING_EXPORTS} exports are waiting to be downloaded; download or let them expire first`;
    this.#owners.set(name, { grantId, at: Date.now() });
    return null;
  }

  /**
   * GET /api/sessions/export/<name>.html: the export as a download, then gone.
   * Once means once: the file is opened and then unlinked before anything is
   * sent, and only the request whose unlink removed it serves it (from the
   * open descriptor). A second request at the same moment gets a 404, not a
   * second copy or a connection cut mid-way by the first one's cleanup.
   */
  async serve(response: ServerResponse, name: string, downloadName: string | null, grantId: string): Promise<void> {
    if (!EXPORT_NAME.test(name)) return sendApiError(response, 400, "bad_path", "That is not the name of an export.");
    // Another browser's export looks exactly like no export: its name says nothing, its existence neither.
    if (this.#owners.get(name)?.grantId !== grantId) return sendApiError(response, 404, "not_found", NO_SUCH_EXPORT);
    const path = join(this.dir, name);
    const file = await this.#claim(path);
    if (file === null) return sendApiError(response, 404, "not_found", NO_SUCH_EXPORT);
    this.#owners.delete(name);
    const { handle, size } = file;
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      // The export is pi's own self-contained page: offer it as a file, never render it here.
      "Content-Type": "text/html; charset=utf-8",
      "Content-Disposition": attachmentDisposition(downloadName ?? "pi-session", ".html"),
      "Content-Length": String(size),
      "Cache-Control": "no-store",
    });
    if (size === 0) {
      response.end();
      return void handle.close().catch(() => {});
    }
    // Exactly the bytes announced, even if something still wrote to the file.
    // pipeline: the descriptor is closed when the browser goes away mid-download (see static-files.ts).
    pipeline(handle.createReadStream({ start: 0, end: size - 1 }), response, () => {});
  }

  /** Opens the export and removes its name; null when it is not there (or another request took it first). */
  async #claim(path: string): Promise<{ handle: FileHandle; size: number } | null> {
    let handle: FileHandle;
    try {
      handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch {
      return null;
    }
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new Error("not a file");
      await unlink(path);
      return { handle, size: info.size };
    } catch {
      await handle.close().catch(() => {});
      return null;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    await rm(this.dir, { recursive: true, force: true });
  }

  #forgetExpired(now: number): void {
    for (const [name, owner] of this.#owners) if (now - owner.at > EXPORT_TTL_MS) this.#owners.delete(name);
  }

  async #sweep(): Promise<void> {
    const now = Date.now();
    this.#forgetExpired(now);
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      const path = join(this.dir, name);
      const info = await stat(path).catch(() => null);
      if (info && now - info.mtimeMs > EXPORT_TTL_MS) await rm(path, { force: true });
    }
  }
}
