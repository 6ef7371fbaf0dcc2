/** Shared helpers for the codegen tests: the repo root, the pinned schema, and running a CLI. */
import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSchema, type AcpSchema } from "../../codegen/schema.ts";
import { schemaSource } from "../../method-table.ts";

/** Absolute path of the repository root, derived from this file's location. */
export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** The pinned ACP schema, read from the shipped copy exactly as codegen reads it. */
export function realSchema(): { schema: AcpSchema; sha256: string } {
  const { schema, sha256 } = loadSchema(schemaSource);
  return { schema, sha256 };
}

/** What a finished child process left behind. */
export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command args` in the repo root (or `cwd`) and collects its output; never rejects on a non-zero exit. */
export function run(command: string, args: readonly string[], cwd: string = repoRoot): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * A fresh temporary folder inside the repo (`<parent>/.<prefix>XXXXXX`), so
 * relative imports into `src/` work from it. Dot-folders are skipped by the
 * repo's `tsc` include globs, so a concurrent typecheck never sees them.
 */
export function tempDirIn(parent: string, prefix: string): Promise<string> {
  return mkdtemp(join(repoRoot, parent, `.${prefix}`));
}
