// One shared dynamic import of the xterm chunk.

export type XtermModule = typeof import("./xterm-loader.ts");

let loading: Promise<XtermModule> | null = null;

export function loadXterm(): Promise<XtermModule> {
  loading ??= import("./xterm-loader.ts").catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}
