// A record is one JSON line of pi's stdout: a response, an event or an
// extension UI request. These guards only look at the discriminating
// `type` field; they do not validate the rest of the record.

import type { PiEvent } from "./events.ts";
import type { ExtensionUiRequest } from "./extension-ui.ts";
import type { RpcResponse } from "./responses.ts";

/** Anything pi 0.87.1 writes to stdout in RPC mode. */
export type PiStdoutRecord = RpcResponse | PiEvent | ExtensionUiRequest;

/** A non-null, non-array object (what every decoded record must be). */
export function isRecordObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A response record (`type: "response"`). */
export function isResponse(record: unknown): record is RpcResponse {
  return isRecordObject(record) && record["type"] === "response";
}

/** An extension UI request record (`type: "extension_ui_request"`). */
export function isExtensionUiRequest(record: unknown): record is ExtensionUiRequest {
  return isRecordObject(record) && record["type"] === "extension_ui_request";
}

/**
 * An event record: an object with a string `type` that is neither a response
 * nor an extension UI request. Event types newer than 0.87.1 also pass;
 * switch on `type` with a default branch.
 */
export function isEvent(record: unknown): record is PiEvent {
  return isRecordObject(record) && typeof record["type"] === "string" && record["type"] !== "response" && record["type"] !== "extension_ui_request";
}
