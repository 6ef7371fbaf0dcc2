/**
 * ACP-MCP-104, "Agents SHOULD connect to all MCP servers specified by the
 * Client", judged where the wire and the file system can show it: check
 * opens one more session whose `mcpServers` lists a stdio MCP server (every
 * agent supports stdio servers) whose command is Node running a small MCP
 * server that records, in a marker file, that it was started and the
 * methods it received, and sends one prompt in that session. Pass when the
 * marker shows the server was started (by the session/new answer, the
 * prompt's answer, or within twice the quiet window after it: 2 s by default). Fail only on strong evidence: the turn
 * was answered with a result and used tools (a tool_call update), yet the
 * declared server was never started, so the agent worked with tools and left
 * the client's out. A turn without tool calls is n/a: the spec says not when
 * to connect, and an agent may connect when its model first needs tools (an
 * agent without credentials, offline, never gets there). n/a too when no
 * turn ran. Runs only when the session probes found a working prompt.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, watch } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describeError, quoteText, type Run, seconds, show, silent, step, updateFor, quote } from "./kit.ts";
import { fail, na, pass } from "./score.ts";
import { ErrorCode } from "../../src/errors.ts";

const V1_ROW = "ACP-MCP-104";
/** The environment variable naming the marker file, passed in the server's `env` as the schema's McpServerStdio allows. */
const MARKER_ENV = "ACP_ROUTER_CHECK_MCP_MARKER";

/** A minimal MCP stdio server (newline-delimited JSON-RPC): records its start and each method, answers initialize, tools/list and ping. */
export const MARKER_SERVER = `const fs = require("fs"); const file = process.env.${MARKER_ENV}; fs.appendFileSync(file, "started\\n");
const rl = require("readline").createInterface({ input: process.stdin });
rl.on("line", (l) => { let m; try { m = JSON.parse(l); } catch { return; } if (typeof m.method === "string") fs.appendFileSync(file, m.method + "\\n"); if (m.id === undefined || m.id === null) return;
  const r = m.method === "initialize" ? { protocolVersion: (m.params && m.params.protocolVersion) || "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "acp-router-check", version: "0.1.0" } } : m.method === "tools/list" ? { tools: [] } : m.method === "ping" ? {} : undefined;
  process.stdout.write(JSON.stringify(r === undefined ? { jsonrpc: "2.0", id: m.id, error: { code: ${ErrorCode.MethodNotFound}, message: "Method not found" } } : { jsonrpc: "2.0", id: m.id, result: r }) + "\\n"); });
rl.on("close", () => process.exit(0));`;

/** Reads the marker: the lines the server wrote (started, then each method it received), or undefined when it never started. */
function readMarker(file: string): string[] | undefined {
  return existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l !== "")
    : undefined;
}

/**
 * Resolves with the marker once the server has written its start and a first method (a change in
 * its folder), or with whatever is there after `ms`: a server that was started but was sent nothing
 * yet is reported as such only once the window is over, so what the note says it received does not
 * depend on how fast the server got its first line.
 */
function markerWithin(file: string, ms: number): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    const done = (seen: string[] | undefined) => {
      clearTimeout(timer);
      watcher.close();
      resolve(seen);
    };
    const received = (seen: string[] | undefined): seen is string[] => seen !== undefined && seen.length > 1;
    // Watching first, then looking: a write between the two is still seen.
    const watcher = watch(dirname(file), () => {
      const seen = readMarker(file);
      if (received(seen)) done(seen);
    });
    const timer = setTimeout(() => done(readMarker(file)), ms);
    const now = readMarker(file);
    if (received(now)) done(now);
  });
}

/**
 * Runs the probe. v1 scores ACP-MCP-104 when the session probes found a working prompt; v2 (`v2: true`) scores
 * ACP-SESSION-320 the same way, with the server's `type` discriminator and the turn ended by its idle state_update.
 */
export async function mcpProbe(run: Run, v2 = false): Promise<void> {
  const { d, card } = run;
  const ROW = v2 ? "ACP-SESSION-320" : V1_ROW;
  if (run.turnSession === undefined) return card.score(ROW, na("no prompt was answered with a result, so no turn could show whether the agent connects to a declared MCP server"));
  await step(run, "mcp servers", [ROW], async () => {
    const dir = mkdtempSync(join(tmpdir(), "acp-router-check-mcp-"));
    const marker = join(dir, "started");
    try {
      const server = { ...(v2 ? { type: "stdio" } : {}), name: "acp-router-check", command: process.execPath, args: ["-e", MARKER_SERVER], env: [{ name: MARKER_ENV, value: marker }] };
      const sent = `check sent session/new with mcpServers [{"name":"acp-router-check","command":<node>,"args":["-e",<a minimal MCP server>],"env":[{"name":"${MARKER_ENV}",…}]}]`;
      const created = await d.request("session/new", { cwd: run.options.cwd, mcpServers: [server] });
      if (created === undefined) return card.score(ROW, silent(run, ROW));
      const sessionId = (created.result as { sessionId?: unknown } | undefined)?.sessionId;
      if (typeof sessionId !== "string") return card.score(ROW, na(`${sent}; it was answered ${created.error !== undefined ? describeError(created) : show(created)}`));
      const from = d.lines.length;
      const answer = await d.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
      // A v2 turn ends with its idle state_update, after the answer that acknowledged it.
      if (v2 && answer?.result !== undefined) await d.waitFor((l) => updateFor(sessionId)(l) && (l.body?.params as { update?: { sessionUpdate?: unknown; state?: unknown } }).update?.state === "idle", d.timeout, from);
      const toolCall = d.lines.slice(from).find((l) => updateFor(sessionId)(l) && ["tool_call", "tool_call_update"].includes(String((l.body?.params as { update?: { sessionUpdate?: unknown } }).update?.sessionUpdate)));
      const seen = await markerWithin(marker, 2 * d.quiet);
      if (seen !== undefined) {
        card.score(ROW, pass);
        card.notes.push(`${ROW}: the declared stdio MCP server was started; it received ${seen.length > 1 ? seen.slice(1).join(", ") : "no message"}`);
        return;
      }
      if (answer === undefined) return card.score(ROW, na(`${sent}; the prompt in that session got no answer within ${seconds(d.timeout)}, and the server was not started`));
      if (answer.error !== undefined) return card.score(ROW, na(`${sent}; the prompt in that session was answered ${describeError(answer)} (no turn ran), and the server was not started`));
      if (toolCall === undefined) return card.score(ROW, na(`${sent}; the turn in that session was answered ${show(answer)} without a tool call, and the server was not started: an agent may connect when its model first needs tools`));
      card.score(
        ROW,
        fail(
          `${sent}; session/new answered ${show(created)}, the turn in that session used a tool (${quote(d, toolCall)}) and was answered ${show(answer)}, yet the server's command was never started (its marker file stayed absent ${seconds(2 * d.quiet)} after). Agents should connect to all MCP servers the client specifies`,
        ),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
