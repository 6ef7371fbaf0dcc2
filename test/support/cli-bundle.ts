/**
 * The `acp-router` command line bundled once per test run, for the tests that start the tools many
 * times (`check` ~400 times in a run, each starting its agent several times, and `mock-agent`).
 *
 * Started through tsx, a `check` run on a scripted stub cost about 2.2 CPU-seconds, most of it tsx
 * compiling and resolving the same modules in every process; bundled by esbuild it costs about 0.5
 * (and `mock-agent` 0.1 instead of 0.5). On CI's two cores the suite is bound by CPU, so this is the
 * difference between ~550 s and well under. The bundle is the same sources, unchanged: esbuild only
 * joins them, with code splitting so each subcommand loads its own chunk (as `bin/acp-router.ts`
 * imports them lazily), packages left external, `tools/inspect/analysis-worker.ts` as a second entry
 * beside the chunks, where the analysis thread (which check's monitor uses) looks for its compiled
 * worker, and check-client's `bridge.mjs` copied beside them, where `check --client` looks for it.
 *
 * `inspect` is not run from it: `inspect --table` loads a table that imports acp-router's sources, and
 * those must be the very modules inspect runs on (as they are for an installed package), not a copy.
 *
 * What the bundle does not cover is covered elsewhere: `bin/acp-router.ts` itself, as `npx` runs it,
 * by the tests that use `acpRouter(...)` (tsx), and the published `dist/` by the package tier.
 *
 * It is built by the integration project's global setup (vitest.config.ts) at the start of every run,
 * so it is never older than the run. A watch-mode session keeps the bundle of its start: restart it
 * after changing a tool's sources.
 */
import { copyFile, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("../../", import.meta.url));
const outdir = fileURLToPath(new URL("../../.tmp/cli-bundle/", import.meta.url));

/** The bundled command line: `node CLI_BUNDLE <subcommand> <args…>`. */
export const CLI_BUNDLE = `${outdir}acp-router.js`;

/** `node <bundle> <args…>`: the command line that runs `acp-router <args…>` from the bundle. */
export const bundledCli = (...args: string[]): string[] => [process.execPath, CLI_BUNDLE, ...args];

/** Global setup: bundles the command line into `.tmp/cli-bundle/`. */
export default async function setup(): Promise<void> {
  await rm(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: ["bin/acp-router.ts", "tools/inspect/analysis-worker.ts"],
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    packages: "external",
    outdir,
    entryNames: "[name]",
    // Chunks beside the entries: the analysis thread, in a chunk, finds ./analysis-worker.js next to itself.
    chunkNames: "[name]-[hash]",
    logLevel: "warning",
  });
  // check --client's bridge is a plain script the client starts as its agent, found beside check-client's code.
  await copyFile(`${root}tools/check-client/bridge.mjs`, `${outdir}bridge.mjs`);
}
