// Cancellation races, property-tested: schedules interleave `$/cancel_request` (before the request
// arrives, while its handler runs, after it answered, twice, for unknown ids) and `session/cancel`
// with requests and their completion, which the test controls through deferred promises. Always
// exactly one answer per request; a prompt's stop reason is `cancelled` only when a cancel arrived
// before its answer was written; the answer is exactly what the handler and the cancel rules say.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { connectAgent, connectClient } from "../../src/index.ts";
import type { AgentHandler, ClientHandler } from "../../src/index.ts";
import { countingAgent, countingClient, deferred, rawWire, turn, type Answer, type Deferred, type RawWire } from "./support.ts";

/** How a handler reacts to its signal: ignores it, resolves with a cancelled result, or rejects with an AbortError. */
type Mode = "plain" | "abortAware" | "rejectOnAbort";

interface RequestSpec {
  readonly kind: "prompt" | "ext";
  readonly session: "s1" | "s2";
  readonly mode: Mode;
  /** How the test completes the handler: resolve with a normal result, or reject with a plain Error. */
  readonly completion: "resolve" | "reject";
}

type Event = { readonly t: "send"; readonly r: number } | { readonly t: "complete"; readonly r: number } | { readonly t: "cancel"; readonly r: number } | { readonly t: "sessionCancel"; readonly s: "s1" | "s2" } | { readonly t: "cancelUnknown" } | { readonly t: "flush" } | { readonly t: "micro" };

const requestSpec: fc.Arbitrary<RequestSpec> = fc.record({
  kind: fc.constantFrom("prompt" as const, "ext" as const),
  session: fc.constantFrom("s1" as const, "s2" as const),
  mode: fc.constantFrom<Mode>("plain", "abortAware", "rejectOnAbort"),
  completion: fc.constantFrom("resolve" as const, "reject" as const),
});

/** Requests plus a schedule: every request is sent then completed; cancels and pauses fall anywhere. */
const scenario = fc
  .array(requestSpec, { minLength: 1, maxLength: 4 })
  .chain((requests) => {
    const n = requests.length;
    const keyed = <E extends Event>(e: E) => fc.tuple(fc.nat(1000), fc.constant(e));
    const perRequest = requests.map((_, r) => fc.tuple(fc.nat(1000), fc.nat(1000), fc.array(keyed({ t: "cancel", r } as const), { maxLength: 2 })));
    const extras = fc.array(fc.oneof(fc.tuple(fc.nat(1000), fc.constantFrom<Event>({ t: "sessionCancel", s: "s1" }, { t: "sessionCancel", s: "s2" }, { t: "cancelUnknown" })), fc.tuple(fc.nat(1000), fc.constantFrom<Event>({ t: "flush" }, { t: "micro" }, { t: "micro" }))), { maxLength: 8 });
    return fc.tuple(fc.constant(requests), fc.tuple(...perRequest), extras, fc.array(fc.oneof(fc.integer({ min: 1, max: 1e6 }), fc.string({ minLength: 1, maxLength: 4 })), { minLength: n, maxLength: n }));
  })
  .map(([requests, perRequest, extras, rawIds]) => {
    const keyedEvents: [number, Event][] = [...extras];
    perRequest.forEach(([a, b, cancels], r) => {
      keyedEvents.push([Math.min(a, b), { t: "send", r }], [Math.max(a, b) + 0.5, { t: "complete", r }], ...cancels);
    });
    const events = keyedEvents.sort((x, y) => x[0] - y[0]).map(([, e]) => e);
    // Unique ids, strings and integers mixed: "1" and 1 are different requests.
    const ids = rawIds.map((id, r) => (typeof id === "number" ? id * 10 + r : `${id}#${r}`));
    return { requests, events, ids };
  });

interface Live {
  readonly done: Deferred<unknown>;
  signal: AbortSignal | undefined;
}

/** Registers a call: returns the promise the handler returns, reacting to the abort per mode. */
function track(live: Map<string, Live>, key: string, mode: Mode, signal: AbortSignal, cancelledResult: unknown): Promise<unknown> {
  const done = deferred<unknown>();
  live.set(key, { done, signal });
  if (mode !== "plain") {
    const onAbort = () => (mode === "abortAware" ? done.resolve(cancelledResult) : done.reject(new DOMException("aborted", "AbortError")));
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  }
  return done.promise;
}

const keyOf = (id: unknown) => JSON.stringify(id);
const answersFor = (wire: RawWire, id: unknown): Answer[] => wire.writes.map((w) => JSON.parse(w) as Answer).filter((a) => a.method === undefined && keyOf(a.id) === keyOf(id));

describe("cancellation races on the agent side (property)", () => {
  it("always answer each request exactly once, with cancelled only when a cancel beat the answer", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ requests, events, ids }) => {
        const live = new Map<string, Live>();
        const handler: AgentHandler = {
          ...countingAgent(),
          prompt: (params, ctx) => track(live, keyOf(ctx.requestId), (params._meta?.mode as Mode) ?? "plain", ctx.signal, { stopReason: "cancelled" }) as never,
          extMethod: (_m, params, ctx) => track(live, keyOf(ctx.requestId), params.mode as Mode, ctx.signal, { cancelled: true }) as never,
        };
        const wire = rawWire();
        const conn = connectAgent(handler, wire.transport);
        wire.send({ jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: 1 } });

        const sent = new Set<number>();
        const completed = new Set<number>();
        const cancelSeen = new Set<number>(); // a cancel arrived while in flight, before the answer was written
        const cancelBeforeComplete = new Set<number>(); // ... and before the test completed the handler
        const sessionCancelSeen = new Set<number>(); // a session/cancel arrived while in flight, before the answer
        const noteCancel = (r: number, bySession: boolean) => {
          if (sent.has(r) && answersFor(wire, ids[r]).length === 0) {
            cancelSeen.add(r);
            if (bySession) sessionCancelSeen.add(r);
            if (!completed.has(r)) cancelBeforeComplete.add(r);
          }
        };

        for (const e of events) {
          switch (e.t) {
            case "send": {
              const spec = requests[e.r] as RequestSpec;
              sent.add(e.r);
              wire.send(
                spec.kind === "prompt"
                  ? { jsonrpc: "2.0", id: ids[e.r], method: "session/prompt", params: { sessionId: spec.session, prompt: [{ type: "text", text: "go" }], _meta: { mode: spec.mode } } }
                  : { jsonrpc: "2.0", id: ids[e.r], method: "_x/slow", params: { sessionId: spec.session, mode: spec.mode } },
              );
              break;
            }
            case "complete": {
              completed.add(e.r);
              const call = live.get(keyOf(ids[e.r]));
              if ((requests[e.r] as RequestSpec).completion === "resolve") call?.done.resolve((requests[e.r] as RequestSpec).kind === "prompt" ? { stopReason: "end_turn" } : { done: true });
              else call?.done.reject(new Error("handler failed"));
              break;
            }
            case "cancel":
              noteCancel(e.r, false);
              wire.send({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: ids[e.r] } });
              break;
            case "sessionCancel":
              requests.forEach((spec, r) => spec.session === e.s && noteCancel(r, true));
              wire.send({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: e.s } });
              break;
            case "cancelUnknown":
              wire.send({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: "never-sent" } });
              break;
            case "flush":
              await turn();
              break;
            case "micro":
              await Promise.resolve();
          }
        }
        await turn();
        await turn();

        const notifications = wire.writes.map((w) => JSON.parse(w) as Answer).filter((a) => a.method !== undefined);
        if (notifications.length > 0) throw new Error(`the agent wrote messages of its own: ${JSON.stringify(notifications)}`);
        requests.forEach((spec, r) => {
          const answers = answersFor(wire, ids[r]);
          const where = `request ${r} (${JSON.stringify(spec)}, cancel seen: ${cancelSeen.has(r)}, by session/cancel: ${sessionCancelSeen.has(r)}, before completion: ${cancelBeforeComplete.has(r)})`;
          expect(answers, where).toHaveLength(1);
          const answer = answers[0] as Answer;
          // The invariant the brief names, checked on its own: cancelled only if a cancel beat the answer.
          if ((answer.result as { stopReason?: unknown } | undefined)?.stopReason === "cancelled") expect(cancelSeen.has(r), where).toBe(true);
          expect(live.get(keyOf(ids[r]))?.signal?.aborted, where).toBe(cancelSeen.has(r));
          expect(answer, where).toEqual({ jsonrpc: "2.0", id: ids[r], ...expected(spec, cancelSeen.has(r), sessionCancelSeen.has(r), cancelBeforeComplete.has(r)) });
        });
        expect(conn.stats()).toEqual({ pendingOutbound: 0, inFlightInbound: 0, busyLanes: 0, timers: 0, abortListeners: 0 });
        return true;
      }),
      { numRuns: 400 },
    );
  });
});

/**
 * The one answer the rules require (DESIGN §6, the table's onCancel; otherwise handler results pass
 * through). A prompt whose session was cancelled while it ran answers cancelled whatever its handler
 * returned (ACP prompt-turn: the agent MUST respond with the cancelled stop reason).
 */
function expected(spec: RequestSpec, cancelSeen: boolean, sessionCancelSeen: boolean, cancelBeforeComplete: boolean): { result: unknown } | { error: unknown } {
  const prompt = spec.kind === "prompt";
  if (prompt && sessionCancelSeen) return { result: { stopReason: "cancelled" } };
  const cancelledAnswer = prompt ? { result: { stopReason: "cancelled" } } : { error: { code: -32800, message: "Request cancelled" } };
  if (cancelBeforeComplete && spec.mode === "abortAware") return { result: prompt ? { stopReason: "cancelled" } : { cancelled: true } };
  if (cancelBeforeComplete && spec.mode === "rejectOnAbort") return cancelledAnswer;
  if (spec.completion === "resolve") return { result: prompt ? { stopReason: "end_turn" } : { done: true } };
  return cancelSeen ? cancelledAnswer : { error: { code: -32603, message: "Internal error" } };
}

describe("cancellation races on the client side (property)", () => {
  it("answers each permission request exactly once, with cancelled only when our session/cancel beat the handler's answer", async () => {
    type ClientEvent = { t: "send" | "complete"; r: number } | { t: "cancel"; s: "s1" | "s2" } | { t: "flush" } | { t: "micro" };
    const schedule = fc
      .array(fc.record({ session: fc.constantFrom("s1" as const, "s2" as const), outcome: fc.constantFrom("selected", "reject") }), { minLength: 1, maxLength: 4 })
      .chain((reqs) => fc.tuple(fc.constant(reqs), fc.tuple(...reqs.map(() => fc.tuple(fc.nat(1000), fc.nat(1000)))), fc.array(fc.tuple(fc.nat(1000), fc.constantFrom<ClientEvent>({ t: "cancel", s: "s1" }, { t: "cancel", s: "s2" }, { t: "flush" }, { t: "micro" })), { maxLength: 6 })))
      .map(([reqs, times, extras]) => {
        const keyed: [number, ClientEvent][] = [...extras];
        times.forEach(([a, b], r) => keyed.push([Math.min(a, b), { t: "send", r }], [Math.max(a, b) + 0.5, { t: "complete", r }]));
        return { reqs, events: keyed.sort((x, y) => x[0] - y[0]).map(([, e]) => e) };
      });

    await fc.assert(
      fc.asyncProperty(schedule, async ({ reqs, events }) => {
        const live = new Map<string, Live>();
        const handler: ClientHandler = {
          ...countingClient(),
          requestPermission: (_p, ctx) => track(live, keyOf(ctx.requestId), "plain", ctx.signal, undefined) as never,
        };
        const wire = rawWire();
        const conn = connectClient(handler, wire.transport);
        const init = conn.agent.initialize({ protocolVersion: 1 });
        wire.send({ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1, agentCapabilities: {} } });
        await init;
        const sent = new Set<number>();
        const cancelSeen = new Set<number>();
        for (const e of events) {
          if (e.t === "send") {
            sent.add(e.r);
            const spec = reqs[e.r] as (typeof reqs)[number];
            wire.send({ jsonrpc: "2.0", id: `p${e.r}`, method: "session/request_permission", params: { sessionId: spec.session, toolCall: { toolCallId: "t" }, options: [{ optionId: "allow", name: "Allow", kind: "allow_once" }] } });
          } else if (e.t === "complete") {
            const spec = reqs[e.r] as (typeof reqs)[number];
            live.get(keyOf(`p${e.r}`))?.done.resolve(spec.outcome === "selected" ? { outcome: { outcome: "selected", optionId: "allow" } } : { outcome: { outcome: "selected", optionId: "deny" } });
          } else if (e.t === "cancel") {
            reqs.forEach((spec, r) => {
              if (spec.session === e.s && sent.has(r) && answersFor(wire, `p${r}`).length === 0) cancelSeen.add(r);
            });
            await conn.agent.cancel({ sessionId: e.s });
          } else if (e.t === "flush") await turn();
          else await Promise.resolve();
        }
        await turn();
        await turn();
        reqs.forEach((spec, r) => {
          const answers = answersFor(wire, `p${r}`);
          const where = `permission request ${r} (${JSON.stringify(spec)}, cancel seen: ${cancelSeen.has(r)})`;
          expect(answers, where).toHaveLength(1);
          const outcome = cancelSeen.has(r) ? { outcome: "cancelled" } : { outcome: "selected", optionId: spec.outcome === "selected" ? "allow" : "deny" };
          expect(answers[0], where).toEqual({ jsonrpc: "2.0", id: `p${r}`, result: { outcome } });
          expect(live.get(keyOf(`p${r}`))?.signal?.aborted, where).toBe(cancelSeen.has(r));
        });
        expect(conn.stats()).toEqual({ pendingOutbound: 0, inFlightInbound: 0, busyLanes: 0, timers: 0, abortListeners: 0 });
        return true;
      }),
      { numRuns: 300 },
    );
  });
});
