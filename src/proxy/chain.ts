/**
 * The wiring of a conductor: given its started components (`host.ts`:
 * processes, or proxies hosted in this process), reads every link (`hop.ts`), asks the
 * routing function where each message goes (`route.ts`, by the rows of
 * {@link ChainRows}), and hands it to the relay (`relay.ts`), which keeps the
 * ids and cancellation of each link; the agent's link has the MCP bridge as
 * a hook (`mcp-hook.ts`). A message leaves as its own text (`splice.ts`);
 * its head is read off its line, its body parsed only where read, never
 * validated. A message a hosted proxy passes verbatim (`verbatim.ts`) goes
 * past it to the next component as that proxy would have sent it on.
 */
import { wireError, type ErrorObject } from "../errors.ts";
import type { ProcessExit } from "../transport/process.ts";
import { readerLimits } from "../transport/reader.ts";
import type { Transport } from "../transport/transport.ts";
import type { ChainRows } from "./chain-rows.ts";
import { lineWriter, readHop } from "./hop.ts";
import { mcpBridgeHook, type AgentHook, type UpstreamCall } from "./mcp-hook.ts";
import { createRelay, type Id, type Link } from "./relay.ts";
import { PEER, route, type ChainShape, type Decision } from "./route.ts";
import { lineOf, notificationLine, paramsOf, requestLine, unwrappedLine, withId, type Inbound } from "./splice.ts";

/** How to run a chain whose components are started (`conductor.ts` starts them: `host.ts`). */
export interface ChainOptions {
  /** The conductor's own peer: a client (terminal mode) or an outer conductor (proxy mode). */
  readonly transport: Transport;
  /** `terminal` (default) or `proxy` (nested: the peer is an outer conductor). */
  readonly mode?: "terminal" | "proxy" | undefined;
  /** Largest line accepted from any link, in bytes (default 32 MiB); a longer one is answered `-32700` and skipped. */
  readonly maxMessageBytes?: number | undefined;
  /** One line per event the conductor handles itself (a refused message, a component's exit, a hosted proxy's fault); default: none. */
  readonly onDiagnostic?: ((message: string) => void) | undefined;
  /**
   * Sees every message that crosses a hop, as the component on each side would see it: `hop` is
   * the index of the component nearer the agent (0: the client ⇄ component 0), `toAgent` the
   * direction, `line` the text as sent on that hop (plain, never in the envelope). A message the
   * conductor carries past a hosted proxy is seen on both of that proxy's hops. For monitors and
   * traces (`acp-router conduct --trace`); default: none.
   */
  readonly tap?: ((hop: number, toAgent: boolean, line: string) => void) | undefined;
}

/** A started component, as the wiring sees it. */
export interface Component {
  readonly name: string;
  /** The conductor's end of its stream. */
  readonly transport: Transport;
  /** Settles when it ended: a process's exit; a hosted proxy's connection closing (code 0). */
  readonly exited: Promise<ProcessExit>;
  /** Whether it runs in the conductor's process. */
  readonly hosted: boolean;
  /** For a hosted proxy: whether a message with `method` going `toAgent` (or back) passes it verbatim once its initialize answered (`verbatim.ts`); undefined when nothing does. */
  readonly passes: ((toAgent: boolean, method: string) => boolean) | undefined;
}

/** A running chain. */
export interface Conductor {
  /** Settles when the peer's stream ended and every component ended, with each component's exit. */
  readonly closed: Promise<readonly ProcessExit[]>;
  /** Ends the chain now, as if the peer had left. */
  close(): void;
  /** Why the chain ended itself (a hosted proxy failed to initialize); undefined while it serves, or when its peer ended it. */
  failure(): string | undefined;
}

/** A hop a message crosses, for the tap: the hop's index, its direction, and the id it carries there (none: a notification). */
interface Crossing {
  readonly hop: number;
  readonly toAgent: boolean;
  readonly id: Id | undefined;
}

/** What a forwarded request is marked with: an initialize whose answer the conductor reads on its way back, and the hops it crossed (for the tap). */
interface Mark {
  readonly initialize: "agent" | "hosted" | undefined;
  /** The component a hosted initialize went to. */
  readonly index: number;
  /** Set once the request's id on its last hop is known. */
  crossed: readonly Crossing[] | undefined;
}

type Forward = Extract<Decision, { do: "forward" }>;

/** Routes the chain of started `components` by `rows` (see `conductor.ts`). */
export function runChain(options: ChainOptions, rows: ChainRows, components: readonly Component[]): Conductor {
  const mode = options.mode ?? "terminal";
  const last = components.length - 1;
  const diagnostic = options.onDiagnostic ?? (() => {});
  const tap = options.tap;
  const limits = readerLimits({ maxMessageBytes: options.maxMessageBytes });
  const relay = createRelay();
  let failure: string | undefined;

  const peer = relay.link(mode === "terminal" ? "the client" : "the outer conductor", lineWriter(options.transport));
  const links = components.map((c) => relay.link(c.name, lineWriter(c.transport)));
  /** Hosted proxies whose own initialize answered: what they pass verbatim goes past them from now on. */
  const open = components.map(() => false);
  const anyHosted = components.some((c) => c.passes !== undefined);
  /** The hosted proxies the message being routed went past (`pastVerbatim` fills it anew for each). */
  const past: number[] = [];
  const linkAt = (i: number): Link => (i === PEER ? peer : (links[i] as Link));
  const shape: ChainShape = { last, mode, name: (i) => linkAt(i).name };
  const exited = (link: Link, index: number): ErrorObject => wireError.internal(`Internal error: ${link.name} has exited`, { component: index });

  /** The agent's link (terminal mode): the one the MCP bridge stands in for. */
  const agentLink: Link | undefined = mode === "terminal" ? links[last] : undefined;
  const upstreamOfAgent = last === 0 ? peer : (links[last - 1] as Link);
  /** What the agent's side sends up the chain: to the last proxy in the envelope, or to the client as it is. */
  const forUpstream = (method: string, params: unknown): [string, unknown] => (last === 0 ? [method, params] : [rows.envelope, { method, params }]);
  const callUpstream: UpstreamCall = (method, params, answer) => {
    const link = upstreamOfAgent;
    if (!relay.alive(link)) return exited(link, last - 1);
    const [wire, wrapped] = forUpstream(method, params);
    const id = relay.call(link, (i) => requestLine(i, wire, wrapped), answer);
    return { cancel: () => void relay.send(link, notificationLine(...forUpstream(rows.cancel, { requestId: id }))) };
  };
  const hook: AgentHook | undefined = agentLink === undefined ? undefined : mcpBridgeHook(rows, callUpstream, diagnostic);

  /** Whether `d` travels down the chain (to a component, from its predecessor). */
  const down = (d: Forward): boolean => d.to !== PEER && d.how !== "wrap";
  /** The method of the plain message `d` carries (a wrap's is the message's own). */
  const plainMethod = (d: Forward, m: Inbound): string => (d.how === "wrap" ? m.method : "inner" in d ? d.inner.method : d.method);

  /**
   * Where a forwarded message really goes: past each open hosted proxy that passes it verbatim,
   * as that proxy would have sent it on (down the chain: to its successor, as it came; up: to its
   * predecessor, wrapped unless that is the peer); the components it went past are left in
   * `past` (emptied first; read before the next message).
   */
  function pastVerbatim(decision: Forward, m: Inbound, past: number[]): Forward {
    past.length = 0;
    if (!anyHosted) return decision;
    let d = decision;
    for (;;) {
      const to = d.to;
      const c = to === PEER ? undefined : components[to];
      // A rewrap (proxy mode: the outer chain's envelope for the tail) and the tail itself stay where they go.
      if (c?.passes === undefined || !open[to] || d.how === "rewrap" || (down(d) && to >= last)) return d;
      const method = plainMethod(d, m);
      if (!c.passes(down(d), method)) return d;
      // A session's cancel that goes past it reaches its own connection too, for what runs there (as its pass-through path hands it on).
      if (method === rows.sessionCancel) relay.send(linkAt(to), lineOf(undefined, method, m, d));
      past.push(to);
      d = down(d) ? { ...d, to: to + 1 } : to === 0 ? { do: "forward", to: PEER, method: m.method, how: "same" } : { ...d, to: to - 1 };
    }
  }

  /** The hops a message from component `from` (`PEER`: the peer) crosses to reach `d.to`, past `past` (for the tap). */
  function crossings(from: number, d: Forward, past: readonly number[], originId: Id | undefined, id: Id | undefined): Crossing[] {
    const toAgent = down(d);
    // Hop h joins component h-1 (the peer for h = 0) and component h.
    const first = toAgent ? (past[0] ?? d.to) : from;
    return [{ hop: first, toAgent, id: originId }, ...past.map((c) => ({ hop: toAgent ? c + 1 : c, toAgent, id }))];
  }
  /** The plain message `m` is on a hop as `d` forwards it, under `id`: as its sender wrote it, never in the envelope or renamed for a proxy. */
  const plainLine = (d: Forward, m: Inbound, id: Id | undefined): string => ("inner" in d ? unwrappedLine(id, d.inner.method, d.inner) : withId(m, id));
  /** Shows the tap `text` (a plain message made under each crossing's id) on each hop it crosses. */
  function show(crossed: readonly Crossing[], toAgent: boolean, text: (id: Id | undefined) => string): void {
    if (tap !== undefined) for (const c of toAgent ? crossed : [...crossed].reverse()) tap(c.hop, toAgent === c.toAgent, text(c.id));
  }

  /** Sends `m` that arrived from `fromIndex` as `originId` on as `d` says, or answers with the target's exit. */
  function sendRequest(fromIndex: number, originId: Id, d: Forward, past: readonly number[], m: Inbound): void {
    const from = linkAt(fromIndex);
    const target = linkAt(d.to);
    if (!relay.alive(target)) return void relay.send(from, errorLine(originId, exited(target, d.to)));
    const initialize = d.method === rows.initialize && target === agentLink ? "agent" : d.method === rows.proxyInitialize && components[d.to]?.hosted === true ? "hosted" : undefined;
    const params = target === agentLink && hook !== undefined ? hook.request(d.method, () => paramsOf(m, d)) : undefined;
    // What the answer needs read back: an initialize, or the hops the tap shows it on (undefined, the usual case: nothing).
    const mark: Mark | undefined = initialize === undefined && tap === undefined ? undefined : { initialize, index: d.to, crossed: undefined };
    // Its own id where it is free: the line and its answer go on as they are.
    const id = relay.request(from, originId, target, m, mark, true);
    if (tap !== undefined && mark !== undefined) {
      const crossed = crossings(fromIndex, d, past, originId, id);
      mark.crossed = crossed;
      show(crossed, true, (i) => plainLine(d, m, i));
    }
    // The MCP bridge rewrites the params of a session-opening request: the link holds what follows until they are ready.
    if (params === undefined) relay.send(target, lineOf(id, d.method, m, d));
    else
      relay.hold(
        target,
        params.then((p) => requestLine(id, d.method, p)),
      );
  }
  function sendNotification(fromIndex: number, d: Forward, past: readonly number[], m: Inbound): void {
    const target = linkAt(d.to);
    if (target === agentLink && hook?.notification(d.method, () => paramsOf(m, d)) === true) return;
    if (tap !== undefined) show(crossings(fromIndex, d, past, undefined, undefined), true, () => plainLine(d, m, undefined));
    if (!relay.send(target, lineOf(undefined, d.method, m, d))) diagnostic(`${d.method} for ${target.name} dropped: it has exited`);
  }

  /** Routes one message that arrived on link `index` (`PEER` for the peer). */
  function message(index: number, m: Inbound): void {
    const from = linkAt(index);
    const decision = route(shape, rows, index, m);
    switch (decision.do) {
      case "answer":
        return answer(from, m);
      case "cancel":
        return cancel(from, m.params());
      case "refuse":
        if (m.kind === "request") return void relay.send(from, errorLine(m.id as Id, decision.error));
        return diagnostic(`${m.method} notification from ${from.name} dropped: ${decision.error.message}`);
      case "forward": {
        const d = pastVerbatim(decision, m, past);
        return m.kind === "request" ? sendRequest(index, m.id as Id, d, past, m) : sendNotification(index, d, past, m);
      }
    }
  }

  /** An answer to one of the conductor's own requests on `from`: passed back unchanged under the origin's id. */
  function answer(from: Link, m: Inbound): void {
    const id = m.id as Id;
    const owed = relay.answer(from, id);
    if (owed === undefined) return diagnostic(`answer from ${from.name} for unknown id ${JSON.stringify(id)} dropped`);
    if (typeof owed === "function") return owed(m.body);
    const { origin, originId } = owed;
    const mark = owed.mark as Mark | undefined;
    if (mark?.crossed !== undefined) show(mark.crossed, false, (i) => withId(m, i as Id));
    if (origin === undefined || !relay.alive(origin)) return;
    if (mark === undefined) return void relay.send(origin, withId(m, originId));
    if (mark.initialize === "hosted") {
      if ("error" in m.body) {
        const error = m.body.error as { message?: unknown };
        failure = `${linkAt(mark.index).name} failed to initialize: ${String(error.message)}`;
        diagnostic(`${failure}; the chain ends`);
      } else open[mark.index] = true;
    }
    if (mark.initialize === "agent" && hook !== undefined && !("error" in m.body)) relay.send(origin, JSON.stringify({ jsonrpc: "2.0", id: originId, result: hook.initializeAnswer(m.body.result) }));
    else relay.send(origin, withId(m, originId));
    // After a hosted proxy failed to initialize, the chain ends once an answer reached the peer (the error, passed up the chain).
    if (failure !== undefined && origin === peer) close();
  }

  /** `$/cancel_request` from `from` for one of its own ids: the conductor cancels its forwarded request where it went. */
  function cancel(from: Link, params: unknown): void {
    const requestId = (params as { requestId?: unknown } | null)?.requestId;
    if (typeof requestId !== "string" && typeof requestId !== "number") return diagnostic(`${rows.cancel} from ${from.name} without a requestId dropped`);
    const where = relay.cancel(from, requestId);
    if (where === undefined) return; // answered already, never forwarded, or cancelled already: nothing to cancel
    if (!relay.send(where.to, notificationLine(rows.cancel, { requestId: where.id }))) diagnostic(`${rows.cancel} for ${where.to.name} dropped: it has exited`);
  }

  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    for (const c of components) c.transport.close();
  };
  readHop(peer, options.transport, limits, relay, (m) => message(PEER, m), close);
  components.forEach((c, index) => {
    const link = links[index] as Link;
    readHop(
      link,
      c.transport,
      limits,
      relay,
      (m) => message(index, m),
      () => {},
    );
    void c.exited.then((exit) => {
      diagnostic(`${link.name} ${c.hosted ? "closed" : `exited${exit.code !== null ? ` with code ${exit.code}` : ` on ${exit.signal}`}`}`);
      // Whoever waits on it learns so now; what it waits on elsewhere is answered to no one.
      relay.end(link, (owed) => {
        if (typeof owed === "function") return owed({ error: exited(link, index) });
        const { origin, originId } = owed;
        if (origin !== undefined) relay.send(origin, errorLine(originId, exited(link, index)));
      });
    });
  });
  const closed = Promise.all(components.map((c) => c.exited)).then(async (exits) => {
    options.transport.close();
    await hook?.close();
    return exits;
  });
  return { closed, close, failure: () => failure };
}

/** An error answer's line. */
const errorLine = (id: Id | null, error: ErrorObject): string => JSON.stringify({ jsonrpc: "2.0", id, error });
