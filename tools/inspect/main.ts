/**
 * `acp-router inspect`: the command-line entry, dispatched by the package's
 * bin. `inspect [--log FILE] [--record FILE] [--summary FILE] [--exit-grace MS] [--table DIR] -- <agent
 * command…>` runs the proxy; `inspect report` and `inspect replay` are
 * subcommands. Returns the exit code; writes usage and errors to stderr only
 * (stdout carries the protocol). By default inspect exits when the agent
 * does, even after the editor's EOF (a lingering agent is visible as a
 * lingering inspect); `--exit-grace MS` ends a lingering agent after MS.
 */
import { parseArgs } from "node:util";
import { runProxy } from "./proxy.ts";
import { TableLoadError } from "./table-error.ts";

export const INSPECT_USAGE = `usage: acp-router inspect [--log FILE|-] [--record FILE.ndjson] [--trace FILE.jsons] [--summary FILE[.json]] [--exit-grace MS] [--table DIR] -- <agent command…>
       acp-router inspect report <trace.ndjson|trace.jsons> -o <report.html>
       acp-router inspect replay <trace.ndjson|trace.jsons> [--json] [--timeout MS] [--quiet MS] [-- <agent command…>]`;

/** Runs `acp-router inspect` with the arguments after `inspect`. */
export async function inspectMain(argv: readonly string[]): Promise<number> {
  const dash = argv.indexOf("--");
  const own = dash === -1 ? [...argv] : argv.slice(0, dash);
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  if (own[0] === "report") return (await import("../report/main.ts")).reportMain(own.slice(1));
  if (own[0] === "replay") return (await import("./replay.ts")).replayMain(own.slice(1), command);
  let values: { log?: string | undefined; record?: string | undefined; trace?: string | undefined; summary?: string | undefined; "exit-grace"?: string | undefined; table?: string | undefined; help?: boolean | undefined };
  try {
    values = parseArgs({
      args: own,
      options: { log: { type: "string" }, record: { type: "string" }, trace: { type: "string" }, summary: { type: "string" }, "exit-grace": { type: "string" }, table: { type: "string" }, help: { type: "boolean", short: "h" } },
    }).values;
  } catch (error) {
    process.stderr.write(`acp-router inspect: ${(error as Error).message}\n${INSPECT_USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stderr.write(`${INSPECT_USAGE}\n`);
    return 0;
  }
  if (command.length === 0) {
    process.stderr.write(`acp-router inspect: no agent command after --\n${INSPECT_USAGE}\n`);
    return 2;
  }
  const grace = values["exit-grace"];
  if (grace !== undefined && !/^\d+$/.test(grace)) {
    process.stderr.write(`acp-router inspect: --exit-grace takes milliseconds, got ${JSON.stringify(grace)}\n${INSPECT_USAGE}\n`);
    return 2;
  }
  try {
    return await runProxy({ command, log: values.log, record: values.record, trace: values.trace, summary: values.summary, exitGraceMs: grace === undefined ? undefined : Number(grace), table: values.table });
  } catch (error) {
    if (!(error instanceof TableLoadError)) throw error;
    process.stderr.write(`acp-router inspect: ${error.message}\n`);
    return 2;
  }
}
