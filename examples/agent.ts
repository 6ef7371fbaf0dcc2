/**
 * The example ACP agent: one object implementing `AgentHandler`, served on
 * stdin/stdout. Run it with `npx tsx examples/agent.ts` (stdout carries
 * protocol lines only; diagnostics go to stderr). On stdio it serves ACP v1
 * and v2 clients through the version router (`routeAgent`); the v2 agent is
 * in `agent-v2.ts`.
 *
 * Prompts it understands (see `agent-turns.ts`): any text is echoed back in
 * chunks; `slow` counts for ten seconds (cancel it); `read /absolute/path`
 * reads a file through the client after asking permission; `plan` shows a
 * three-step plan. Sessions live in memory: `session/load` replays a
 * session's history, `session/list` lists them, `session/close` stops the
 * running turn and closes a session until it is loaded again.
 *
 * Remote: `npx tsx examples/agent.ts --listen 127.0.0.1:8080` serves it at
 * `http://127.0.0.1:8080/acp` (Streamable HTTP over HTTP/1.1 and WebSocket on
 * one port; add `--h2` for HTTP/2 cleartext instead). All connections share
 * one agent, so sessions outlive a connection: a client may reconnect and
 * `session/load` them. Ctrl-C drains running turns (5 s) before exiting.
 */
import { pathToFileURL } from "node:url";
import { connectAgent, protocol, RpcError, type AgentHandler, type ConnectionOptions, type ContentBlock, type SessionUpdate } from "../src/index.ts";
import { listen } from "../src/remote/node.ts";
import { createRemoteServer } from "../src/remote/server.ts";
import { nodeStreamTransport } from "../src/transport/stdio.ts";
import { protocol as protocolV2 } from "../src/v2/index.ts";
import { routeAgent, type RouteAgentOptions } from "../src/versions/index.ts";
import { createExampleAgentV2 } from "./agent-v2.ts";
import { createSessionStore, MODES, modeState, send } from "./agent-sessions.ts";
import { runTurn } from "./agent-turns.ts";

/** The protocol version of this (v1) handler; it answers with it whatever the client asked. */
const PROTOCOL_VERSION = 1;

/** Creates the example agent's handler, with its own in-memory sessions. */
export function createExampleAgent(): AgentHandler {
  const sessions = createSessionStore();

  return {
    initialize() {
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          sessionCapabilities: { list: {}, close: {} },
        },
        authMethods: [],
        agentInfo: { name: "acp-router-example-agent", title: "acp-router example agent", version: "0.1.0" },
      };
    },

    // No auth methods are advertised, so there is nothing to check.
    authenticate() {
      return {};
    },

    newSession(params) {
      const session = sessions.create(params.cwd);
      return { sessionId: session.id, modes: modeState(session) };
    },

    // The history goes out as session/update notifications before the answer.
    async loadSession(params, ctx) {
      const session = sessions.get(params.sessionId);
      session.cwd = params.cwd;
      session.open = true;
      for (const update of session.history) await ctx.peer.sessionUpdate({ sessionId: session.id, update });
      return { modes: modeState(session) };
    },

    // Every session fits in one page, so no cursor is ever issued and any cursor is invalid.
    listSessions(params) {
      if (params.cursor != null) throw RpcError.invalidParams({ cursor: params.cursor, reason: "this agent lists every session in one page and issues no cursor" });
      return { sessions: sessions.list(params.cwd ?? undefined) };
    },

    // As if session/cancel had been sent, then the session is closed until loaded again.
    closeSession(params) {
      const session = sessions.get(params.sessionId);
      session.turn?.abort();
      session.open = false;
      return {};
    },

    async setSessionMode(params, ctx) {
      const session = sessions.getOpen(params.sessionId);
      if (!MODES.some((m) => m.id === params.modeId)) {
        throw RpcError.invalidParams({ modeId: params.modeId, reason: `unknown mode; available: ${MODES.map((m) => m.id).join(", ")}` });
      }
      session.modeId = params.modeId;
      await send(ctx.peer, session, { sessionUpdate: "current_mode_update", currentModeId: params.modeId });
      return {};
    },

    // This agent offers no config options.
    setSessionConfigOption(params) {
      throw RpcError.invalidParams({ configId: params.configId, reason: "this agent has no config options" });
    },

    async prompt(params, ctx) {
      const session = sessions.getOpen(params.sessionId);
      if (session.turn) throw RpcError.invalidRequest("a prompt is already running in this session");
      const turn = new AbortController();
      session.turn = turn;
      // ctx.signal aborts on session/cancel; the turn's own controller on session/close.
      const signal = AbortSignal.any([ctx.signal, turn.signal]);
      for (const block of params.prompt) session.history.push({ sessionUpdate: "user_message_chunk", content: block });
      const text = promptText(params.prompt);
      session.title ??= text.trim().slice(0, 60) || undefined;
      try {
        const stopReason = await runTurn({ session, signal, client: ctx.peer, clientCapabilities: ctx.clientCapabilities, send: (u: SessionUpdate) => send(ctx.peer, session, u) }, text);
        return { stopReason: signal.aborted ? "cancelled" : stopReason };
      } catch (error) {
        if (signal.aborted) return { stopReason: "cancelled" };
        log(`prompt failed: ${error instanceof Error ? error.message : String(error)}`);
        throw error;
      } finally {
        session.turn = undefined;
      }
    },
  };
}

/** The prompt's text blocks joined; resource links are named so an echo shows them. */
function promptText(blocks: readonly ContentBlock[]): string {
  return blocks
    .map((block) => {
      if (block.type === "text") return block.text;
      if (block.type === "resource_link") return `[${block.name}](${block.uri})`;
      return `[${block.type}]`;
    })
    .join("");
}

function log(message: string): void {
  process.stderr.write(`[example-agent] ${message}\n`);
}

/** Serves the example agent at `http://<host:port>/acp` until SIGINT or SIGTERM; resolves with the URL once listening. */
export async function serveRemote(hostPort: string, h2: boolean): Promise<string> {
  const colon = hostPort.lastIndexOf(":");
  const host = colon > 0 ? hostPort.slice(0, colon).replace(/^\[|\]$/g, "") : "127.0.0.1";
  const port = Number(colon >= 0 ? hostPort.slice(colon + 1) : hostPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--listen wants HOST:PORT, got ${JSON.stringify(hostPort)}`);
  const agent = createExampleAgent();
  const remote = createRemoteServer({ protocol, agent, connection: { onDiagnostic: (d) => log(`${d.kind}: ${d.message}`) } });
  const server = await listen(remote, { host, port, protocol: h2 ? "h2c" : "http1" });
  log(`serving at ${server.url} (${h2 ? "HTTP/2 cleartext" : "HTTP/1.1 and WebSocket"})`);
  const stop = () => {
    log("shutting down: draining running turns");
    void server.close({ graceMs: 5000 }).then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return server.url;
}

// Serve on stdio (or, with --listen, over HTTP) when run as a program (not when imported, e.g. by a test).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf("--listen");
  if (at !== -1) {
    serveRemote(process.argv[at + 1] ?? "", process.argv.includes("--h2")).catch((error: unknown) => {
      log(error instanceof Error ? error.message : String(error));
      process.exitCode = 1;
    });
  } else {
    void serveStdioVersions();
  }
}

/**
 * Serves v1 and v2 clients on stdin/stdout: the version router reads the
 * client's `initialize` and hands the stream to the v1 agent or to the v2
 * agent (`agent-v2.ts`). A v1-shaped `initialize` stays on v1 whatever
 * version it names, so v1 clients see the v1 agent exactly as before.
 */
async function serveStdioVersions(): Promise<void> {
  // One options object for the router and the connection it opens: the same bounds before and after routing.
  const options = {
    v1ShapeToV1: true,
    onDiagnostic: (d) => {
      if (d.kind !== "closed") log(`${d.kind}: ${d.message}`);
    },
  } satisfies RouteAgentOptions;
  const transport = nodeStreamTransport(process.stdin, process.stdout, { endWritable: false });
  const routed = await routeAgent(transport, { v1: { protocol, handler: createExampleAgent() }, v2: { protocol: protocolV2, handler: createExampleAgentV2() } }, options);
  const closed = await routed?.connection.closed;
  if (closed?.error) log(`connection closed: ${closed.error.message}`);
  // Let the process exit: stop holding stdin open.
  process.stdin.pause();
  process.stdin.unref?.();
}
