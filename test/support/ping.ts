/**
 * An agent whose handlers call its client's extension methods through the
 * handler context (`ctx.request` / `ctx.notify`), and what a client needs to
 * answer them: the same agent runs in-process (memory, Web streams), as a
 * stdio subprocess (test/fixtures/ping-agent.ts) and behind the remote server.
 *
 * Prompt texts: `ping` sends `_acme/ping` (a `defineExtension` request) and a
 * raw `_acme/raw` request, notifies `_acme/seen`, and says what it got as a
 * chunk (`pong 42 raw ok`); `gated` sends `_acme/gated`, whose capability the
 * client must advertise (`_meta["acme.dev/gated"]`), and says whether it was
 * answered or refused; anything else ends the turn. `_acme/hello`, an
 * extension request the client sends, is answered by an extension handler
 * that itself pings the client through its own `ctx`.
 */
import { z } from "zod";
import { defineExtension, type AgentHandler, type ClientHandler, type ExtensionHandler, type RpcError } from "../../src/index.ts";

/** `_acme/ping`: `{ n }` → `{ pong }`; the client answers `n + 1`. */
export const ping = defineExtension({ wire: "_acme/ping", params: z.object({ n: z.number() }), result: z.object({ pong: z.number() }) });

/** `_acme/seen`: a session-scoped notification the agent sends after a ping. */
export const seen = defineExtension({ wire: "_acme/seen", params: z.object({ sessionId: z.string(), pong: z.number() }) });

/** `_acme/gated`: sent only to a client that advertised `_meta["acme.dev/gated"]`. */
export const gated = defineExtension({ wire: "_acme/gated", params: z.object({}), result: z.object({ ok: z.boolean() }), capability: ["_meta", "acme.dev/gated"] });

/** `_acme/hello`: a request the client sends to the agent; its handler pings the client back before answering. */
export const hello = defineExtension({ wire: "_acme/hello", params: z.object({ name: z.string() }), result: z.object({ greeting: z.string() }) });

/** The agent's extension handlers (pass as the connection's `extensions`). */
export const agentExtensions: readonly ExtensionHandler[] = [
  hello.handle(async ({ name }, ctx) => {
    const { pong } = await ctx.request(ping, { n: name.length });
    return { greeting: `hello ${name} (${pong})` };
  }),
];

/** The agent: `ping` and `gated` turns call the client through `ctx`. */
export function pingAgent(): AgentHandler {
  let sessions = 0;
  return {
    initialize: () => ({ protocolVersion: 1, agentCapabilities: {}, authMethods: [] }),
    authenticate: () => ({}),
    newSession: () => ({ sessionId: `ping-${++sessions}` }),
    setSessionMode: () => ({}),
    setSessionConfigOption: () => ({ configOptions: [] }),
    async prompt({ sessionId, prompt }, ctx) {
      const first = prompt[0];
      const text = first?.type === "text" ? first.text : "";
      const say = (t: string) => ctx.peer.sessionUpdate({ sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } } });
      if (text === "ping") {
        const { pong } = await ctx.request(ping, { n: 41 });
        await ctx.notify(seen, { sessionId, pong });
        const raw = await ctx.request<{ ok?: unknown }>("_acme/raw", { sessionId });
        await ctx.notify("_acme/raw_seen", { sessionId });
        await say(`pong ${pong} raw ${raw.ok === true ? "ok" : JSON.stringify(raw)}`);
      } else if (text === "gated") {
        const outcome = await ctx.request(gated, {}).then(
          (r) => `answered ${r.ok}`,
          (e: RpcError) => `refused ${e.code}`,
        );
        await say(outcome);
      }
      return { stopReason: "end_turn" };
    },
  };
}

/** What our client saw of the agent's extension calls. */
export interface PingRecord {
  readonly chunks: string[];
  readonly pings: number[];
  readonly seen: number[];
  readonly raw: string[];
  readonly gated: number;
}

/** Our client for {@link pingAgent}: answers `_acme/ping` (n + 1), `_acme/gated`, `_acme/raw` (through `extMethod`); records the notifications. */
export function pingClient(): { handler: ClientHandler; extensions: ExtensionHandler[]; record: PingRecord } {
  const record = { chunks: [] as string[], pings: [] as number[], seen: [] as number[], raw: [] as string[], gated: 0 };
  const handler: ClientHandler = {
    requestPermission: () => ({ outcome: { outcome: "cancelled" } }),
    sessionUpdate: ({ update }) => {
      if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") record.chunks.push(update.content.text);
    },
    extMethod: (method) => {
      record.raw.push(method);
      return { ok: true };
    },
    extNotification: (method) => {
      record.raw.push(method);
    },
  };
  const extensions = [
    ping.handle(({ n }) => {
      record.pings.push(n);
      return { pong: n + 1 };
    }),
    seen.handle(({ pong }) => void record.seen.push(pong)),
    gated.handle(() => {
      record.gated++;
      return { ok: true };
    }),
  ];
  return { handler, extensions, record };
}
