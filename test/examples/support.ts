/** Helpers for the example tests: paths, and (from test/support/async.ts) waiting with deadlines. */
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");
export const exampleAgentPath = fileURLToPath(new URL("../../examples/agent.ts", import.meta.url));
export const exampleClientPath = fileURLToPath(new URL("../../examples/client.ts", import.meta.url));
export const sdkAgentPath = fileURLToPath(new URL("../peers/sdk-agent.ts", import.meta.url));

export { until, within } from "../support/async.ts";
