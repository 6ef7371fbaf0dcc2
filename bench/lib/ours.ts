/**
 * acp-router as the figures load it: the TypeScript source through tsx
 * (default), or, when `BENCH_OURS_BUNDLE` (and `BENCH_OURS_STDIO_BUNDLE`)
 * name JS files, esbuild bundles of `src/index.ts` (and of the stdio entry,
 * `src/transport/stdio.ts`), which `bench/profile.ts` uses so profiles show
 * real function names and lines. The variables pass on to the agent and
 * client processes the stdio figures start.
 */
import { pathToFileURL } from "node:url";
import type * as Lib from "../../src/index.ts";
import type * as Stdio from "../../src/transport/stdio.ts";

const bundled = process.env.BENCH_OURS_BUNDLE;
const bundledStdio = process.env.BENCH_OURS_STDIO_BUNDLE;

export const ours: typeof Lib = bundled ? ((await import(pathToFileURL(bundled).href)) as typeof Lib) : await import("../../src/index.ts");

/** The stdio entry (`acp-router/stdio`): `serveProtocolStdio`, `spawnAgent`. */
export const oursStdio: typeof Stdio = bundledStdio ? ((await import(pathToFileURL(bundledStdio).href)) as typeof Stdio) : await import("../../src/transport/stdio.ts");
