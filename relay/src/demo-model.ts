// Everything `pier --demo` needs: the scripted model server, a throwaway pi
// config dir pointing at it, and a scratch copy of the sample project.
import { createDemoAgentDir } from "./demo/agent-dir.ts";
import { copyDemoProject } from "./demo/demo-project.ts";
import { startModelServer } from "./demo/model-server.ts";
import { loadScenario } from "./demo/scenario.ts";
import { tourScenario } from "./demo/tour.ts";

export type DemoModel = {
  projectDir: string;
  /** Environment for pi: its own config dir, no network calls. */
  env: Record<string, string>;
  close(): Promise<void>;
};

export async function startDemoModel(scenarioFile: string | null): Promise<DemoModel> {
  const scenario = scenarioFile ? await loadScenario(scenarioFile) : tourScenario;
  // Undo whatever was set up if a later step fails.
  const undo: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const step of undo.reverse()) await step();
  };
  try {
    const server = await startModelServer({ scenario });
    undo.push(() => server.close());
    // pi runs in a scratch copy of Pier's own sample project, so its project
    // resources (the prompt template in .pi/prompts) can be trusted outright.
    const agentDir = await createDemoAgentDir({ modelServerUrl: server.url, settings: { defaultProjectTrust: "always", ...scenario.piSettings } });
    undo.push(() => agentDir.cleanup());
    const project = await copyDemoProject();
    undo.push(() => project.cleanup());
    return { projectDir: project.dir, env: { PI_CODING_AGENT_DIR: agentDir.dir, PI_OFFLINE: "1" }, close };
  } catch (error) {
    await close();
    throw error;
  }
}
