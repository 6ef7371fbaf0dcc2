/**
 * One-file ESM bundles made with esbuild (installed as tsx's dependency),
 * written to `bench/.build/` (git-ignored): acp-router's public entry (and
 * its stdio entry, for profiles of the stdio figures), and the SDK's entry
 * with its dependencies, for the import-time and size figures.
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const BUILD_DIR = fileURLToPath(new URL("../.build/", import.meta.url));

export interface Bundle {
  readonly file: string;
  readonly bytes: number;
}

/** Bundles `what` to `bench/.build/<name>.mjs`. */
export async function bundle(name: string, what: "ours" | "ours-stdio" | "sdk", minify: boolean): Promise<Bundle> {
  mkdirSync(BUILD_DIR, { recursive: true });
  const file = `${BUILD_DIR}${name}.mjs`;
  const entry = what === "ours" ? "src/index.ts" : "src/transport/stdio.ts";
  const result = await build({
    ...(what === "sdk" ? { stdin: { contents: 'export * from "@agentclientprotocol/sdk";', resolveDir: ROOT, loader: "js" as const } } : { entryPoints: [`${ROOT}${entry}`] }),
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    minify,
    outfile: file,
    metafile: true,
    logLevel: "silent",
  });
  const out = Object.values(result.metafile.outputs)[0];
  return { file, bytes: out?.bytes ?? 0 };
}
