// ACP v2 agent built only on the official SDK's experimental v2 API (@agentclientprotocol/sdk 2.4).
// Run: node --import tsx test/peers/sdk-v2-agent.ts   (NDJSON on stdin/stdout; diagnostics on stderr only)
// Prompts: `slow` streams " tick" every 50 ms until session/cancel, then reports idle `cancelled`;
// anything else is acknowledged, echoed as "You said: <text>" in two chunks, then idle `end_turn`.
// `createSdkV2Agent()` is also used by sdk-dual-agent.ts.
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";

/** The SDK v2 agent app, with its own sessions. */
export function createSdkV2Agent(): acp.AgentApp {
  const turns = new Map<string, AbortController>();
  let sessions = 0;
  let messages = 0;
  const say = (client: acp.AgentContext, sessionId: string, messageId: string, text: string) => client.notify(acp.methods.client.session.update, { sessionId, update: { sessionUpdate: "agent_message_chunk", messageId, content: { type: "text", text } } });
  const idle = (client: acp.AgentContext, sessionId: string, stopReason: "end_turn" | "cancelled") => client.notify(acp.methods.client.session.update, { sessionId, update: { sessionUpdate: "state_update", state: "idle", stopReason } as acp.SessionUpdate });

  async function turn(client: acp.AgentContext, sessionId: string, text: string, signal: AbortSignal, messageId: string): Promise<void> {
    await client.notify(acp.methods.client.session.update, { sessionId, update: { sessionUpdate: "state_update", state: "running" } });
    if (text.trim() === "slow") {
      while (!signal.aborted) {
        await say(client, sessionId, messageId, " tick");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } else {
      await say(client, sessionId, messageId, "You said: ");
      await say(client, sessionId, messageId, text);
    }
    turns.delete(sessionId);
    await idle(client, sessionId, signal.aborted ? "cancelled" : "end_turn");
  }

  return acp
    .agent({ name: "sdk-v2-agent" })
    .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: 2, info: { name: "sdk-v2-agent", version: "0.0.0" }, capabilities: { session: {} } }))
    .onRequest(acp.methods.agent.session.new, () => ({ sessionId: `sdk-session-${++sessions}` }))
    .onRequest(acp.methods.agent.session.prompt, ({ params, client }) => {
      const controller = new AbortController();
      turns.set(params.sessionId, controller);
      const text = params.prompt.map((b) => (b.type === "text" ? b.text : "")).join("");
      const ids = { user: `user-${++messages}`, agent: `agent-${messages}` };
      setImmediate(() => void turn(client, params.sessionId, text, controller.signal, ids.agent).catch((e: unknown) => process.stderr.write(`[sdk-v2-agent] ${String(e)}\n`)));
      return { messageId: ids.user };
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      turns.get(params.sessionId)?.abort();
    });
}

/** Serves `app` (anything with the SDK's `connect(stream)`) on this process's stdin/stdout; logs the close to stderr. */
export function serveSdkStdio(app: { connect(stream: acp.Stream): { closed: Promise<void> } }, name: string): void {
  const stream = acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
  void app.connect(stream).closed.then(() => process.stderr.write(`[${name}] connection closed\n`));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) serveSdkStdio(createSdkV2Agent(), "sdk-v2-agent");
