// HTML exports of a session. pi's `export_html` writes a file wherever its
// `outputPath` says, so a browser could otherwise make pi write anywhere the
// user can: the relay lets it write only into a private folder of its own
// (mode 0700, removed when pier stops), serves each export once as a
// download, and removes it right after (or after EXPORT_TTL_MS if nobody
// fetches it).
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

export class SessionExports {
  readonly dir: string;
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

  /** Why an `export_html` outputPath is refused, or null when pi may write there. */
  refuseOutputPath(outputPath: string): string | null {
    if (dirname(outputPath) === this.dir && EXPORT_NAME.test(basename(outputPath))) return null;
    return `export_html may only write into Pier's export folder (${this.dir}/<name>.html, name of letters, digits, - and _); use Export in the Sessions panel, or leave outputPath out to let pi pick its default`;
  }

  /**
   * GET /api/sessions/export/<name>.html: the export as a download, then gone.
   * Once means once: the file is opened and then unlinked before anything is
   * sent, and only the request whose unlink removed it serves it (from the
   * open descriptor). A second request at the same moment gets a 404, not a
   * second copy or a connection cut mid-way by the first one's cleanup.
   */
  async serve(response: ServerResponse, name: string, downloadName: string | null): Promise<void> {
    if (!EXPORT_NAME.test(name)) return sendApiError(response, 400, "bad_path", "That is not the name of an export.");
    const path = join(this.dir, name);
    const file = await this.#claim(path);
    if (file === null) return sendApiError(response, 404, "not_found", "No such export: it was downloaded already or has expired. Export again.");
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

  async #sweep(): Promise<void> {
    const now = Date.now();
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      const path = join(this.dir, name);
      const info = await stat(path).catch(() => null);
      if (info && now - info.mtimeMs > EXPORT_TTL_MS) await rm(path, { force: true });
    }
  }
}
