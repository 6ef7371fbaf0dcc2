// Issue 49 item 3 on a client connection over any transport (here the in-memory pair, in this
// process): the watchdog gives up on a call the agent leaves in silence, tells the app first, and
// does what the app chose (wait, reject, kill); a slow agent that keeps talking, and an agent that
// waits on the client's own answer, are never given up on. Short silences set by the test.
import { describe, expect, it } from "vitest";
import { ConnectionClosedError, UnresponsiveError, connectClient, memoryPair, type AgentHandler, type Diagnostic, type UnresponsiveEvent, type WatchdogDecision } from "../../src/index.ts";
import { connectAgent } from "../../src/index.ts";
import { deferred, delay, until } from "../support/async.ts";
import { params, testAgent, testClient } from "../support/handlers.ts";

const idle = { pendingOutbound: 0, inFlightInbound: 0, busyLanes: 0, timers: 0, abortListeners: 0 };

/** An agent whose prompt and extension methods never answer (until cancelled), and a client with a watchdog of `silenceMs`. */
async function silentPair(silenceMs: number, decide?: (event: UnresponsiveEvent) => WatchdogDecision | undefined, overrides: Partial<AgentHandler> = {}) {
  const [a, c] = memoryPair();
  const cancels: string[] = [];
  const agent = connectAgent(
    testAgent({
      prompt: (_p, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener("abort", () => {
            cancels.push(String((ctx.signal.reason as { cause?: unknown }).cause));
            resolve({ stopReason: "cancelled" });
          });
        }),
      extMethod: (_m, _p, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve({}))),
      ...overrides,
    }).handler,
    a,
  );
  const events: UnresponsiveEvent[] = [];
  const diagnostics: Diagnostic[] = [];
  let killed = 0;
  const transport = Object.assign(c, { kill: () => void killed++ });
  const client = connectClient(testClient().handler, transport, {
    watchdog: { silenceMs, onUnresponsive: (e) => (events.push(e), decide?.(e)) },
    onDiagnostic: (d) => diagnostics.push(d),
  });
  await client.agent.initialize(params.initialize());
  const { sessionId } = await client.agent.newSession(params.newSession());
  return { agent, client, sessionId, events, diagnostics, cancels, killed: () => killed };
}

describe("a client connection's watchdog", () => {
  it("rejects a call the agent leaves silent for silenceMs with UnresponsiveError, cancels it, and keeps the connection serving", async () => {
    const { client, sessionId, events, cancels } = await silentPair(60);
    const error = await client.agent.prompt(params.prompt(sessionId)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnresponsiveError);
    expect(error).toMatchObject({ code: -32800, cause: "unresponsive", method: "session/prompt", silenceMs: 60 });
    expect((error as UnresponsiveError).silentMs).toBeGreaterThanOrEqual(60);
    expect((error as Error).message).toMatch(/^Request "session\/prompt" got no message from the agent for \d+ ms \(watchdog silenceMs 60\); the agent is unresponsive$/);
    expect(events).toHaveLength(1);
    expect(events[0]?.requests).toEqual([{ id: 2, method: "session/prompt", sessionId, waitedMs: expect.any(Number) as number }]);
    // $/cancel_request reached the agent's handler; the connection still answers.
    await until(() => cancels.length > 0, "the agent's handler cancelled");
    expect(cancels).toEqual(["cancel_request"]);
    expect(await client.agent.newSession(params.newSession())).toEqual({ sessionId: "sess-2" });
    expect(client.stats()).toEqual(idle);
    client.close();
  });

  it("keeps waiting when the app says wait, asks again after another silenceMs, and kills when the app says kill", async () => {
    const decisions: WatchdogDecision[] = ["wait", "kill"];
    const { client, sessionId, events, killed } = await silentPair(40, () => decisions.shift());
    const other = client.request("_never", {}).catch((e: unknown) => e);
    const error = await client.agent.prompt(params.prompt(sessionId)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnresponsiveError);
    expect(events).toHaveLength(2);
    // The first look lists the calls silent for silenceMs at that instant: _never, and session/prompt too unless
    // it was sent a fraction of a millisecond too late to have reached 40 ms by then. The second lists both.
    const [first, second] = events.map((e) => e.requests.map((r) => r.method));
    expect(first?.[0]).toBe("_never");
    expect(["_never", "session/prompt"]).toEqual(expect.arrayContaining(first ?? []));
    expect(second).toEqual(["_never", "session/prompt"]);
    // Kill: the silent calls are rejected as such, the connection closes naming it, the transport's kill runs.
    expect(await other).toBeInstanceOf(UnresponsiveError);
    const closed = await client.closed;
    expect(closed.error).toBeInstanceOf(UnresponsiveError);
    expect(closed.reason).toMatch(/watchdog silenceMs 40/);
    expect(killed()).toBe(1);
    await expect(client.agent.newSession(params.newSession())).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(client.stats()).toEqual(idle);
  });

  it("never gives up on a slow agent that keeps sending updates", async () => {
    const { client, sessionId, events } = await silentPair(400, undefined, {
      async prompt({ sessionId: s }, ctx) {
        for (let i = 0; i < 6; i++) {
          await delay(100);
          await ctx.peer.sessionUpdate(params.update(s, `step ${i}`));
        }
        return { stopReason: "end_turn" };
      },
    });
    expect(await client.agent.prompt(params.prompt(sessionId))).toEqual({ stopReason: "end_turn" });
    expect(events).toEqual([]);
    client.close();
  });

  it("does not count the agent's silence while it waits on the client's answer, and counts again from that answer", async () => {
    const answer = deferred();
    const [a, c] = memoryPair();
    const events: UnresponsiveEvent[] = [];
    connectAgent(
      testAgent({
        async prompt({ sessionId }, ctx) {
          await ctx.peer.requestPermission(params.permission(sessionId));
          return { stopReason: "end_turn" };
        },
      }).handler,
      a,
    );
    const client = connectClient(testClient({ requestPermission: async () => (await answer.promise, { outcome: { outcome: "selected", optionId: "allow" } }) }).handler, c, { watchdog: { silenceMs: 150, onUnresponsive: (e) => void events.push(e) } });
    await client.agent.initialize(params.initialize());
    const prompt = client.agent.prompt(params.prompt("s"));
    await delay(600); // four silences long: the agent waits on the human
    answer.resolve();
    expect(await prompt).toEqual({ stopReason: "end_turn" });
    expect(events).toEqual([]);
    client.close();
  });

  it("gives up only on calls that waited silenceMs themselves, not on one sent a moment ago", async () => {
    const { client, sessionId, events } = await silentPair(100);
    const first = client.agent.prompt(params.prompt(sessionId)).catch((e: unknown) => e);
    await delay(70);
    const second = client.request("_later", {}).catch((e: unknown) => e);
    expect(await first).toBeInstanceOf(UnresponsiveError);
    expect(events[0]?.requests.map((r) => r.method)).toEqual(["session/prompt"]);
    expect(await second).toBeInstanceOf(UnresponsiveError);
    expect(events[1]?.requests.map((r) => r.method)).toEqual(["_later"]);
    client.close();
  });

  it("rejects when onUnresponsive throws, reporting it, and reports every decision as a diagnostic", async () => {
    const { client, sessionId, diagnostics } = await silentPair(30, () => {
      throw new Error("app bug");
    });
    expect(await client.agent.prompt(params.prompt(sessionId)).catch((e: unknown) => e)).toBeInstanceOf(UnresponsiveError);
    const watchdog = diagnostics.filter((d) => d.kind === "watchdog").map((d) => d.message);
    expect(watchdog).toEqual(["watchdog: onUnresponsive threw; the silent calls are rejected: app bug", expect.stringMatching(/^watchdog: no message from the agent for \d+ ms with 1 call\(s\) in flight \(session\/prompt\); reject$/)]);
    client.close();
  });

  it("refuses a watchdog without a positive silenceMs, naming the option", () => {
    const [, c] = memoryPair();
    expect(() => connectClient(testClient().handler, c, { watchdog: { silenceMs: 0 } })).toThrow(new TypeError("connectClient(handler, transport, options?): watchdog.silenceMs must be a number of milliseconds from 1 to 2147483647; got 0. e.g. { watchdog: { silenceMs: 30_000 } }."));
    expect(() => connectClient(testClient().handler, c, { watchdog: {} as never })).toThrow(/watchdog.silenceMs must be a number/);
  });
});
