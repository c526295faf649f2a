// The extension UI sub-protocol of pi 0.87.1 RPC mode. Extensions ask the
// client for dialogs (select, confirm, input, editor: answer with an
// extension_ui_response carrying the request's id) or fire-and-forget UI
// updates (notify, setStatus, setWidget, setTitle, set_editor_text: no answer).
//
// Wire quirks: pi never tells the client that a dialog went away — when its
// `timeout` (ms) expires or the run is aborted, pi silently resolves the
// default (undefined / false) and ignores a late response. `editor` has no
// timeout. Optional fields that are undefined are absent from the JSON
// (setStatus without statusText, setWidget without widgetLines = clear).

/** Fields shared by every extension UI request. `id` is a fresh UUID per request. */
interface ExtensionUiRequestBase {
  type: "extension_ui_request";
  id: string;
}

/** Choose one of `options`. Answer `{value}` (the option) or `{cancelled: true}`. */
export interface ExtensionUiSelectRequest extends ExtensionUiRequestBase {
  method: "select";
  title: string;
  options: string[];
  timeout?: number;
}

/** Yes/no question. Answer `{confirmed}` or `{cancelled: true}`. */
export interface ExtensionUiConfirmRequest extends ExtensionUiRequestBase {
  method: "confirm";
  title: string;
  message: string;
  timeout?: number;
}

/** One line of text. Answer `{value}` or `{cancelled: true}`. */
export interface ExtensionUiInputRequest extends ExtensionUiRequestBase {
  method: "input";
  title: string;
  placeholder?: string;
  timeout?: number;
}

/** Multi-line text, optionally prefilled. Answer `{value}` or `{cancelled: true}`. No timeout. */
export interface ExtensionUiEditorRequest extends ExtensionUiRequestBase {
  method: "editor";
  title: string;
  prefill?: string;
}

/** A toast. `notifyType` defaults to "info" when absent. */
export interface ExtensionUiNotifyRequest extends ExtensionUiRequestBase {
  method: "notify";
  message: string;
  notifyType?: "info" | "warning" | "error";
}

/** Set (or, with statusText absent, clear) a status-bar entry keyed by statusKey. */
export interface ExtensionUiSetStatusRequest extends ExtensionUiRequestBase {
  method: "setStatus";
  statusKey: string;
  statusText?: string;
}

/** Set (or, with widgetLines absent, clear) a text widget; placement defaults to "aboveEditor". */
export interface ExtensionUiSetWidgetRequest extends ExtensionUiRequestBase {
  method: "setWidget";
  widgetKey: string;
  widgetLines?: string[];
  widgetPlacement?: "aboveEditor" | "belowEditor";
}

/** Set the window/tab title. */
export interface ExtensionUiSetTitleRequest extends ExtensionUiRequestBase {
  method: "setTitle";
  title: string;
}

/** Replace the prompt editor's text (note the snake_case method name). */
export interface ExtensionUiSetEditorTextRequest extends ExtensionUiRequestBase {
  method: "set_editor_text";
  text: string;
}

/** Any extension UI request. Discriminate on `method`. */
export type ExtensionUiRequest =
  | ExtensionUiSelectRequest
  | ExtensionUiConfirmRequest
  | ExtensionUiInputRequest
  | ExtensionUiEditorRequest
  | ExtensionUiNotifyRequest
  | ExtensionUiSetStatusRequest
  | ExtensionUiSetWidgetRequest
  | ExtensionUiSetTitleRequest
  | ExtensionUiSetEditorTextRequest;

/** The `method` of any extension UI request. */
export type ExtensionUiMethod = ExtensionUiRequest["method"];

/** Methods that wait for an extension_ui_response. */
export type ExtensionUiDialogMethod = "select" | "confirm" | "input" | "editor";

/** A request that waits for an answer. */
export type ExtensionUiDialogRequest = Extract<ExtensionUiRequest, { method: ExtensionUiDialogMethod }>;

/** Runtime list of the dialog methods. */
export const EXTENSION_UI_DIALOG_METHODS = ["select", "confirm", "input", "editor"] as const satisfies readonly ExtensionUiDialogMethod[];

/** Whether a request waits for an extension_ui_response. */
export function isExtensionUiDialogRequest(request: ExtensionUiRequest): request is ExtensionUiDialogRequest {
  return (EXTENSION_UI_DIALOG_METHODS as readonly string[]).includes(request.method);
}

/** Answer to select / input / editor. */
export interface ExtensionUiValueResponse {
  type: "extension_ui_response";
  id: string;
  value: string;
}

/** Answer to confirm. */
export interface ExtensionUiConfirmedResponse {
  type: "extension_ui_response";
  id: string;
  confirmed: boolean;
}

/** Dismissal of any dialog. */
export interface ExtensionUiCancelledResponse {
  type: "extension_ui_response";
  id: string;
  cancelled: true;
}

/** What the client writes to stdin to answer a dialog. pi sends no response record for it. */
export type ExtensionUiResponse = ExtensionUiValueResponse | ExtensionUiConfirmedResponse | ExtensionUiCancelledResponse;
