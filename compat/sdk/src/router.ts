/**
 * The SDK's `agentProtocolRouter()`: one stdio agent that serves ACP v1 and
 * v2 apps, routed by the client's `initialize`, on acp-router's version
 * router (`routeAgent`), which reads until `initialize`, negotiates and
 * opens the chosen version's connection with that app's handlers.
 */
import { routeAgent } from "../../../src/versions/route-agent.ts";
import type { AgentApp } from "./sides.ts";
import { streamTransport, type Stream } from "./message-stream.ts";

/** What `connect` returns: settles when the routed connection (or the unrouted stream) closed. */
export interface RoutedConnection {
  readonly closed: Promise<void>;
  close(error?: unknown): void;
}

/** An agent that serves a v1 app, a v2 app, or both on one stream. */
export class AgentProtocolRouter {
  #v1: AgentApp | undefined;
  #v2: AgentApp | undefined;
  /** Serves ACP v1 clients with `app` (built with `agent()` of a v1 entry). */
  withV1(app: AgentApp): this {
    this.#v1 = app;
    return this;
  }
  /** Serves ACP v2 clients with `app` (built with `agent()` of a v2 entry). */
  withV2(app: AgentApp): this {
    this.#v2 = app;
    return this;
  }
  /** Reads `initialize` from `stream`, then serves the rest with the app of the negotiated version. */
  connect(stream: Stream): RoutedConnection {
    const { transport, maxMessageBytes } = streamTransport(stream);
    const v1 = this.#v1?.routed();
    const v2 = this.#v2?.routed();
    const routes = {
      v1: v1 && this.#v1 ? { protocol: this.#v1.protocol, handler: v1.handler } : undefined,
      v2: v2 && this.#v2 ? { protocol: this.#v2.protocol, handler: v2.handler } : undefined,
    };
    const app = this.#v1 ?? this.#v2;
    if (app === undefined) throw new TypeError("agentProtocolRouter().connect(stream): add an app first, with withV1(app) or withV2(app).");
    const options = app.options(maxMessageBytes);
    const routing = routeAgent(transport, routes as never, options);
    const closed = routing.then(async (routed) => {
      if (routed === undefined) return;
      (routed.version === 1 ? v1 : v2)?.bind(routed.connection);
      await routed.connection.closed;
    });
    return {
      closed,
      close: () => {
        void routing.then((routed) => routed?.connection.close());
        transport.close();
      },
    };
  }
}

/** A router with no app yet. */
export function agentProtocolRouter(): AgentProtocolRouter {
  return new AgentProtocolRouter();
}
