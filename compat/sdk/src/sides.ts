/**
 * `AgentApp` and `ClientApp` for one table: `App` with the side's context
 * (`AgentContext` / `ClientContext`) and, for the client, the routing of
 * `session/update`s to its active sessions.
 */
import type { Protocol } from "../../../src/protocol.ts";
import { App, type SideHooks } from "./app.ts";
import { AgentContext, ClientContext } from "./contexts.ts";
import type { Sender } from "./sender.ts";
import { SessionRoutes } from "./sessions.ts";
import type { AppOptions } from "./wire-types.ts";

/** An ACP agent built from handlers by method: `agent().onRequest(…).connect(stream)`. */
export class AgentApp extends App<AgentContext> {
  constructor(protocol: Protocol, options?: AppOptions) {
    super("agent", protocol, options);
  }
  protected context(sender: Sender, requestId: string | number | undefined): AgentContext {
    return AgentContext.create(sender, requestId);
  }
}

interface ClientHooks extends SideHooks {
  readonly routes: SessionRoutes;
}

/** An ACP client built from handlers by method: `client().onRequest(…).connect(stream)`. */
export class ClientApp extends App<ClientContext> {
  constructor(protocol: Protocol, options?: AppOptions) {
    super("client", protocol, options);
  }
  protected context(sender: Sender, requestId: string | number | undefined, hooks: SideHooks): ClientContext {
    return ClientContext.create(sender, requestId, (hooks as ClientHooks).routes);
  }
  override hooks(): ClientHooks {
    const routes = new SessionRoutes();
    return {
      routes,
      beforeNotification(wire, params) {
        if (wire === "session/update") routes.deliver(params);
      },
    };
  }
}
