/**
 * The test suite in three tiers (vitest projects), chosen by folder so a new
 * test file lands in its folder's tier by itself:
 *
 * - `unit`: in-process tests (the connection layer, conformance, codegen,
 *   reliability, versions, …): the fast answer while developing,
 *   `npm run test:unit`.
 * - `integration`: tests that start processes (stdio agents, the official
 *   SDK as a peer, the tools, the examples) or servers (remote).
 * - `proxies hosted`: the proxy-chain tests again, their proxies hosted in
 *   the conductor's process instead of processes of their own.
 * - `package`: the published package: pack, install into fresh projects
 *   with npm and pnpm, compile with `tsc`, plus the benchmarks' smoke run.
 *   Its global setup packs and builds once per run (test/package/setup.ts).
 *
 * `npm test` runs all three (CI and the README); `npx vitest run <folder>`
 * runs one folder in whichever tier holds it. A file that starts processes
 * inside a unit folder is listed in `startsProcesses` below; a folder of
 * tests in no tier stops the run (so none is silently left out).
 */
import { readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import { acpRouterEntries } from "./compat/sdk/dev/acp-router-entries.mjs";
import LongestFirst from "./test/support/longest-first.ts";

/** Folders whose tests run in-process. */
const unitFolders = ["api", "codegen", "conformance", "connection", "extensions", "reliability", "transport", "validation", "versions"];

/** Folders whose tests start processes or servers. */
const integrationFolders = ["compat", "examples", "interop", "mcp", "peers", "proxy", "readme", "remote", "supervision", "tools", "tracing"];

/** Folders that test the package as published. */
const packageFolders = ["package", "bench"];

/** Files inside unit folders that start processes (tsx children, `tsc`, `codegen` runs): integration tier. */
const startsProcesses = [
  "test/codegen/check-mode.test.ts",
  "test/codegen/extension-table.test.ts",
  "test/codegen/table-coverage.test.ts",
  "test/codegen/tables.test.ts",
  "test/codegen/type-tests.test.ts",
  "test/connection/backpressure.test.ts",
  "test/connection/close.test.ts",
  "test/connection/stdio.test.ts",
  "test/reliability/bounds.test.ts",
  "test/reliability/faults.test.ts",
  "test/reliability/soak.test.ts",
  "test/transport/junk-prefix.test.ts",
  "test/transport/process.test.ts",
  "test/transport/spawn-agent-lifecycle.test.ts",
];

/**
 * The proxy-chain tests a second time with their proxies hosted in the conductor's process
 * (`ACP_PROXY_HOSTING=in-process`: test/proxy/fixtures.ts gives them as `--proxy-module`).
 */
const hostedProxyRuns = ["test/proxy/chain.test.ts", "test/proxy/pass-chain.test.ts"];

/** Files inside unit folders that check the API reference's shape with a whole TypeScript program (TypeDoc-adjacent): package tier. */
const checksPublishedShape = ["test/api/docs-index.test.ts", "test/api/exports-changelog.test.ts", "test/api/one-name.test.ts"];

const files = (folders: readonly string[]) => folders.map((f) => `test/${f}/**/*.test.ts`);

// A folder of tests in no tier would silently never run: refuse to start instead.
const tiered = new Set([...unitFolders, ...integrationFolders, ...packageFolders]);
const testRoot = fileURLToPath(new URL("./test/", import.meta.url));
const hasTests = (dir: string): boolean => readdirSync(dir, { withFileTypes: true }).some((e) => (e.isDirectory() ? hasTests(join(dir, e.name)) : e.name.endsWith(".test.ts")));
for (const entry of readdirSync(testRoot, { withFileTypes: true })) {
  const untiered = entry.isDirectory() ? !tiered.has(entry.name) && hasTests(join(testRoot, entry.name)) : entry.name.endsWith(".test.ts");
  if (untiered) throw new Error(`test/${entry.name} holds tests but is in no tier: put it in a folder listed in vitest.config.ts, or list the folder`);
}

/**
 * Test files run in twice as many forked workers as the machine has cores (4 on CI's 2), at least 2.
 * The suite waits on child processes, sockets and timers far more than it computes: with vitest's
 * default (cores − 1, so one worker here) a whole run kept 2 cores at a load of about 1 for 20
 * minutes. Tests wait for events, never for wall-clock amounts, so more workers on a loaded machine
 * make the run shorter, not flaky; `--maxWorkers=N` on the command line overrides this.
 */
const workers = Math.max(2, availableParallelism() * 2);

/**
 * Settings every tier shares: forks, since tests spawn and signal; and deadlines that only turn a
 * hang into a failure (no test asserts a time): 120 s. With twice as many workers as cores, a
 * CPU-bound test (codegen of a table's delta, the inbound fuzzer, the soak) takes three to four
 * times as long as alone when the machine is loaded: one that takes 10 s alone took over 30 s
 * with four workers beside other work.
 */
const shared = { testTimeout: 120_000, hookTimeout: 120_000, pool: "forks" } as const;

/**
 * acp-router's public names (`acp-router`, `acp-router/runtime`, …) load this checkout's sources: the SDK
 * drop-in's sources (compat/sdk/src), which test/compat imports directly, use acp-router by those names only.
 */
const resolve = {
  alias: Object.entries(acpRouterEntries as Record<string, string>).map(([name, file]) => ({ find: new RegExp(`^${name.replaceAll("/", "\\/")}$`), replacement: fileURLToPath(new URL(`./${file}`, import.meta.url)) })),
};

export default defineConfig({
  test: {
    maxWorkers: workers,
    // The longest files first, also on a fresh clone (test/support/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    reporters: ["default", "./test/support/skip-reporter.ts"],
    projects: [
      { resolve, test: { ...shared, name: "unit", include: files(unitFolders), exclude: [...configDefaults.exclude, ...startsProcesses, ...checksPublishedShape] } },
      // The integration tier's tools run from a bundle of the command line made once per run (test/support/cli-bundle.ts).
      { resolve, test: { ...shared, name: "integration", include: [...files(integrationFolders), ...startsProcesses], globalSetup: ["./test/support/cli-bundle.ts"] } },
      { resolve, test: { ...shared, name: "proxies hosted", include: hostedProxyRuns, env: { ACP_PROXY_HOSTING: "in-process" } } },
      { test: { ...shared, name: "package", include: [...files(packageFolders), ...checksPublishedShape], globalSetup: ["./test/package/setup.ts"] } },
    ],
  },
});
