// Issue 49 item 5: `acp-router check` reports, in a section apart from the spec rows, how the agent
// ended after check closed its stdin — the time to its exit and every process it left behind: the
// rest of its process group, and a descendant that left the group (setsid), which check then ends.
import { describe, expect, it } from "vitest";
import type { CheckReport } from "../../tools/check/main.ts";
import { runProcess } from "../support/process.ts";
import { allGone } from "../support/process-group.ts";
import { acpRouter, pidfile, pidsWritten, stub } from "./support.ts";

async function check(flags: readonly string[], file: string): Promise<CheckReport> {
  const [cmd, ...args] = acpRouter("check", "--json", "--timeout", "2", "--quiet", "0.1", "--exit-grace", "1", "--", process.execPath, stub, `--pidfile=${file}`, ...flags) as [string, ...string[]];
  const ran = await runProcess(cmd, args, { timeoutMs: 120_000 });
  return JSON.parse(ran.stdout) as CheckReport;
}

describe("check's report of how the agent ended", () => {
  it("an agent that exits at EOF and leaves nothing: the time to exit, no process left behind", async () => {
    const file = pidfile();
    const report = await check([], file);
    expect(report.ending).toEqual({ exitMs: expect.any(Number) as number, exit: "code 0", leftBehind: [] });
    expect(report.rows.some((r) => r.id.includes("ENDING"))).toBe(false);
  });

  it("lists a grandchild left in the group and one that left it with setsid; both are ended", async () => {
    const file = pidfile();
    const report = await check(["--stubborn-grandchild", "--setsid-grandchild"], file);
    const [, inGroup, escaped] = (await pidsWritten(file, 3)) as [number, number, number];
    expect(report.ending?.exit).toBe("code 0");
    expect([...(report.ending?.leftBehind ?? [])].sort((a, b) => a.pid - b.pid)).toEqual(
      [
        { pid: inGroup, command: "sleep", where: "group" },
        { pid: escaped, command: "sleep", where: "left the group" },
      ].sort((a, b) => a.pid - b.pid),
    );
    expect(await allGone([inGroup, escaped])).toEqual([]);
  });
});
