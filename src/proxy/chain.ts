/**
 * The wiring of a conductor: spawns the components, reads every hop
 * (`hop.ts`), asks the routing function where each message goes
 * (`route.ts`, by the rows of {@link ChainRows}), and keeps the ids and
 * cancellation of each hop; the agent's hop has the MCP bridge as a hook
 * (`mcp-hook.ts`). A message leaves as its own text (`splice.ts`); its head
 * is read off its line, its body parsed only where read, never validated.
 */
import { wireError, type ErrorObject } from "../errors.ts";
import type { ProcessExit } from "../transport/process.ts";
import { readerLimits } from "../transport/reader.ts";
import { spawnAgent, type SpawnAgentOptions } from "../transport/stdio.ts";
import type { Transport } from "../transport/transport.ts";
import type { ChainRows } from "./chain-rows.ts";
import { answerError, holdUntil, lineWriter, makeHop, notificationLine, readHop, requestLine, type Hop, type Id, type Inbound } from "./hop.ts";
import { lineOf, paramsOf, withId, type How } from "./splice.ts";
import { mcpBridgeHook, type AgentHook, type UpstreamCall } from "./mcp-hook.ts";
import { PEER, route, type ChainShape } from "./route.ts";

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

/** A forwarded initialize's key: origin hop and id (`1` and `"1"` apart). */
const initializeKey = (origin: Hop, id: Id): string => `${origin.index} ${typeof id} ${id}`;

/** Spawns the chain of `options` and routes it by `rows` (see `conductor.ts`). */
export function runChain(options: ConductOptions, rows: ChainRows): Conductor {
  const mode = options.mode ?? "terminal";
  if (options.components.length === 0) throw new TypeError("conduct: at least one component (the agent) is needed");
  const diagnostic = options.onDiagnostic ?? (() => {});
  const limits = readerLimits({ maxMessageBytes: options.maxMessageBytes });

  const peer = makeHop(PEER, mode === "terminal" ? "the client" : "the outer conductor", lineWriter(options.transport));
  const processes = options.components.map(([command, ...args], index) => {
    if (command === undefined) throw new TypeError(`conduct: component ${index} has no command`);
    return spawnAgent(command, args, { stderr: "inherit", ...options.spawn });
  });
  const hops = processes.map((p, index) => makeHop(index, `component ${index} (${(options.components[index] ?? []).join(" ")})`, lineWriter(p.transport)));
  const last = hops.length - 1;
  const hopAt = (i: number): Hop => (i === PEER ? peer : (hops[i] as Hop));
  const shape: ChainShape = { last, mode, name: (i) => hopAt(i).name };
  const exited = (hop: Hop): ErrorObject => wireError.internal(`Internal error: ${hop.name} has exited`, { component: hop.index });

  /** The agent's hop (terminal mode): the one the MCP bridge stands in for. */
  const agentHop: Hop | undefined = mode === "terminal" ? hops[last] : undefined;
  /** The agent's own initialize requests (by origin hop and id), whose answers go through the hook. */
  const initializeIds = new Set<string>();
  const upstreamOfAgent = last === 0 ? peer : (hops[last - 1] as Hop);
  /** What the agent's side sends up the chain: to the last proxy in the envelope, or to the client as it is. */
  const forUpstream = (method: string, params: unknown): [string, unknown] => (last === 0 ? [method, params] : [rows.envelope, { method, params }]);
  const callUpstream: UpstreamCall = (method, params, answer) => {
    const hop = upstreamOfAgent;
    if (!hop.alive) return exited(hop);
    const id = hop.nextId++;
    hop.pending.set(id, { own: answer });
    const [wire, wrapped] = forUpstream(method, params);
    hop.send(requestLine(id, wire, wrapped));
    return { cancel: () => sendOwnNotification(hop, ...forUpstream(rows.cancel, { requestId: id })) };
  };
  const hook: AgentHook | undefined = agentHop === undefined ? undefined : mcpBridgeHook(rows, callUpstream, diagnostic);

  /** Sends `m` on `target` as `method` (text made as `how` says) for (`origin`, `originId`), or answers with the target's exit. */
  function sendRequest(origin: Hop, originId: Id, target: Hop, method: string, m: Inbound, how: How): void {
    if (!target.alive) return answerError(origin, originId, exited(target));
    const id = target.nextId++;
    target.pending.set(id, { origin, originId });
    origin.forwarded.set(originId, { target, id });
    if (target === agentHop && hook !== undefined) {
      if (method === rows.initialize) initializeIds.add(initializeKey(origin, originId));
      const ready = hook.request(method, () => paramsOf(m, how));
      if (ready !== undefined)
        return holdUntil(
          target,
          ready.then((p) => requestLine(id, method, p)),
        );
    }
    target.send(lineOf(id, method, m, how));
  }
  function sendNotification(target: Hop, method: string, m: Inbound, how: How): void {
    if (target === agentHop && hook?.notification(method, () => paramsOf(m, how)) === true) return;
    if (!target.alive) return diagnostic(`${method} for ${target.name} dropped: it has exited`);
    target.send(lineOf(undefined, method, m, how));
  }

  /** Routes one message that `from` sent. */
  function message(from: Hop, m: Inbound): void {
    const decision = route(shape, rows, from.index, m);
    switch (decision.do) {
      case "answer":
        return answer(from, m);
      case "cancel":
        return cancel(from, m.params());
      case "refuse":
        if (m.kind === "request") return answerError(from, m.id as Id, decision.error);
        return diagnostic(`${m.method} notification from ${from.name} dropped: ${decision.error.message}`);
      case "forward": {
        const target = hopAt(decision.to);
        return m.kind === "request" ? sendRequest(from, m.id as Id, target, decision.method, m, decision) : sendNotification(target, decision.method, m, decision);
      }
    }
  }

  /** An answer to one of the conductor's own requests on `from`: passed back unchanged under the origin's id. */
  function answer(from: Hop, m: Inbound): void {
    const id = m.id as Id;
    const waiting = from.pending.get(id);
    if (waiting === undefined) return diagnostic(`answer from ${from.name} for unknown id ${JSON.stringify(id)} dropped`);
    from.pending.delete(id);
    if ("own" in waiting) return waiting.own(m.body);
    const { origin, originId } = waiting;
    origin.forwarded.delete(originId);
    const initialized = from === agentHop && initializeIds.size > 0 && initializeIds.delete(initializeKey(origin, originId));
    if (!origin.alive) return;
    if (initialized && hook !== undefined && !("error" in m.body)) {
      return origin.send(JSON.stringify({ jsonrpc: "2.0", id: originId, result: hook.initializeAnswer(m.body.result) }));
    }
    origin.send(withId(m, originId));
  }

  /** `$/cancel_request` from `from` for one of its own ids: the conductor cancels its forwarded request on the next hop. */
  function cancel(from: Hop, params: unknown): void {
    const requestId = (params as { requestId?: unknown } | null)?.requestId;
    if (typeof requestId !== "string" && typeof requestId !== "number") return diagnostic(`${rows.cancel} from ${from.name} without a requestId dropped`);
    const forwarded = from.forwarded.get(requestId);
    if (forwarded === undefined) return; // answered already, or never forwarded: nothing to cancel
    sendOwnNotification(forwarded.target, rows.cancel, { requestId: forwarded.id });
  }
  function sendOwnNotification(target: Hop, method: string, params: unknown): void {
    if (!target.alive) return diagnostic(`${method} for ${target.name} dropped: it has exited`);
    target.send(notificationLine(method, params));
  }

  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    for (const p of processes) p.transport.close();
  };
  readHop(peer, options.transport, limits, message, close);
  processes.forEach((p, index) => {
    const hop = hops[index] as Hop;
    readHop(hop, p.transport, limits, message, () => {});
    void p.exited.then((exit) => {
      hop.alive = false;
      diagnostic(`${hop.name} exited${exit.code !== null ? ` with code ${exit.code}` : ` on ${exit.signal}`}`);
      // Whoever waits on it learns so now; what it waits on elsewhere is answered to no one.
      for (const [, waiting] of hop.pending) {
        if ("own" in waiting) waiting.own({ error: exited(hop) });
        else {
          waiting.origin.forwarded.delete(waiting.originId);
          answerError(waiting.origin, waiting.originId, exited(hop));
        }
      }
      hop.pending.clear();
    });
  });
  const closed = Promise.all(processes.map((p) => p.exited)).then(async (exits) => {
    options.transport.close();
    await hook?.close();
    return exits;
  });
  return { closed, close };
}
