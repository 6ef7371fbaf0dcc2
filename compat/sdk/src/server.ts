/**
 * `@agentclientprotocol/sdk/experimental/server`: `AcpServer`, an agent app
 * served over Streamable HTTP and WebSocket, on acp-router's remote server
 * (`createRemoteServer`): each remote connection gets the app's handlers, and
 * the app's connect handlers run before that connection's first message.
 *
 * @module
 */
import { createRemoteServer, type RemoteServer } from "../../../src/remote/server.ts";
import type { AgentApp } from "./sides.ts";

/** The agent to serve: one app for every connection, or a factory called per connection. */
export type AcpServerOptions = { readonly agent: AgentApp; readonly createAgent?: never } | { readonly agent?: never; readonly createAgent: () => AgentApp };

const remotes = new WeakMap<AcpServer, RemoteServer>();

/** The remote server behind an `AcpServer` (for the Node adapters). @internal */
export function remoteOf(server: AcpServer): RemoteServer {
  const remote = remotes.get(server);
  if (remote === undefined) throw new TypeError("expected an AcpServer");
  return remote;
}

/** Serves an agent app to remote clients; hand it requests with `handleRequest` or the Node adapters. */
export class AcpServer {
  constructor(options: AcpServerOptions) {
    // The protocol comes from the first app; a factory's first app then serves the first connection.
    let spare: AgentApp | undefined = options.agent ?? (options.createAgent as () => AgentApp)();
    const protocol = spare.protocol;
    const next = (): AgentApp => {
      const app = options.agent ?? spare ?? (options.createAgent as () => AgentApp)();
      spare = undefined;
      return app;
    };
    const pending = new Map<string, ReturnType<AgentApp["routed"]>>();
    const remote = createRemoteServer({
      protocol,
      agent: (info) => {
        const routed = next().routed();
        pending.set(info.connectionId, routed);
        return routed.handler as never;
      },
      onConnection: (connection, info) => {
        pending.get(info.connectionId)?.bind(connection);
        pending.delete(info.connectionId);
      },
    });
    remotes.set(this, remote);
  }
  /** Answers one Fetch API request to the ACP endpoint (POST, GET, DELETE). */
  handleRequest(request: Request): Promise<Response> {
    return remoteOf(this).handleRequest(request);
  }
  /** Closes every connection and stops accepting new ones. */
  close(): Promise<void> {
    return remoteOf(this).close();
  }
}
