/**
 * `acp-router inspect report <trace.ndjson> -o <report.html>`: turns a
 * recording made with `inspect --record`, or a trace in the Rust
 * conductor's format (tools/inspect/rust-trace.ts), into a self-contained
 * HTML page.
 * Returns the exit code; messages go to stderr.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { renderReport } from "./html.ts";
import { buildModel } from "./model.ts";

const USAGE = "usage: acp-router inspect report <trace.ndjson|trace.jsons> -o <report.html>";

export async function reportMain(argv: readonly string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, options: { output: { type: "string", short: "o" }, help: { type: "boolean", short: "h" } } });
  } catch (error) {
    process.stderr.write(`acp-router inspect report: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (parsed.values.help === true) {
    process.stderr.write(`${USAGE}\n`);
    return 0;
  }
  const [input] = parsed.positionals;
  const output = parsed.values.output;
  if (input === undefined || output === undefined) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const model = buildModel(readFileSync(input, "utf8"));
  writeFileSync(output, renderReport(model));
  process.stderr.write(`acp-router inspect report: ${model.messages.length} messages, ${model.violations.length} violation${model.violations.length === 1 ? "" : "s"} → ${output}\n`);
  return 0;
}
