// One sentence for a failed workspace request, as the workbench shows it.

import { FilesApiError } from "./files-api.ts";

export function describeError(error: unknown): string {
  if (error instanceof FilesApiError) {
    // The generic 404 of a relay without the workspace service (its own message names the URL).
    if (error.status === 404 && error.code === "not_found" && error.message.includes("answered 404")) {
      return "The relay has no workspace file service.";
    }
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** A 404 of the file service: the file (or folder) is not there. */
export function isNotFound(error: unknown): boolean {
  return error instanceof FilesApiError && error.status === 404;
}
