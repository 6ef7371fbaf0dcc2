/** Shared helpers for the codegen tests: the repo root, the pinned schema, running a CLI, temporary folders. */
import { mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSchema, type AcpSchema } from "../../codegen/schema.ts";
import { schemaSource } from "../../method-table.ts";
import { runProcess, type Ran } from "../support/process.ts";

export type { Ran };

/** Absolute path of the repository root, derived from this file's location. */
export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** The pinned ACP schema, read from the shipped copy exactly as codegen reads it. */
export function realSchema(): { schema: AcpSchema; sha256: string } {
  const { schema, sha256 } = loadSchema(schemaSource);
  return { schema, sha256 };
}

/** Runs `command args` in the repo root (or `cwd`) and collects its output; never rejects on a non-zero exit (test/support/process.ts). */
export const run = (command: string, args: readonly string[], cwd: string = repoRoot, timeoutMs = 240_000): Promise<Ran> => runProcess(command, args, { cwd, timeoutMs });

/**
 * A fresh temporary folder inside the repo (`<parent>/.<prefix>XXXXXX`), so
 * relative imports into `src/` work from it. Dot-folders are skipped by the
 * repo's `tsc` include globs, so a concurrent typecheck never sees them.
 */
export function tempDirIn(parent: string, prefix: string): Promise<string> {
  return mkdtemp(join(repoRoot, parent, `.${prefix}`));
}
