/**
 * The remote ACP server (RFD "Streamable HTTP & WebSocket Transport"): one
 * endpoint for Streamable HTTP (POST, GET event streams, DELETE) and, through
 * an adapter, WebSocket. Every connection is an ordinary agent connection
 * (`connectAgent`) over a transport, so every message passes the same
 * pipeline as stdio. Portable core: serve it with `serveNode` (node:http,
 * node:http2) or `handleRequest` (fetch-style runtimes).
 */
import { argumentError, checkHandler, checkOptions, checkProtocol, isProtocol } from "../arguments.ts";
import type { ProtocolTypes } from "../protocol.ts";
import { ErrorCode } from "../errors.ts";
import { handle } from "./endpoint.ts";
import { fromFetchRequest, toFetchResponse } from "./fetch.ts";
import type { RemoteServerOptions } from "./options.ts";
import { JSON_TYPE, nullIdErrorBody } from "./protocol.ts";
import type { RemoteRequest, RemoteResponse } from "./request.ts";
import type { EventSink } from "./sink.ts";
import { ServerState } from "./state.ts";
import { acceptSocket, prepareSocket, type AcceptedSocket, type SocketFlow } from "./websocket.ts";

/** Counts for tests, soak runs and dashboards: every one is zero on an idle server with no connections. */
export interface RemoteServerStats {
  readonly connections: number;
  readonly webSockets: number;
  readonly sessions: number;
  readonly streams: number;
  /** Summed over every connection's `stats()`. */
  readonly inFlightInbound: number;
  readonly pendingOutbound: number;
  readonly busyLanes: number;
  readonly timers: number;
  readonly abortListeners: number;
}

/** A remote ACP server: hand it requests through an adapter. */
export interface RemoteServer {
  /** Handles one request to the endpoint (adapters call this). Never rejects. */
  handle(request: RemoteRequest): Promise<RemoteResponse>;
  /** Fetch-style: handles one `Request` to the endpoint. */
  handleRequest(request: Request): Promise<Response>;
  /** Runs the auth hook on a request's headers (WebSocket adapters call it before upgrading). True without a hook. */
  authorize(header: (name: string) => string | undefined): Promise<boolean>;
  /** Before a WebSocket upgrade: the `Acp-Connection-Id` (and affinity cookie) to send in the 101 answer, or why the upgrade is refused. */
  prepareSocket(): { readonly connectionId: string; readonly setCookie: string | undefined } | { readonly refusal: string };
  /** After the upgrade: opens the connection whose frames go out through `sink`; `flow` pauses the socket under backpressure. */
  acceptSocket(connectionId: string, sink: EventSink, header: (name: string) => string | undefined, flow?: SocketFlow): AcceptedSocket;
  /** Counts summed over every open connection (streams, in-flight requests, queued bytes), for metrics and tests. */
  stats(): RemoteServerStats;
  /**
   * Drains and closes: new connections are refused (503) at once; running
   * requests get up to `graceMs` (default 5000) to answer, their answers
   * still going out; then every connection closes (turns still running are
   * cancelled) and every stream ends.
   */
  close(options?: { readonly graceMs?: number }): Promise<void>;
}

/** `handle`, and a 500 instead of a rejection should it ever throw: an adapter's `void server.handle(…)` must not leave a request unanswered. */
async function answer(state: ServerState, request: RemoteRequest): Promise<RemoteResponse> {
  try {
    return await handle(state, request);
  } catch {
    return { status: 500, headers: { "content-type": JSON_TYPE }, body: nullIdErrorBody({ code: ErrorCode.InternalError, message: "Internal error" }) };
  }
}

const CREATE_REMOTE_SERVER = "createRemoteServer({ protocol, agent, connection?, … })";

/** Checks `createRemoteServer`'s options at the call: nothing is started when one is wrong. */
function checkServerOptions(options: unknown): void {
  if (typeof options !== "object" || options === null || Array.isArray(options) || isProtocol(options)) {
    throw argumentError(CREATE_REMOTE_SERVER, "options", "an object { protocol, agent, … }", options, 'e.g. createRemoteServer({ protocol, agent }) with `protocol` from "acp-router" (v1) or "acp-router/v2".');
  }
  const { protocol, agent, connection } = options as Partial<RemoteServerOptions>;
  checkProtocol(CREATE_REMOTE_SERVER, "options.protocol", protocol, 'Pass the table every connection speaks: createRemoteServer({ protocol, agent }) with `import { protocol } from "acp-router"` (v1) or "acp-router/v2".');
  if (typeof agent !== "function") checkHandler(CREATE_REMOTE_SERVER, "options.agent", "agent", agent, "Pass your AgentHandler, or a function (info) => AgentHandler called once per connection.");
  checkOptions(CREATE_REMOTE_SERVER, "options.connection", connection);
}

/**
 * Creates a remote ACP server for `options.agent`, speaking `options.protocol`.
 * Throws a `TypeError` at the call when an option is not what it must be.
 */
export function createRemoteServer<T extends ProtocolTypes>(options: RemoteServerOptions<T>): RemoteServer {
  checkServerOptions(options);
  const state = new ServerState(options as unknown as RemoteServerOptions);
  const server: RemoteServer = {
    handle: (request) => answer(state, request),
    handleRequest: async (request) => toFetchResponse(await answer(state, fromFetchRequest(request))),
    async authorize(header) {
      try {
        return state.authorize === undefined || (await state.authorize(header));
      } catch {
        return false;
      }
    },
    prepareSocket: () => prepareSocket(state),
    acceptSocket: (connectionId, sink, header, flow) => acceptSocket(state, connectionId, sink, header, flow),
    stats() {
      let streams = 0;
      let inFlightInbound = 0;
      let pendingOutbound = 0;
      let busyLanes = 0;
      let timers = 0;
      let abortListeners = 0;
      for (const connection of state.all()) {
        streams += connection.streamCount;
        const s = connection.served?.stats();
        if (!s) continue;
        inFlightInbound += s.inFlightInbound;
        pendingOutbound += s.pendingOutbound;
        busyLanes += s.busyLanes;
        timers += s.timers;
        abortListeners += s.abortListeners;
      }
      return { connections: state.connectionCount, webSockets: state.sockets.size, sessions: state.counter.count, streams, inFlightInbound, pendingOutbound, busyLanes, timers, abortListeners };
    },
    async close(closeOptions = {}) {
      state.closing = true;
      const deadline = Date.now() + (closeOptions.graceMs ?? 5000);
      const busy = () => state.all().some((c) => (c.served?.stats().inFlightInbound ?? 0) > 0);
      while (busy() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      const closing = state.all().flatMap((c) => (c.served ? [c.served.closed] : []));
      for (const connection of state.all()) connection.fail("the server is shutting down");
      await Promise.all(closing);
    },
  };
  return server;
}
