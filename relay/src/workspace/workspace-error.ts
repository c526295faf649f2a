// Errors of the workspace service as values with an HTTP status and a code the
// browser can act on; operating-system errors are translated once, here.
import type { WorkspaceErrorCode } from "@pier/protocol";

export class WorkspaceError extends Error {
  readonly status: number;
  readonly code: WorkspaceErrorCode;
  /** Extra fields merged into the JSON body (e.g. a conflict's `current`). */
  readonly extra: Record<string, unknown> | undefined;

  constructor(status: number, code: WorkspaceErrorCode, message: string, extra?: Record<string, unknown>) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

export function errnoCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

/** Translates a file-system error about `path` (workspace-relative, for the message) into a WorkspaceError. */
export function fromFsError(error: unknown, path: string): WorkspaceError {
  if (error instanceof WorkspaceError) return error;
  const shown = JSON.stringify(path);
  switch (errnoCode(error)) {
    case "ENOENT":
    case "ENOTDIR":
      return new WorkspaceError(404, "not_found", `${shown} does not exist in the workspace.`);
    case "EEXIST":
      return new WorkspaceError(409, "exists", `${shown} already exists.`);
    case "ENOTEMPTY":
      return new WorkspaceError(409, "not_empty", `The folder ${shown} is not empty; delete it with "recursive": true.`);
    case "ELOOP":
      return new WorkspaceError(403, "symlink_refused", `${shown} is a symbolic link, which this operation does not follow.`);
    case "EISDIR":
      return new WorkspaceError(415, "not_regular_file", `${shown} is a folder, not a file.`);
    case "EACCES":
    case "EPERM":
      return new WorkspaceError(403, "permission_denied", `The operating system refused access to ${shown}.`);
    case "EROFS":
      return new WorkspaceError(403, "permission_denied", `${shown} is on a read-only file system.`);
    case "ENAMETOOLONG":
      return new WorkspaceError(400, "bad_path", `The path ${shown} is too long.`);
    case "EINVAL":
      return new WorkspaceError(400, "bad_path", `The operation is not possible for ${shown} (for example, moving a folder into itself).`);
    case "ENOSPC":
    case "EDQUOT":
      return new WorkspaceError(507, "no_space", "The disk is full (or the quota is used up); nothing was written.");
    default:
      return new WorkspaceError(500, "internal", `The workspace operation on ${shown} failed unexpectedly (${describe(error)}).`);
  }
}

function describe(error: unknown): string {
  return errnoCode(error) ?? (error instanceof Error ? error.message : String(error));
}
