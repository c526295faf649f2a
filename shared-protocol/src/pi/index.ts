// The pi 0.87.1 RPC protocol: types of everything on pi's stdin and stdout.
export * from "./model.ts";
export * from "./messages.ts";
export * from "./commands.ts";
export * from "./responses.ts";
export * from "./events.ts";
export * from "./extension-ui.ts";
export * from "./records.ts";
