// The relay's workspace file service types live in @pier/protocol
// (shared-protocol/src/workspace-api.ts); the workbench names them here.

export type {
  FileContentResponse as ContentResponse,
  FileTreeResponse as TreeResponse,
  GitChange,
  GitHeadResponse,
  GitStatusResponse,
  SaveConflictResponse,
  SaveFileResponse as SaveResponse,
  WorkspaceEntry,
  WorkspaceEntryType,
} from "@pier/protocol";

export type ReadOnlyReason = "binary" | "too_large";
