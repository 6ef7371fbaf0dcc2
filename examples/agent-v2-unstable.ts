/**
 * A small ACP v2 agent on the **v2 unstable** table (`acp-router/v2/unstable`),
 * built from that table's generated `AgentHandler`: besides the v2 baseline
 * (`session/new`, `session/prompt`) it answers `session/fork`,
 * `session/status` and `providers/list` / `providers/set` /
 * `providers/disable`, which it advertises as `capabilities.session.fork`,
 * `capabilities.session.status` and `capabilities.providers`.
 *
 * A forked session starts with its parent's conversation and goes its own
 * way; a prompt is acknowledged at once and its turn echoes the text with
 * how many messages the session has seen, then ends with an idle
 * `state_update`. Run as a program it serves stdio behind the version
 * router (`routeAgent` with the v2 unstable `protocol` as its `v2` route),
 * so a v2 client negotiates it like any v2 agent:
 *
 *     npx tsx examples/agent-v2-unstable.ts
 */
import { pathToFileURL } from "node:url";
import { nodeStreamTransport } from "../src/transport/stdio.ts";
import { protocol, RpcError, type AgentHandler, type ContentBlock, type ProviderCurrentConfig } from "../src/v2/unstable/index.ts";
import { routeAgent } from "../src/versions/index.ts";

/** Creates the agent's handler, with its own in-memory sessions (each one the texts prompted so far). */
export function createV2UnstableAgent(): AgentHandler {
  const sessions = new Map<string, string[]>();
  let created = 0;
  let messages = 0;
  let current: ProviderCurrentConfig | null = null;
  const get = (sessionId: string): string[] => {
    const history = sessions.get(sessionId);
    if (!history) throw RpcError.resourceNotFound(`session:${sessionId}`);
    return history;
  };
  const open = (history: string[]) => {
    const sessionId = `session-${++created}`;
    sessions.set(sessionId, history);
    return sessionId;
  };

  return {
    initialize: () => ({
      protocolVersion: 2,
      info: { name: "acp-router-v2-unstable-agent", version: "0.1.0" },
      capabilities: { session: { fork: {}, status: {} }, providers: {} },
    }),

    newSession: () => ({ sessionId: open([]) }),
    listSessions: (params) => ({ sessions: [...sessions.keys()].map((sessionId) => ({ sessionId, cwd: params.cwd ?? "/" })) }),
    resumeSession: (params) => (get(params.sessionId), {}),
    closeSession: (params) => (get(params.sessionId), sessions.delete(params.sessionId), {}),
    // The baseline v2 session methods this agent has nothing for: no config options, no cancellable tool calls or terminals.
    setSessionConfigOption: (params) => {
      throw RpcError.invalidParams({ configId: params.configId, reason: "this agent has no config options" });
    },
    cancelToolCall: (params) => {
      throw RpcError.resourceNotFound(`tool call ${params.toolCallId}`);
    },
    cancelTerminal: (params) => {
      throw RpcError.resourceNotFound(`terminal ${params.terminalId}`);
    },

    // The fork copies the parent's conversation; the parent is unchanged.
    forkSession: (params) => ({ sessionId: open([...get(params.sessionId)]) }),
    // Every session this agent knows is in memory; asking changes nothing (session/status has no side effects).
    sessionStatus: (params) => (get(params.sessionId), { status: "open" }),

    listProviders: () => ({ providers: [{ providerId: "main", supported: ["openai", "anthropic"], required: false, current }] }),
    setProvider: ({ apiType, baseUrl }) => ((current = { apiType, baseUrl }), {}),
    disableProvider: () => ((current = null), {}),

    // The acknowledgement goes out first; the turn runs after it and ends with an idle state_update.
    prompt(params, ctx) {
      const history = get(params.sessionId);
      const text = promptText(params.prompt);
      history.push(text);
      const messageId = `user-${++messages}`;
      const { sessionId } = params;
      setImmediate(() => {
        void (async () => {
          await ctx.peer.sessionUpdate({ sessionId, update: { sessionUpdate: "user_message", messageId, content: params.prompt } });
          await ctx.peer.sessionUpdate({ sessionId, update: { sessionUpdate: "state_update", state: "running" } });
          await ctx.peer.sessionUpdate({ sessionId, update: { sessionUpdate: "agent_message_chunk", messageId: `agent-${messages}`, content: { type: "text", text: `You said: ${text} (message ${history.length} of ${sessionId}: ${history.join(" / ")})` } } });
          await ctx.peer.sessionUpdate({ sessionId, update: { sessionUpdate: "state_update", state: "idle", stopReason: ctx.signal.aborted ? "cancelled" : "end_turn" } });
        })().catch(() => {});
      });
      return { messageId };
    },
  };
}

/** The prompt's text blocks joined; other blocks are named. */
function promptText(blocks: readonly ContentBlock[]): string {
  return blocks.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("");
}

// Serve on stdio when run as a program (not when imported, e.g. by a test).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const transport = nodeStreamTransport(process.stdin, process.stdout, { endWritable: false });
  const options = { onDiagnostic: (d: { kind: string; message: string }) => void (d.kind !== "closed" && process.stderr.write(`[v2-unstable-agent] ${d.kind}: ${d.message}\n`)) };
  void routeAgent(transport, { v2: { protocol, handler: createV2UnstableAgent() } }, options).then(async (routed) => {
    await routed?.connection.closed;
    // Let the process exit: stop holding stdin open.
    process.stdin.pause();
    process.stdin.unref?.();
  });
}
