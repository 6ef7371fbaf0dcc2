// Type behaviour of the compatibility package, checked by `npm run typecheck` (never run): the
// SDK's typed registration and calls, each wrong use marked with @ts-expect-error.
import * as acp from "../../compat/sdk/src/index.ts";
import * as v2 from "../../compat/sdk/src/v2.ts";

export const app = acp
  .agent({ name: "types" })
  // A table method: params and result typed by the table.
  .onRequest(acp.methods.agent.session.new, ({ params }) => ({ sessionId: params.cwd }))
  // @ts-expect-error a stop reason the schema does not have
  .onRequest(acp.methods.agent.session.prompt, () => ({ stopReason: "nope" }))
  // `void` answers `{}`, as in the SDK.
  .onRequest(acp.methods.agent.session.setMode, () => {})
  // A custom method takes a parser; its params are the parser's type.
  .onRequest(
    "_acme/ping",
    (p: unknown) => p as { n: number },
    ({ params }) => ({ n: params.n + 1 }),
  )
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    const id: string = params.sessionId;
    void id;
  });

export async function calls(client: acp.AgentContext, agent: acp.ClientContext): Promise<void> {
  const { content } = await client.request(acp.methods.client.fs.readTextFile, { sessionId: "s", path: "/x" });
  const text: string = content;
  void text;
  // @ts-expect-error path must be a string
  await client.request(acp.methods.client.fs.readTextFile, { sessionId: "s", path: 1 });
  // An extension: untyped, the result is the caller's claim.
  const pong = await client.request<{ n: number }>("_acme/ping", { n: 1 });
  void pong.n;
  const { sessionId } = await agent.request(acp.methods.agent.session.new, { cwd: "/", mcpServers: [] });
  // @ts-expect-error session/prompt needs a prompt
  await agent.request(acp.methods.agent.session.prompt, { sessionId });
  await agent.notify(acp.methods.agent.session.cancel, { sessionId });
}

// The v2 entry types its own table: v2's session/new takes no mcpServers list requirement from v1.
export const v2App = v2.agent().onRequest(v2.methods.agent.initialize, () => ({ protocolVersion: v2.PROTOCOL_VERSION, info: { name: "t", version: "1" }, capabilities: {} }));
