// The demo runs pi inside a scratch copy of relay/demo-project, so the tour's
// edits never touch the user's own files (nor the pristine original).

import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** relay/demo-project, the pristine sample project. */
export const DEMO_PROJECT_SOURCE = fileURLToPath(new URL("../../demo-project", import.meta.url));

export interface DemoProjectCopy {
  /** The copy's root: use it as pi's cwd. */
  dir: string;
  cleanup(): Promise<void>;
}

export async function copyDemoProject(source: string = DEMO_PROJECT_SOURCE): Promise<DemoProjectCopy> {
  const parent = await mkdtemp(join(tmpdir(), "pier-demo-project-"));
  // A readable folder name: pi shows the cwd, and session dirs are named after it.
  const dir = join(parent, "tiny-greeter");
  const cleanup = () => rm(parent, { recursive: true, force: true });
  try {
    await cp(source, dir, { recursive: true });
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { dir, cleanup };
}
