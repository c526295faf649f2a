// Whether a path can be a workspace: a folder that exists and can be read.
// Its real path is what pier keeps (two spellings of one folder are one).
import { constants } from "node:fs";
import { access, realpath, stat } from "node:fs/promises";

export type FolderCheck = { ok: true; path: string } | { ok: false; message: string };

export async function checkFolder(path: string): Promise<FolderCheck> {
  try {
    const real = await realpath(path);
    if (!(await stat(real)).isDirectory()) return { ok: false, message: `${path} is a file, not a folder` };
    await access(real, constants.R_OK | constants.X_OK);
    return { ok: true, path: real };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, message: `${path} does not exist` };
    if (code === "EACCES" || code === "EPERM") return { ok: false, message: `${path} cannot be read (permission denied)` };
    return { ok: false, message: `${path} cannot be opened (${code ?? String(error)})` };
  }
}
