// Extensions without codegen: one definition per method, validated by zod, used by both sides.
import { z } from "zod";
import { connectAgent, connectClient, defineExtension, memoryPair, type AgentHandler, type RpcError } from "../../src/index.ts";

const echo = defineExtension({ wire: "_example.com/echo", params: z.object({ text: z.string() }), result: z.object({ text: z.string() }) });
const progress = defineExtension({ wire: "_example.com/progress", params: z.object({ percent: z.number() }) });

const agent: AgentHandler = {
  initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }),
  authenticate: () => ({}),
  newSession: () => ({ sessionId: "s-1" }),
  setSessionMode: () => ({}),
  setSessionConfigOption: () => ({ configOptions: [] }),
  prompt: () => ({ stopReason: "end_turn" }),
};
const [agentSide, clientSide] = memoryPair();

// The agent handles echo (params typed { text: string }) and notifies progress on the way:
// every handler's ctx sends extensions to the peer (ctx.request / ctx.notify), on every transport.
connectAgent(agent, agentSide, {
  extensions: [
    echo.handle(async ({ text }, ctx) => {
      await ctx.notify(progress, { percent: 50 });
      return { text: text.toUpperCase() };
    }),
  ],
});

// The client handles progress and calls echo: typed params, validated and typed result.
const seen: number[] = [];
const client = connectClient({ requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {} }, clientSide, {
  extensions: [progress.handle(({ percent }) => void seen.push(percent))],
});
await client.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
const { text } = await client.request(echo, { text: "hi" });
console.log(JSON.stringify({ text, progress: seen }));
// Invalid params are answered -32602 with one entry per location, before the handler runs.
const refused = await client.request(echo, { text: 42 } as never).catch((error: RpcError) => error.toJSON());
console.log(JSON.stringify(refused));
client.close();
