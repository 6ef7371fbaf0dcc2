/**
 * The conductor of an ACP proxy chain (the Proxy Chains RFD): it spawns each
 * component in its own process group and routes every message between them
 * and its own peer, which sees one ordinary agent.
 *
 *     peer ⇄ conductor ⇄ proxy 0 ⇄ … ⇄ proxy n-1 ⇄ agent
 *
 * - **Initialization**: `initialize` from the peer goes to component 0 as
 *   `proxy/initialize` when it has a successor, else as `initialize`; a
 *   proxy's `proxy/successor` carrying `initialize` goes on the same way.
 * - **Wrapping**: a proxy's `proxy/successor` is unwrapped and sent to its
 *   successor; what a component sends towards its predecessor (updates,
 *   permission requests, file reads) is wrapped in `proxy/successor` for the
 *   proxy before it, and goes to the peer unwrapped from component 0. Results
 *   and errors travel back unchanged. The envelope's `_meta` stays on its hop.
 * - **Ids**: every hop has its own ids; the conductor keeps, per hop, which
 *   of its own requests answers which incoming one (`1` and `"1"` apart).
 * - **Cancellation**: `$/cancel_request` names an id of its own hop; the
 *   conductor cancels its own forwarded request on the next hop (with that
 *   hop's id). `session/cancel` is an ordinary notification here.
 * - **Modes**: terminal (default; the peer is a client and the last
 *   component is an agent) or proxy (`mode: "proxy"`: the peer is an outer
 *   conductor, every component is a proxy, and the last one's successor is
 *   the outer chain, reached through `proxy/successor` on the peer's hop).
 * - **Failures**: a message the conductor cannot route is answered by the
 *   conductor itself on that hop (`-32700` not JSON, `-32600` not JSON-RPC,
 *   `-32602` a `proxy/successor` without `method`, `-32603` a successor that
 *   exited, naming it); the rest of the chain keeps serving. When a
 *   component exits, requests waiting on it are answered with that error.
 * - **Lifetime**: when the peer's stream ends, every component's stdin is
 *   closed and each group gets the usual grace, then SIGTERM, then SIGKILL
 *   (as `spawnAgent`); if this process dies, the groups die with it.
 *
 * - **MCP-over-ACP** (the RFD: the conductor advertises `mcpCapabilities.acp`
 *   and bridges for an agent without it): when the agent's `initialize`
 *   answer lacks `mcpCapabilities.acp`, the answer passed back says `true`,
 *   and every `type: "acp"` server in a `session/new`, `load`, `resume` or
 *   `fork` on its way to the agent becomes a loopback `type: "http"` entry
 *   of a bridge (`acp-router/mcp`'s `startBridge`: 127.0.0.1, bearer token,
 *   bounded body and concurrency). The bridge's requests go back up the
 *   chain as `mcp/message` calls from the agent's side; the provider's
 *   `mcp/message` notifications for them are delivered to the bridge, not
 *   to the agent; closing an HTTP request cancels its call. The bridge
 *   closes with the conductor.
 */
import { classify } from "../jsonrpc/classify.ts";
import { parseValue, ParseFailure } from "../jsonrpc/parse.ts";
import { RpcError, wireError, type ErrorObject } from "../errors.ts";
import { createFramer, DEFAULT_MAX_MESSAGE_BYTES } from "../transport/framer.ts";
import type { ProcessExit } from "../transport/process.ts";
import { spawnAgent, type SpawnAgentOptions } from "../transport/stdio.ts";
import type { Transport } from "../transport/transport.ts";
import { isAcpServer, outcomeOf, type McpOutcome } from "../mcp/binding.ts";
import { startBridge, type McpBridge } from "../mcp/bridge.ts";
import type { ExchangeOptions } from "../mcp/server-transport.ts";

/** How to run a chain. */
export interface ConductOptions {
  /** The components, in order: each a command and its arguments. The last is the agent (terminal mode) or a proxy (proxy mode). */
  readonly components: readonly (readonly string[])[];
  /** The conductor's own peer: a client (terminal mode) or an outer conductor (proxy mode). */
  readonly transport: Transport;
  /** `terminal` (default) or `proxy` (nested: the peer is an outer conductor). */
  readonly mode?: "terminal" | "proxy" | undefined;
  /** Spawn options for every component (cwd, env, stderr, grace). Default stderr: `inherit`. */
  readonly spawn?: SpawnAgentOptions | undefined;
  /** Largest line accepted from any hop, in bytes (default 32 MiB); a longer one is answered `-32700` and skipped. */
  readonly maxMessageBytes?: number | undefined;
  /** One line per event the conductor handles itself (a refused message, a component's exit); default: none. */
  readonly onDiagnostic?: ((message: string) => void) | undefined;
}

/** A running chain. */
export interface Conductor {
  /** Settles when the peer's stream ended and every component exited, with each component's exit. */
  readonly closed: Promise<readonly ProcessExit[]>;
  /** Ends the chain now, as if the peer had left. */
  close(): void;
}

type Id = string | number;
/** One hop: the peer (index -1) or a component. */
interface Hop {
  readonly index: number;
  readonly name: string;
  readonly write: (message: object) => void;
  /** The conductor's requests on this hop, by id: whom to answer, and with which id; or, for its own calls (the MCP bridge's), what to call. */
  readonly pending: Map<Id, { readonly origin: Hop; readonly originId: Id } | { readonly own: (answer: Record<string, unknown>) => void }>;
  /** Requests received on this hop that the conductor forwarded: where, and under which id, for `$/cancel_request`. */
  readonly forwarded: Map<string, { readonly target: Hop; readonly id: Id }>;
  nextId: number;
  alive: boolean;
  /** Messages held back while the MCP bridge starts (the agent's hop only); undefined when none. */
  held: object[] | undefined;
}

const idKey = (id: Id) => `${typeof id}:${id}`;

/** Spawns the chain and routes it; see the module comment. */
export function conduct(options: ConductOptions): Conductor {
  const mode = options.mode ?? "terminal";
  if (options.components.length === 0) throw new TypeError("conduct: at least one component (the agent) is needed");
  const diagnostic = options.onDiagnostic ?? (() => {});
  const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;

  const peer: Hop = makeHop(-1, mode === "terminal" ? "the client" : "the outer conductor", (m) => options.transport.write(`${JSON.stringify(m)}\n`));
  const processes = options.components.map(([command, ...args], index) => {
    if (command === undefined) throw new TypeError(`conduct: component ${index} has no command`);
    return spawnAgent(command, args, { stderr: "inherit", ...options.spawn });
  });
  const hops: Hop[] = processes.map((p, index) => makeHop(index, `component ${index} (${(options.components[index] ?? []).join(" ")})`, (m) => p.transport.write(`${JSON.stringify(m)}\n`)));
  const last = hops.length - 1;
  /** Whether component `i` has a successor (and so is a proxy). */
  const hasSuccessor = (i: number) => i < last || mode === "proxy";

  function makeHop(index: number, name: string, write: (m: object) => void): Hop {
    const hop: Hop = { index, name, write: (m) => (hop.held !== undefined ? void hop.held.push(m) : write(m)), pending: new Map(), forwarded: new Map(), nextId: 0, alive: true, held: undefined };
    return hop;
  }

  /** Sends a request on `target` on behalf of (`origin`, `originId`), or answers it with the target's exit. */
  function sendRequest(origin: Hop, originId: Id, target: Hop, method: string, params: unknown): void {
    if (!target.alive) return answerError(origin, originId, exited(target));
    const id = target.nextId++;
    target.pending.set(id, { origin, originId });
    origin.forwarded.set(idKey(originId), { target, id });
    const message = params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
    if (target === agentHop) {
      if (method === "initialize") initializeIds.add(`${origin.index} ${idKey(originId)}`);
      else rewriteForBridge(message);
    }
    target.write(message);
  }
  function sendNotification(target: Hop, method: string, params: unknown): void {
    if (target === agentHop && method === "mcp/message" && toBridge(params)) return;
    if (!target.alive) return diagnostic(`${method} for ${target.name} dropped: it has exited`);
    target.write(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }
  function answerError(hop: Hop, id: Id | null, error: ErrorObject): void {
    if (hop.alive) hop.write({ jsonrpc: "2.0", id, error });
  }
  const exited = (hop: Hop): ErrorObject => ({ code: -32603, message: `Internal error: ${hop.name} has exited`, data: { component: hop.index } });

  // ── MCP-over-ACP for an agent without mcpCapabilities.acp ──
  /** The agent's hop (terminal mode), the one the bridge stands in for. */
  const agentHop: Hop | undefined = mode === "terminal" ? hops[last] : undefined;
  /** The agent's own initialize requests (by origin hop and id), whose answers say whether it speaks MCP over ACP. */
  const initializeIds = new Set<string>();
  /** Undefined until the agent answered initialize without mcpCapabilities.acp; then the bridge (started once). */
  let bridge: Promise<McpBridge> | undefined;
  /** The bridge's calls in flight, by inner request id: where its provider's notifications go. */
  const bridgeCalls = new Map<string, ExchangeOptions["notify"]>();
  let bridgeRequests = 0;

  const isAgentInitialize = (from: Hop, origin: Hop, originId: Id) => from === agentHop && initializeIds.delete(`${origin.index} ${idKey(originId)}`);

  /** The agent's initialize answer as passed back: `mcpCapabilities.acp` true, the conductor bridging when the agent lacks it. */
  function withBridgedMcp(result: unknown): unknown {
    const r = result as { agentCapabilities?: { mcpCapabilities?: { acp?: unknown } } } | null;
    if (typeof r !== "object" || r === null || r.agentCapabilities?.mcpCapabilities?.acp === true) return result;
    bridge ??= startBridge(forwardFromBridge);
    const caps = r.agentCapabilities ?? {};
    return { ...r, agentCapabilities: { ...caps, mcpCapabilities: { ...caps.mcpCapabilities, acp: true } } };
  }

  /**
   * Rewrites `message` (a request on its way to the agent) once the bridge
   * listens: each `acp` server in its `mcpServers` becomes the bridge's
   * `http` entry. The agent's hop holds it, and everything after it, until then.
   */
  function rewriteForBridge(message: { method: string; params?: unknown }): void {
    const servers = (message.params as { mcpServers?: unknown } | null)?.mcpServers;
    if (bridge === undefined || agentHop === undefined || !Array.isArray(servers) || !servers.some(isAcpServer)) return;
    if (message.method !== "session/new" && message.method !== "session/load" && message.method !== "session/resume" && message.method !== "session/fork") return;
    const hop = agentHop;
    const held: object[] = hop.held ?? [];
    hop.held = held;
    const release = () => {
      if (hop.held !== held) return;
      hop.held = undefined;
      for (const m of held) hop.write(m);
    };
    void bridge.then(
      (b) => {
        message.params = { ...(message.params as object), mcpServers: servers.map((s: unknown) => (isAcpServer(s) ? b.declare(s) : s)) };
        release();
      },
      (error: unknown) => {
        diagnostic(`the MCP bridge did not start (${error instanceof Error ? error.message : String(error)}); acp servers go to the agent unchanged`);
        release();
      },
    );
  }

  /** The bridge's call: `mcp/message` up the chain from the agent's side; its provider's notifications come back to `notify`. */
  function forwardFromBridge(serverId: string, request: { requestId: string; method: string; params?: Record<string, unknown> | undefined }, options: ExchangeOptions): Promise<McpOutcome> {
    const upstream = last === 0 ? peer : (hops[last - 1] as Hop);
    const requestId = `conductor-${++bridgeRequests}`;
    const inner = { serverId, requestId, method: request.method, ...(request.params === undefined ? {} : { params: request.params }) };
    if (!upstream.alive) return Promise.reject(RpcError.fromObject(exited(upstream)));
    return new Promise((resolve, reject) => {
      const id = upstream.nextId++;
      bridgeCalls.set(requestId, options.notify);
      const done = () => {
        bridgeCalls.delete(requestId);
        options.signal?.removeEventListener("abort", cancel);
      };
      const cancel = () => sendNotification(upstream, ...wrapForUpstream("$/cancel_request", { requestId: id }));
      upstream.pending.set(id, {
        own: (answer) => {
          done();
          const outcome = "error" in answer ? undefined : outcomeOf(answer.result);
          if (outcome !== undefined) return resolve(outcome);
          // An outer error (a binding failure upstream) stays one: the bridge answers the agent with it.
          const error = answer.error as Partial<ErrorObject> | undefined;
          reject(error !== undefined && typeof error.code === "number" ? new RpcError(error.code, String(error.message), error.data) : RpcError.internal("mcp/message was answered without result or error"));
        },
      });
      options.signal?.addEventListener("abort", cancel, { once: true });
      const [method, params] = wrapForUpstream("mcp/message", inner);
      upstream.write({ jsonrpc: "2.0", id, method, params });
    });
  }

  /** What the agent's side sends up the chain: to the last proxy inside proxy/successor, or to the client as it is. */
  function wrapForUpstream(method: string, params: unknown): [string, unknown] {
    return last === 0 ? [method, params] : ["proxy/successor", { method, params }];
  }

  /** An `mcp/message` notification on its way to the agent: true when it belongs to a bridge call (and went there). */
  function toBridge(params: unknown): boolean {
    const p = params as { requestId?: unknown; method?: unknown; params?: unknown } | null;
    const notify = typeof p?.requestId === "string" ? bridgeCalls.get(p.requestId) : undefined;
    if (notify === undefined || typeof p?.method !== "string") return false;
    notify(p.method, (p.params ?? undefined) as Record<string, unknown> | undefined);
    return true;
  }

  /** The hop after `from` (towards the agent): the next component, or in proxy mode after the last one, the peer. */
  const successorOf = (from: Hop): Hop | undefined => (from.index < last ? hops[from.index + 1] : mode === "proxy" ? peer : undefined);

  /** Routes one parsed message that `from` sent. */
  function route(from: Hop, body: Record<string, unknown>): void {
    const kind = classify(body);
    if (kind === "response") return answer(from, body);
    if (kind === "unidentified_request") return answerError(from, null, wireError.unusableId());
    if (kind === "unknown") {
      if (!("result" in body) && !("error" in body)) answerError(from, null, wireError.notJsonRpc());
      return;
    }
    const method = body.method as string;
    const id = kind === "request" ? (body.id as Id) : undefined;
    const params = body.params;
    if (method === "$/cancel_request") return cancel(from, params);

    if (from === peer) {
      // The peer speaks to the head of the chain; in proxy mode, proxy/successor carries the outer successor's messages to the tail.
      if (mode === "proxy" && method === "proxy/successor") return deliverFromSuccessor(hops[last] as Hop, id, params);
      const head = hops[0] as Hop;
      const wire = method === "initialize" && hasSuccessor(0) ? "proxy/initialize" : method;
      return id === undefined ? sendNotification(head, wire, params) : sendRequest(peer, id, head, wire, params);
    }
    if (method === "proxy/successor") return forwardToSuccessor(from, id, params);
    // Anything else from a component goes towards its predecessor.
    if (from.index === 0) return id === undefined ? sendNotification(peer, method, params) : sendRequest(from, id, peer, method, params);
    const before = hops[from.index - 1] as Hop;
    const envelope = params === undefined ? { method } : { method, params };
    return id === undefined ? sendNotification(before, "proxy/successor", envelope) : sendRequest(from, id, before, "proxy/successor", envelope);
  }

  /** A component's `proxy/successor`: unwrapped for its successor (the `_meta` of the envelope stays here). */
  function forwardToSuccessor(from: Hop, id: Id | undefined, params: unknown): void {
    const inner = unwrap(params);
    if (typeof inner === "string") {
      if (id !== undefined) answerError(from, id, wireError.invalidParams({ errors: [{ path: "/method", message: inner }] }));
      else diagnostic(`proxy/successor notification from ${from.name} dropped: ${inner}`);
      return;
    }
    const target = successorOf(from);
    if (target === undefined) {
      if (id !== undefined) answerError(from, id, wireError.methodNotFound("proxy/successor", `${from.name} is the agent: it has no successor`));
      return;
    }
    if (target === peer) {
      // Proxy mode: the tail's successor is the outer chain, spoken to in the same envelope.
      const envelope = inner.params === undefined ? { method: inner.method } : { method: inner.method, params: inner.params };
      return id === undefined ? sendNotification(peer, "proxy/successor", envelope) : sendRequest(from, id, peer, "proxy/successor", envelope);
    }
    const wire = inner.method === "initialize" && hasSuccessor(target.index) ? "proxy/initialize" : inner.method;
    return id === undefined ? sendNotification(target, wire, inner.params) : sendRequest(from, id, target, wire, inner.params);
  }

  /** Proxy mode: what the outer successor sent, handed to the tail wrapped as it came. */
  function deliverFromSuccessor(tail: Hop, id: Id | undefined, params: unknown): void {
    const inner = unwrap(params);
    if (typeof inner === "string") {
      if (id !== undefined) answerError(peer, id, wireError.invalidParams({ errors: [{ path: "/method", message: inner }] }));
      return;
    }
    const envelope = inner.params === undefined ? { method: inner.method } : { method: inner.method, params: inner.params };
    return id === undefined ? sendNotification(tail, "proxy/successor", envelope) : sendRequest(peer, id, tail, "proxy/successor", envelope);
  }

  /** An answer to one of the conductor's own requests on `from`: passed back unchanged under the origin's id. */
  function answer(from: Hop, body: Record<string, unknown>): void {
    const id = body.id as Id;
    const route = from.pending.get(id);
    if (route === undefined) return diagnostic(`answer from ${from.name} for unknown id ${JSON.stringify(id)} dropped`);
    from.pending.delete(id);
    if ("own" in route) return route.own(body);
    route.origin.forwarded.delete(idKey(route.originId));
    if (isAgentInitialize(from, route.origin, route.originId) && !("error" in body)) body = { result: withBridgedMcp(body.result) };
    if (!route.origin.alive) return;
    route.origin.write("error" in body ? { jsonrpc: "2.0", id: route.originId, error: body.error } : { jsonrpc: "2.0", id: route.originId, result: body.result });
  }

  /** `$/cancel_request` from `from` for one of its own ids: the conductor cancels its forwarded request on the next hop. */
  function cancel(from: Hop, params: unknown): void {
    const requestId = (params as { requestId?: unknown } | null)?.requestId;
    if (typeof requestId !== "string" && typeof requestId !== "number") return diagnostic(`$/cancel_request from ${from.name} without a requestId dropped`);
    const forwarded = from.forwarded.get(idKey(requestId));
    if (forwarded === undefined) return; // answered already, or never forwarded: nothing to cancel
    sendNotification(forwarded.target, "$/cancel_request", { requestId: forwarded.id });
  }

  /** Reads one hop's stream: lines, parsed once, routed; the hop's own errors answered on it. */
  function read(hop: Hop, transport: Transport, onEnd: () => void): void {
    const framer = createFramer(
      {
        line(text) {
          const value = parseValue(text);
          if (value instanceof ParseFailure) return answerError(hop, null, wireError.parse(value.reason));
          if (Array.isArray(value)) return answerError(hop, null, wireError.batchRejected(value.length === 0));
          if (typeof value !== "object" || value === null) return answerError(hop, null, wireError.notJsonRpc());
          route(hop, value as Record<string, unknown>);
        },
        oversized: () => answerError(hop, null, wireError.lineTooLong(maxBytes)),
      },
      maxBytes,
    );
    transport.start({ data: (chunk) => framer.push(chunk), end: () => (framer.end(), onEnd()) });
  }

  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    for (const p of processes) p.transport.close();
  };
  read(peer, options.transport, close);
  processes.forEach((p, index) => {
    const hop = hops[index] as Hop;
    read(hop, p.transport, () => {});
    void p.exited.then((exit) => {
      hop.alive = false;
      diagnostic(`${hop.name} exited${exit.code !== null ? ` with code ${exit.code}` : ` on ${exit.signal}`}`);
      // Whoever waits on it learns so now; what it waits on elsewhere is answered to no one.
      for (const [, waiting] of hop.pending) {
        if ("own" in waiting) waiting.own({ error: exited(hop) });
        else answerError(waiting.origin, waiting.originId, exited(hop));
      }
      hop.pending.clear();
    });
  });
  const closed = Promise.all(processes.map((p) => p.exited)).then(async (exits) => {
    options.transport.close();
    await bridge?.then((b) => b.close()).catch(() => {});
    return exits;
  });
  return { closed, close };
}

/** The wrapped message of a `proxy/successor`, or why there is none. */
function unwrap(params: unknown): { method: string; params: unknown } | string {
  if (typeof params !== "object" || params === null || Array.isArray(params)) return "proxy/successor params must be an object with a method";
  const p = params as { method?: unknown; params?: unknown };
  if (typeof p.method !== "string") return "proxy/successor needs the wrapped message's method (a string)";
  const inner = p.params === null ? undefined : p.params;
  if (inner !== undefined && typeof inner !== "object") return "proxy/successor params.params must be an object or an array";
  return { method: p.method, params: inner };
}
