/**
 * SDK 1.9.0's own test suite (its compiled `dist/**\/*.test.js`) against three targets, one vitest
 * project each: `baseline` (1.9.0's own modules), `real` (SDK 2.4.0 through its public entries) and
 * `drop-in` (the compatibility package packed from this checkout, installed where
 * `SDK_SUITE_DROP_IN` says). `npm run test:sdk-suite` (run.ts) packs, installs and runs it.
 */
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { redirectPlugin, suiteDist } from "./redirect.ts";

const shims = fileURLToPath(new URL("./shims.ts", import.meta.url));
const real = fileURLToPath(new URL("../../node_modules/acp-sdk-2.4.0/", import.meta.url));
const dropIn = process.env["SDK_SUITE_DROP_IN"];

/**
 * One target: the suite's own files, inlined so their imports go through the redirect (`plugins`);
 * the built-ins Node 20 lacks shimmed (shims.ts); 10 s per test and hook (the slowest baseline test
 * takes about 4 s; vitest's default of 5 s left no room on a loaded machine).
 */
function target(name: string, plugins: Plugin[]): TestProjectInlineConfiguration {
  return {
    plugins,
    test: {
      name,
      root: suiteDist,
      include: ["**/*.test.js"],
      exclude: [],
      setupFiles: [shims],
      server: { deps: { inline: [/acp-sdk-1\.9\.0\/dist\/(test-support\/|.*\.test\.js$)/] } },
      testTimeout: 10_000,
      hookTimeout: 10_000,
      pool: "forks",
    },
  };
}

/**
 * Four test files at a time: most of the suite's time is spent waiting (timers, sockets, the
 * real SDK's timed-out tests), not computing, and vitest's default on a 2-core machine is one.
 */
export default defineConfig({
  test: {
    maxWorkers: 4,
    projects: [target("baseline", []), target("real", [redirectPlugin(real)]), ...(dropIn === undefined ? [] : [target("drop-in", [redirectPlugin(dropIn)])])],
  },
});
