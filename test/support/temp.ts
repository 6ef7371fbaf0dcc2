/**
 * Temporary folders for tests, removed when the test file ends: a file that
 * imports this registers one `afterAll` that deletes every folder made
 * through it (the suite leaves nothing behind in the system's temp folder).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

const made: string[] = [];

afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder `<tmp>/<prefix>XXXXXX`, removed after the test file. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
