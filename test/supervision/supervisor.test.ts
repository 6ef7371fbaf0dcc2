// Issue 49 item 4, the policy: a supervised client over any transport (here in-process agents on the
// memory pair, whose connection this side can end as a crash would) initializes each new agent with
// the app's own params, backs off doubling, gives up past the restart limit with a clear error,
// restarts when the app or the watchdog asks, stops when the app's watchdog says kill, and never
// restarts with `restart: false`.
import { describe, expect, it } from "vitest";
import { ConnectionClosedError, RestartLimitError, UnresponsiveError, connectAgent, memoryPair, protocol, superviseClient, type AgentConnection, type AgentHandler, type InitializeRequest, type SupervisionEvent, type WatchdogDecision } from "../../src/index.ts";
import { spawnAgent, type AgentProcess } from "../../src/transport/stdio.ts";
import { params, testAgent, testClient } from "../support/handlers.ts";
import { allGone, groupGone } from "../support/process-group.ts";
import { stub } from "./support.ts";

/** Starts in-process agents: each start makes a new one on a memory pair; `agents` keeps their connections (to end them) and what each was initialized with. */
function inProcessAgents(overrides: Partial<AgentHandler> = {}) {
  const agents: { conn: AgentConnection; init: InitializeRequest[] }[] = [];
  const start = () => {
    const [a, c] = memoryPair();
    const init: InitializeRequest[] = [];
    const conn = connectAgent(testAgent({ initialize: (p) => (init.push(p), { protocolVersion: 1, agentCapabilities: { loadSession: false } }), ...overrides }).handler, a);
    agents.push({ conn, init });
    return c;
  };
  return { agents, start };
}

const kinds = (events: readonly SupervisionEvent[]) => events.map((e) => (e.type === "session" ? `session ${e.outcome}` : e.type));

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1500 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
}

describe("a supervised client", () => {
  it("initializes each restarted agent with the app's own initialize params, over any transport", async () => {
    const { agents, start } = inProcessAgents();
    const events: SupervisionEvent[] = [];
    const client = superviseClient(protocol, testClient().handler, start, { restart: { backoffMs: 1 }, onEvent: (e) => void events.push(e) });
    const init = params.initialize({ fs: { readTextFile: true } });
    await client.agent.initialize(init);
    agents[0]?.conn.close("crash");
    await until(() => events.some((e) => e.type === "recovered"));
    expect(agents.map((a) => a.init)).toEqual([[init], [init]]);
    expect(kinds(events)).toEqual(["exited", "restarting", "restarted", "recovered"]);
    expect(await client.agent.newSession(params.newSession())).toEqual({ sessionId: "sess-1" });
    client.close();
    expect(await client.closed).toEqual({ reason: "closed by the app", error: undefined });
  });

  it("backs off doubling between restarts and gives up past the intensity with RestartLimitError", async () => {
    const { agents, start } = inProcessAgents();
    const events: SupervisionEvent[] = [];
    const client = superviseClient(protocol, testClient().handler, start, { restart: { intensity: 2, periodMs: 60_000, backoffMs: 5 }, onEvent: (e) => void events.push(e) });
    await client.agent.initialize(params.initialize());
    for (let n = 1; n <= 3; n++) {
      await until(() => agents.length === n && (n === 1 || events.filter((e) => e.type === "recovered").length === n - 1));
      agents[n - 1]?.conn.close("crash");
    }
    const end = await client.closed;
    expect(end.error).toBeInstanceOf(RestartLimitError);
    expect(end.reason).toBe("the agent ended again after 2 restarts within 60000 ms; not restarting it (restart intensity 2, period 60000 ms): the peer closed the stream");
    expect(events.filter((e) => e.type === "restarting").map((e) => (e as { delayMs: number }).delayMs)).toEqual([5, 10]);
    expect(kinds(events)).toEqual(["exited", "restarting", "restarted", "recovered", "exited", "restarting", "restarted", "recovered", "exited", "gave-up"]);
    await expect(client.agent.newSession(params.newSession())).rejects.toBe(end.error);
  });

  it("restarts when the app asks (restart()), counted like a crash", async () => {
    const { agents, start } = inProcessAgents();
    const events: SupervisionEvent[] = [];
    const client = superviseClient(protocol, testClient().handler, start, { restart: { backoffMs: 1 }, onEvent: (e) => void events.push(e) });
    await client.agent.initialize(params.initialize());
    const first = client.connection;
    await client.restart();
    expect(client.connection).not.toBe(first);
    expect(agents).toHaveLength(2);
    expect(kinds(events)).toEqual(["exited", "restarting", "restarted", "recovered"]);
    client.close();
  });

  it("does not restart with restart: false; its end carries the cause", async () => {
    const { agents, start } = inProcessAgents();
    const events: SupervisionEvent[] = [];
    const client = superviseClient(protocol, testClient().handler, start, { restart: false, onEvent: (e) => void events.push(e) });
    await client.agent.initialize(params.initialize());
    agents[0]?.conn.close("crash");
    expect(await client.closed).toEqual({ reason: "the peer closed the stream", error: undefined });
    expect(events).toEqual([{ type: "exited", reason: "the peer closed the stream", error: undefined, willRestart: false }]);
    await expect(client.agent.newSession(params.newSession())).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(agents).toHaveLength(1);
  });

  for (const [decision, restarts] of [
    ["restart", true],
    ["kill", false],
  ] as const) {
    it(`rejects a silent agent's prompt and ${restarts ? "restarts it" : "ends supervision"} when the app's watchdog says ${decision}`, async () => {
      const { agents, start } = inProcessAgents({ prompt: () => new Promise(() => undefined) });
      const events: SupervisionEvent[] = [];
      const client = superviseClient(protocol, testClient().handler, start, {
        restart: { backoffMs: 1 },
        watchdog: { silenceMs: 50, onUnresponsive: (): WatchdogDecision => decision },
        onEvent: (e) => void events.push(e),
      });
      await client.agent.initialize(params.initialize());
      const { sessionId } = await client.agent.newSession(params.newSession());
      const error = await client.agent.prompt(params.prompt(sessionId)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnresponsiveError);
      if (restarts) {
        await until(() => events.some((e) => e.type === "recovered"));
        expect(kinds(events)).toEqual(["unresponsive", "exited", "restarting", "restarted", "session lost", "recovered"]);
        expect(agents).toHaveLength(2);
        client.close();
      } else {
        const end = await client.closed;
        expect(end.error).toBeInstanceOf(UnresponsiveError);
        expect(kinds(events)).toEqual(["unresponsive"]);
        expect(agents).toHaveLength(1);
      }
    });
  }
});

describe("a supervised client of a spawned agent that dies on every prompt", () => {
  it("rejects each prompt naming the exit, restarts, and gives up past the limit; no process is left", async () => {
    const spawned: AgentProcess[] = [];
    const events: SupervisionEvent[] = [];
    const client = superviseClient(
      protocol,
      testClient().handler,
      () => {
        const agent = spawnAgent(process.execPath, [stub, "--on-prompt=die", "--stderr-lines=1"], { stderr: "capture" });
        spawned.push(agent);
        return agent;
      },
      { restart: { intensity: 1, backoffMs: 1 }, onEvent: (e) => void events.push(e) },
    );
    await client.agent.initialize(params.initialize());
    const first = await client.agent.newSession(params.newSession());
    await expect(client.agent.prompt(params.prompt(first.sessionId))).rejects.toThrow("connection closed: agent process exited with code 3; last stderr lines:\nstub stderr line 1");
    const again = await client.agent.newSession(params.newSession());
    await expect(client.agent.prompt(params.prompt(again.sessionId))).rejects.toBeInstanceOf(ConnectionClosedError);
    const end = await client.closed;
    expect(end.error).toBeInstanceOf(RestartLimitError);
    expect((end.error as Error).message).toMatch(/^the agent ended again after 1 restart within 60000 ms; not restarting it \(restart intensity 1, period 60000 ms\): agent process exited with code 3/);
    expect(kinds(events)).toEqual(["exited", "restarting", "restarted", "session lost", "recovered", "exited", "gave-up"]);
    expect(await allGone(spawned.map((a) => a.child.pid as number))).toEqual([]);
    expect((await Promise.all(spawned.map((a) => groupGone(a.child.pid as number)))).flat()).toEqual([]);
  });
});
