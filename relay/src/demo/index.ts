// Pier's offline demo and scripted model: the pieces the relay and the tests use.
export { startModelServer, DEFAULT_MODEL_ID } from "./model-server.ts";
export type { ModelServer, ModelServerOptions, RecordedRequest } from "./model-server.ts";
export { loadScenario, validateScenario, ScenarioError } from "./scenario.ts";
export type { Scenario, Rule, Match, Turn, Step, FinishReason } from "./scenario.ts";
export { createDemoAgentDir, demoModelsConfig, DEMO_PROVIDER, DEMO_MODEL_NAME, DEMO_FAST_MODEL_ID, DEMO_FAST_MODEL_NAME } from "./agent-dir.ts";
export type { DemoAgentDir, DemoAgentDirOptions } from "./agent-dir.ts";
export { copyDemoProject, DEMO_PROJECT_SOURCE } from "./demo-project.ts";
export type { DemoProjectCopy } from "./demo-project.ts";
export { tourScenario, TOUR_EDIT } from "./tour.ts";
