/**
 * A real agent connection and a real client connection joined by a
 * `memoryPair` (bytes, async delivery), optionally already initialized.
 *
 *   const { agent, client } = await initializedPair(testAgent().handler, testClient().handler);
 *   const { sessionId } = await client.agent.newSession(params.newSession());
 */
import { connectAgent, connectClient, memoryPair } from "../../src/index.ts";
import type { AgentConnection, AgentHandler, ClientCapabilities, ClientConnection, ClientHandler, ConnectionOptions, Diagnostic } from "../../src/index.ts";
import { params } from "./handlers.ts";

export interface PairOptions {
  readonly agent?: ConnectionOptions;
  readonly client?: ConnectionOptions;
  /** Passed to `memoryPair`. */
  readonly chunkBytes?: number;
}

export interface Pair {
  readonly agent: AgentConnection;
  readonly client: ClientConnection;
  /** Diagnostics of each side, in order. */
  readonly diagnostics: { readonly agent: Diagnostic[]; readonly client: Diagnostic[] };
}

export function connectPair(agentHandler: AgentHandler, clientHandler: ClientHandler, options: PairOptions = {}): Pair {
  const [a, c] = memoryPair(options.chunkBytes === undefined ? {} : { chunkBytes: options.chunkBytes });
  const diagnostics = { agent: [] as Diagnostic[], client: [] as Diagnostic[] };
  const agent = connectAgent(agentHandler, a, { ...options.agent, onDiagnostic: chain(diagnostics.agent, options.agent) });
  const client = connectClient(clientHandler, c, { ...options.client, onDiagnostic: chain(diagnostics.client, options.client) });
  return { agent, client, diagnostics };
}

/** `connectPair`, then the client initializes with `clientCapabilities` (default none). */
export async function initializedPair(agentHandler: AgentHandler, clientHandler: ClientHandler, clientCapabilities: ClientCapabilities = {}, options: PairOptions = {}): Promise<Pair> {
  const pair = connectPair(agentHandler, clientHandler, options);
  await pair.client.agent.initialize(params.initialize(clientCapabilities));
  return pair;
}

function chain(into: Diagnostic[], options: ConnectionOptions | undefined): (d: Diagnostic) => void {
  return (d) => {
    into.push(d);
    options?.onDiagnostic?.(d);
  };
}
