// Loads the tool-body chunk once; components that mount after it arrived get
// it synchronously (no flash of an empty body).

export type ToolBodies = typeof import("./tool-bodies.ts");

let loaded: ToolBodies | null = null;
let pending: Promise<ToolBodies> | null = null;

export function toolBodiesIfLoaded(): ToolBodies | null {
  return loaded;
}

export function loadToolBodies(): Promise<ToolBodies> {
  if (!pending) {
    pending = import("./tool-bodies.ts").then((module) => (loaded = module));
    // A failed chunk load (relay restarted with a new build…) may work next time.
    pending.catch(() => (pending = null));
  }
  return pending;
}
