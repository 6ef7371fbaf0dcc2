/**
 * Runs test files with `@agentclientprotocol/sdk` replaced by the compatibility package's
 * sources, in the test process (aliases) and in every process it starts (`NODE_OPTIONS`
 * loads the resolve hook). `npm run test:sdk-compat` runs the suite's SDK interop tests so.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { acpRouterEntries } from "./dev/acp-router-entries.mjs";
import { entries } from "./dev/entries.mjs";

const source = (file: string) => fileURLToPath(new URL(`./src/${file}`, import.meta.url));
const register = fileURLToPath(new URL("./dev/register.mjs", import.meta.url));
// By path, so processes started in other folders (a temporary project) find it too.
const tsx = fileURLToPath(import.meta.resolve("tsx"));
const repo = (file: string) => fileURLToPath(new URL(`../../${file}`, import.meta.url));
// Each name exactly (an anchored pattern), so `@agentclientprotocol/sdk/unstable` is not taken for the root entry. The
// compatibility sources import acp-router by its public names: those load from this checkout's sources too.
const alias = [
  ...Object.entries(entries as Record<string, string>).map(([find, file]) => ({ find: new RegExp(`^${find.replaceAll("/", "\\/")}$`), replacement: source(file) })),
  ...Object.entries(acpRouterEntries as Record<string, string>).map(([find, file]) => ({ find: new RegExp(`^${find.replaceAll("/", "\\/")}$`), replacement: repo(file) })),
];

/**
 * The suite's tests with an SDK peer that pass on the package; the few assertions that pin the
 * real SDK where the spec says otherwise read `onSdkDropIn` (test/support/sdk-drop-in.ts).
 * test/remote/rfd-sdk.test.ts measures the SDK server's deviations from the remote-transport RFD:
 * the package's server behaves as the SDK's, deviations included, so it passes here too.
 */
const include = [
  "test/compat/**/*.test.ts",
  "test/examples/agent-with-sdk-client.test.ts",
  "test/interop/differential-v2.test.ts",
  "test/interop/differential.test.ts",
  "test/interop/handler-extensions.test.ts",
  "test/interop/router-agent-sdk-client.test.ts",
  "test/interop/sdk-agent-router-client.test.ts",
  "test/interop/unstable-stdio.test.ts",
  "test/interop/v2-unstable-stdio.test.ts",
  "test/mcp/sdk-agent.test.ts",
  "test/mcp/sdk-client.test.ts",
  "test/peers/sdk-peers.test.ts",
  "test/remote/handler-extensions.test.ts",
  "test/remote/interop.test.ts",
  "test/remote/reconnect.test.ts",
  "test/remote/rfd-sdk.test.ts",
  "test/versions/route-agent.test.ts",
];

export default defineConfig({
  root: fileURLToPath(new URL("../../", import.meta.url)),
  resolve: { alias },
  test: {
    include,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    env: { ACP_SDK_DROP_IN: "1", NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${tsx} --import ${register}`.trim() },
  },
});
