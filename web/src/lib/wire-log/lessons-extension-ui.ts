// Lessons for extension_ui_request, one per method, and for the client's
// answer. From rpc-extension-ui.md and what Pier learned about dialogs that
// pi resolves silently (extension-ui-state.ts).

import type { ExtensionUiMethod } from "@pier/protocol";
import type { LessonText } from "./lessons.ts";

const PAGE = "rpc-extension-ui.md";

const DIALOG_NOTE =
  "pi waits for an extension_ui_response with the same id. If timeout (ms) is set and passes, pi silently resolves the default and ignores a late answer; it never says that a dialog went away. " +
  "A /command prompt is answered only after its handler returns, so its dialogs must be answered first.";

export const EXTENSION_UI_LESSONS: Record<ExtensionUiMethod, LessonText> = {
  select: {
    title: "extension_ui_request select: pick one option",
    summary: "An extension asks the user to choose one of several options.",
    body: `Show title and the options; answer {value: <the option>} or {cancelled: true}. ${DIALOG_NOTE}`,
    docs: `${PAGE}#select`,
  },
  confirm: {
    title: "extension_ui_request confirm: yes or no",
    summary: "An extension asks the user a yes/no question.",
    body: `Show title and message; answer {confirmed: true|false} or {cancelled: true} (which the extension reads as false). ${DIALOG_NOTE}`,
    docs: `${PAGE}#confirm`,
  },
  input: {
    title: "extension_ui_request input: one line of text",
    summary: "An extension asks the user to type a line of text.",
    body: `Show title and the optional placeholder; answer {value: <text>} or {cancelled: true}. ${DIALOG_NOTE}`,
    docs: `${PAGE}#input`,
  },
  editor: {
    title: "extension_ui_request editor: edit a longer text",
    summary: "An extension opens a multi-line editor, optionally prefilled.",
    body:
      "Answer {value: <the edited text>} or {cancelled: true}. An editor has no timeout: pi waits for ever, so never lose one of these. " +
      "A /command prompt is answered only after its handler returns, so its dialogs must be answered first.",
    docs: `${PAGE}#editor`,
  },
  notify: {
    title: "extension_ui_request notify: a notification",
    summary: "An extension shows a short message; no answer expected.",
    body: "notifyType is info (the default when absent), warning or error. It is one-shot: a notification replayed to a browser that connected later already happened.",
    docs: `${PAGE}#notify`,
  },
  setStatus: {
    title: "extension_ui_request setStatus: a status entry",
    summary: "An extension sets, or clears, a status-bar entry under statusKey.",
    body: "The latest text per statusKey wins; statusText absent clears the entry. No answer expected.",
    docs: `${PAGE}#setstatus`,
  },
  setWidget: {
    title: "extension_ui_request setWidget: a text widget",
    summary: "An extension sets, or clears, a block of text lines near the prompt editor.",
    body: "widgetLines absent clears the widget with that widgetKey; widgetPlacement is aboveEditor (default) or belowEditor. Only string lines work in RPC mode. No answer expected.",
    docs: `${PAGE}#setwidget`,
  },
  setTitle: {
    title: "extension_ui_request setTitle: the window title",
    summary: "An extension sets the window or tab title.",
    body: "The latest title wins. No answer expected.",
    docs: `${PAGE}#settitle`,
  },
  set_editor_text: {
    title: "extension_ui_request set_editor_text: fill the prompt box",
    summary: "An extension replaces the text in the prompt editor.",
    body: "Note the snake_case method name, unlike the other methods. It is one-shot: do not apply one replayed from before this page connected, or a reload would overwrite what the user typed since. No answer expected.",
    docs: `${PAGE}#set_editor_text`,
  },
};

export const OTHER_EXTENSION_UI_LESSONS = {
  "ui:unknown": {
    title: "An extension UI request Pier does not know",
    summary: "An extension_ui_request with a method Pier does not know.",
    body: "A newer pi may add methods. If it carries an id and looks like a question, the extension may be waiting for an answer Pier cannot give; its timeout, if any, will resolve it.",
    docs: PAGE,
  },
  "command:extension_ui_response": {
    title: "extension_ui_response: answering a dialog",
    summary: "A client answers an extension's dialog (select, confirm, input or editor).",
    body:
      "id is the request's id. The answer is {value} (select, input, editor), {confirmed} (confirm) or {cancelled: true} (any dialog). " +
      "pi sends no response record for it, and drops an answer to an id it no longer waits for (timed out, or answered by another browser first).",
    docs: `${PAGE}#responses-to-pi`,
  },
} satisfies Record<string, LessonText>;
