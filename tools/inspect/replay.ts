/**
 * `acp-router inspect replay <trace.ndjson> [--json] [--timeout MS] [--quiet MS] -- <agent command…>`:
 * replays the client side of a recording (`inspect --record`, or a Rust
 * conductor trace: its hop nearest the client, `clientHop`) against an
 * agent and reports where the agent's answers differ from the recorded ones
 * in shape or rule, never in free text: regression testing for agent
 * authors. Without a command, the recorded command is run. The report goes
 * to stdout (text, or JSON with `--json`); exit 1 when anything differs,
 * 2 on usage errors or an unreadable recording, 127 when the agent cannot
 * be started.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { clientHop, readRecording } from "./recording.ts";
import { buildPlan } from "./replay-plan.ts";
import { runReplay, type ReplayOutcome } from "./replay-run.ts";

const USAGE = "usage: acp-router inspect replay <trace.ndjson|trace.jsons> [--json] [--timeout MS] [--quiet MS] [-- <agent command…>]";

/** Per answer at least: 10 s, generous for a real agent on a loaded machine; an answer the recording shows slower is waited for twice its recorded latency. */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** For the agent's first line: 30 s, as a loaded machine may take that long to start a TypeScript agent. */
export const START_MS = 30_000;
/** Silence after which recorded notifications are no longer waited for: 500 ms. */
export const DEFAULT_QUIET_MS = 500;

/** Runs `inspect replay` with the arguments after `replay` and the agent command after `--`. */
export async function replayMain(argv: readonly string[], command: readonly string[]): Promise<number> {
  let parsed: { values: { json?: boolean | undefined; timeout?: string | undefined; quiet?: string | undefined; help?: boolean | undefined }; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, options: { json: { type: "boolean" }, timeout: { type: "string" }, quiet: { type: "string" }, help: { type: "boolean", short: "h" } } });
  } catch (error) {
    return usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    return 0;
  }
  const file = positionals[0];
  if (file === undefined || positionals.length > 1) return usage("give exactly one recording");
  const timeoutMs = values.timeout === undefined ? DEFAULT_TIMEOUT_MS : Number(values.timeout);
  const quietMs = values.quiet === undefined ? DEFAULT_QUIET_MS : Number(values.quiet);
  if (!(timeoutMs > 0) || !(quietMs > 0)) return usage("--timeout and --quiet take a number of milliseconds");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    process.stderr.write(`acp-router inspect replay: cannot read ${file}: ${(error as Error).message}\n`);
    return 2;
  }
  const plan = buildPlan(clientHop(readRecording(text)));
  const agent = command.length > 0 ? command : plan.command;
  if (agent.length === 0) return usage("no agent command after -- and none in the recording");
  if (plan.steps.length === 0) {
    process.stderr.write(`acp-router inspect replay: ${file} holds no client message\n`);
    return 2;
  }
  let outcome: ReplayOutcome;
  try {
    outcome = await runReplay(plan, agent, { timeoutMs, quietMs, startMs: Math.max(START_MS, timeoutMs) });
  } catch (error) {
    process.stderr.write(`acp-router inspect replay: ${(error as Error).message}\n`);
    return 127;
  }
  process.stdout.write(values.json ? `${JSON.stringify({ recording: file, command: agent, ...outcome, same: outcome.differences.length === 0 }, null, 2)}\n` : formatReplay(file, agent, outcome));
  return outcome.differences.length === 0 ? 0 : 1;
}

/** The report as text for people. */
export function formatReplay(file: string, command: readonly string[], o: ReplayOutcome): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const lines = [
    `acp-router inspect replay: ${file} against ${command.join(" ")}`,
    `sent ${plural(o.sent.requests, "request")}, ${plural(o.sent.notifications, "notification")}, ${plural(o.sent.answers, "answer")} to agent requests${o.sent.other > 0 ? `, ${plural(o.sent.other, "other line")}` : ""}; compared ${plural(o.compared.answers, "answer")} and ${plural(o.compared.agentRequests, "agent request")}; agent exit ${o.exit ?? "(killed)"}`,
  ];
  if (o.differences.length === 0) lines.push("no differences");
  else {
    lines.push(`${plural(o.differences.length, "difference")}:`);
    for (const d of o.differences) lines.push(`  ${d.kind.padEnd(13)} ${d.at}${d.path ? ` ${d.path}` : ""}: recorded ${d.recorded}, replayed ${d.replayed}`);
  }
  return `${lines.join("\n")}\n`;
}

function usage(message: string): number {
  process.stderr.write(`acp-router inspect replay: ${message}\n${USAGE}\n`);
  return 2;
}
