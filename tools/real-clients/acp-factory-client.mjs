#!/usr/bin/env node
/**
 * The small script acp-factory (a library without a command line) needs to be
 * scored by `check --client`: registers `--agent` as a custom agent type,
 * spawns it with permissionMode "auto-approve", opens a session in the current
 * directory, streams one prompt's message text to stdout, sends
 * `session.cancel()` on Ctrl-C (SIGINT), then closes the agent.
 *
 *   node acp-factory-client.mjs <folder where acp-factory is installed> --agent "<command line>" --prompt TEXT
 *
 * The agent command line is split at spaces (check's bridge command has no quoted words).
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { agent: { type: "string" }, prompt: { type: "string" } } });
if (positionals[0] === undefined || values.agent === undefined || values.prompt === undefined) {
  process.stderr.write('usage: acp-factory-client.mjs INSTALL_FOLDER --agent "<command line>" --prompt TEXT\n');
  process.exit(2);
}
const { AgentFactory } = await import(pathToFileURL(join(positionals[0], "node_modules/acp-factory/dist/index.js")).href);
const [command, ...args] = values.agent.trim().split(/\s+/);
AgentFactory.register("check-client", { command, args });
const agent = await AgentFactory.spawn("check-client", { permissionMode: "auto-approve" });
const session = await agent.createSession(process.cwd());
const onSigint = () => void session.cancel();
process.once("SIGINT", onSigint);
let text = 0;
for await (const update of session.prompt(values.prompt)) {
  if (update.sessionUpdate === "agent_message_chunk" && update.content?.type === "text") text += update.content.text.length;
}
process.off("SIGINT", onSigint);
process.stdout.write(`message text: ${text} characters\n`);
await agent.close();
process.stdout.write("agent closed\n");
