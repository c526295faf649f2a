// Everything a card shows once expanded, in one lazily loaded chunk: the
// bodies pull in ansi_up, jsdiff and the code/diff views, none of which the
// collapsed transcript needs. ToolCallCard and BashExecutionItem load it on
// first expand through `loadToolBodies`.

export { default as BashToolBody } from "./BashToolBody.svelte";
export { default as EditToolBody } from "./EditToolBody.svelte";
export { default as GenericToolBody } from "./GenericToolBody.svelte";
export { default as ReadToolBody } from "./ReadToolBody.svelte";
export { default as TerminalOutput } from "./TerminalOutput.svelte";
export { default as WriteToolBody } from "./WriteToolBody.svelte";
