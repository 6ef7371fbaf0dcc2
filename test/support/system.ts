/**
 * System programs some tests drive as real components (`haproxy`, `chromium`),
 * looked up on PATH without spawning anything.
 *
 *   const haproxy = systemProgram("haproxy");
 *   describe("…behind HAProxy", haproxy.suite, () => { … haproxy.path … });
 *
 * Where the program is missing, the suite is skipped and carries the reason
 * with the install command in its `meta`, which `skip-reporter.ts` prints as
 * one summary line. Under `CI=true` a missing program is an error instead
 * (thrown when the test file loads, so the file fails naming it): `.ci/run`
 * installs both, and a green CI must mean they ran.
 *
 * `ACP_TEST_ABSENT=haproxy,chromium` makes the named programs count as
 * missing even where they are installed, to try the fresh-machine path on a
 * machine that has them (an empty or stripped PATH does the same).
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { SuiteOptions } from "vitest";

declare module "vitest" {
  interface TaskMeta {
    /** Why a suite was skipped: "<program> not installed (<install command>)". */
    missingProgram?: string;
  }
}

/** Each program the suite may need and the command that installs it (Debian/Ubuntu package names). */
export const installCommands = {
  haproxy: "apt-get install -y haproxy",
  chromium: "apt-get install -y chromium",
} as const;

export type SystemProgramName = keyof typeof installCommands;

export interface SystemProgram {
  /** The absolute path found on PATH, or undefined where the program is missing. */
  readonly path: string | undefined;
  /** `"<name> not installed (<install command>)"`: the skip reason. */
  readonly reason: string;
  /** Options for `describe(name, options, fn)`: skipped, with the reason, where the program is missing. */
  readonly suite: SuiteOptions;
}

/** The first executable file named `name` in the PATH folders of `env`, or undefined. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here (or not executable): try the next folder
    }
  }
  return undefined;
}

/** Whether `ACP_TEST_ABSENT` (comma- or space-separated names) declares `name` missing. */
export function declaredAbsent(name: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.ACP_TEST_ABSENT ?? "").split(/[\s,]+/).includes(name);
}

/**
 * Looks `name` up on PATH; throws under `CI=true` where it is missing (the
 * message names the program and its install command).
 */
export function systemProgram(name: SystemProgramName, env: NodeJS.ProcessEnv = process.env): SystemProgram {
  const path = declaredAbsent(name, env) ? undefined : findOnPath(name, env);
  const reason = `${name} not installed (${installCommands[name]})`;
  if (path === undefined && env.CI === "true") throw new Error(`CI=true and ${reason}: CI must run the tests that need ${name} (.ci/run installs it)`);
  const suite: SuiteOptions = path === undefined ? { skip: true, meta: { missingProgram: reason } } : {};
  return { path, reason, suite };
}
