/**
 * acp-router as the figures load it: the TypeScript source through tsx
 * (default), or, when `BENCH_OURS_BUNDLE` names a JS file, that esbuild
 * bundle of `src/index.ts` (what `bench/profile.ts` uses, so profiles show
 * real function names and lines).
 */
import { pathToFileURL } from "node:url";
import type * as Lib from "../../src/index.ts";

const bundled = process.env.BENCH_OURS_BUNDLE;

export const ours: typeof Lib = bundled ? ((await import(pathToFileURL(bundled).href)) as typeof Lib) : await import("../../src/index.ts");
