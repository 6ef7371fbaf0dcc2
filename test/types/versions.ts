/**
 * Type tests for `acp-router/versions` (issue 28): each version is its table's
 * `protocol` with a handler typed by that protocol, so a handler of the other
 * table, or a connect function of the old form, does not compile; the routed
 * and negotiated connections carry their table's types. Never run: tsc checks
 * them, and test/codegen/type-tests.test.ts proves each `@ts-expect-error`
 * line guards a real error.
 */
import { protocol as v1, type AgentHandler, type ClientHandler, type Transport } from "../../src/index.ts";
import { protocol as v2, type AgentHandler as V2AgentHandler, type ClientHandler as V2ClientHandler } from "../../src/v2/index.ts";
import { negotiateClient, routeAgent } from "../../src/versions/index.ts";

declare const transport: Transport;
declare const v1Agent: AgentHandler;
declare const v2Agent: V2AgentHandler;
declare const v1Client: ClientHandler;
declare const v2Client: V2ClientHandler;

export async function routes(): Promise<unknown> {
  const routed = await routeAgent(transport, { v1: { protocol: v1, handler: v1Agent }, v2: { protocol: v2, handler: v2Agent } }, { maxMessageBytes: 1024, v1ShapeToV1: true });
  // The v2 connection's client peer has v2's elicitation methods; the v1 one has v1's fs methods.
  if (routed?.version === 2) void routed.connection.client.createElicitation;
  if (routed?.version === 1) void routed.connection.client.readTextFile;
  // @ts-expect-error a v2 handler is not the v1 protocol's handler
  void routeAgent(transport, { v1: { protocol: v1, handler: v2Agent } });
  // @ts-expect-error the connect-function form is gone: pass { protocol, handler }
  void routeAgent(transport, { v1: (t: Transport) => t });
  return routed;
}

export async function negotiates(): Promise<unknown> {
  const negotiated = await negotiateClient(transport, {
    v1: { protocol: v1, handler: v1Client, initialize: { protocolVersion: 1, clientCapabilities: {} } },
    v2: { protocol: v2, handler: v2Client, initialize: { protocolVersion: 2, info: { name: "c", version: "1" }, capabilities: {} } },
  });
  if (negotiated.version === 2) void negotiated.initialized.info;
  // @ts-expect-error v1's initialize params are not v2's (no info)
  void negotiateClient(transport, { v2: { protocol: v2, handler: v2Client, initialize: { protocolVersion: 1, clientCapabilities: {} } } });
  return negotiated;
}
