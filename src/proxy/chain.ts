/**
 * The wiring of a conductor: spawns the components, reads every hop
 * (`hop.ts`), asks the routing function where each message goes
 * (`route.ts`, by the rows of {@link ChainRows}), and keeps the ids and
 * cancellation of each hop; the agent's hop has the MCP bridge as a hook
 * (`mcp-hook.ts`). A message that goes on unchanged but for its id leaves as
 * the line it came in with (the id spliced in); it is parsed once, on the hop
 * it came from, and never validated here (the components validate).
 */
import { wireError, type ErrorObject } from "../errors.ts";
import type { ProcessExit } from "../transport/process.ts";
import { readerLimits } from "../transport/reader.ts";
import { spawnAgent, type SpawnAgentOptions } from "../transport/stdio.ts";
import type { Transport } from "../transport/transport.ts";
import type { ChainRows } from "./chain-rows.ts";
import { answerError, answerLine, holdUntil, idKey, makeHop, notificationLine, readHop, requestLine, type Hop, type Id, type Inbound } from "./hop.ts";
import { spliceOf, type Splice } from "./splice.ts";
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

/** Spawns the chain of `options` and routes it by `rows` (see `conductor.ts`). */
export function runChain(options: ConductOptions, rows: ChainRows): Conductor {
  const mode = options.mode ?? "terminal";
  if (options.components.length === 0) throw new TypeError("conduct: at least one component (the agent) is needed");
  const diagnostic = options.onDiagnostic ?? (() => {});
  const limits = readerLimits({ maxMessageBytes: options.maxMessageBytes });

  const peer = makeHop(PEER, mode === "terminal" ? "the client" : "the outer conductor", (text) => options.transport.write(text));
  const processes = options.components.map(([command, ...args], index) => {
    if (command === undefined) throw new TypeError(`conduct: component ${index} has no command`);
    return spawnAgent(command, args, { stderr: "inherit", ...options.spawn });
  });
  const hops = processes.map((p, index) => makeHop(index, `component ${index} (${(options.components[index] ?? []).join(" ")})`, (text) => p.transport.write(text)));
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
    return { cancel: () => sendNotification(hop, ...forUpstream(rows.cancel, { requestId: id })) };
  };
  const hook: AgentHook | undefined = agentHop === undefined ? undefined : mcpBridgeHook(rows, callUpstream, diagnostic);

  /** Sends a request on `target` on behalf of (`origin`, `originId`), or answers it with the target's exit. */
  function sendRequest(origin: Hop, originId: Id, target: Hop, method: string, params: unknown, from: Splice | undefined): void {
    if (!target.alive) return answerError(origin, originId, exited(target));
    const id = target.nextId++;
    target.pending.set(id, { origin, originId });
    origin.forwarded.set(idKey(originId), { target, id });
    if (target === agentHop && hook !== undefined) {
      if (method === rows.initialize) initializeIds.add(`${origin.index} ${idKey(originId)}`);
      const ready = hook.request(method, params);
      if (ready !== undefined)
        return holdUntil(
          target,
          ready.then((p) => requestLine(id, method, p)),
        );
    }
    target.send(requestLine(id, method, params, from));
  }
  function sendNotification(target: Hop, method: string, params: unknown, from?: Splice): void {
    if (target === agentHop && hook?.notification(method, params) === true) return;
    if (!target.alive) return diagnostic(`${method} for ${target.name} dropped: it has exited`);
    target.send(notificationLine(method, params, from));
  }

  /** Routes one message that `from` sent. */
  function message(from: Hop, m: Inbound): void {
    const decision = route(shape, rows, from.index, m);
    const id = m.kind === "request" ? (m.body.id as Id) : undefined;
    switch (decision.do) {
      case "answer":
        return answer(from, m);
      case "cancel":
        return cancel(from, m.body.params);
      case "ignore":
        return;
      case "refuse":
        if (decision.anonymous) return answerError(from, null, decision.error);
        if (id !== undefined) return answerError(from, id, decision.error);
        return diagnostic(`${m.body.method as string} notification from ${from.name} dropped: ${decision.error.message}`);
      case "forward": {
        const target = hopAt(decision.to);
        const text = spliceOf(m, decision.method, decision.same, rows.envelope);
        return id === undefined ? sendNotification(target, decision.method, decision.params, text) : sendRequest(from, id, target, decision.method, decision.params, text);
      }
    }
  }

  /** An answer to one of the conductor's own requests on `from`: passed back unchanged under the origin's id. */
  function answer(from: Hop, m: Inbound): void {
    const id = m.body.id as Id;
    const waiting = from.pending.get(id);
    if (waiting === undefined) return diagnostic(`answer from ${from.name} for unknown id ${JSON.stringify(id)} dropped`);
    from.pending.delete(id);
    if ("own" in waiting) return waiting.own(m.body);
    const { origin, originId } = waiting;
    origin.forwarded.delete(idKey(originId));
    const initialized = from === agentHop && initializeIds.delete(`${origin.index} ${idKey(originId)}`);
    if (!origin.alive) return;
    if (initialized && hook !== undefined && !("error" in m.body)) {
      return origin.send(JSON.stringify({ jsonrpc: "2.0", id: originId, result: hook.initializeAnswer(m.body.result) }));
    }
    origin.send(answerLine(originId, m));
  }

  /** `$/cancel_request` from `from` for one of its own ids: the conductor cancels its forwarded request on the next hop. */
  function cancel(from: Hop, params: unknown): void {
    const requestId = (params as { requestId?: unknown } | null)?.requestId;
    if (typeof requestId !== "string" && typeof requestId !== "number") return diagnostic(`${rows.cancel} from ${from.name} without a requestId dropped`);
    const forwarded = from.forwarded.get(idKey(requestId));
    if (forwarded === undefined) return; // answered already, or never forwarded: nothing to cancel
    sendNotification(forwarded.target, rows.cancel, { requestId: forwarded.id });
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
          waiting.origin.forwarded.delete(idKey(waiting.originId));
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
