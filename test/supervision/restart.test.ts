// Issue 49 item 4: a supervised client restarts an agent built on the official SDK that is killed
// mid-session, initializes it again with the app's own params, and brings each open session back
// the way the agent advertises — session/resume, session/load (its replay marked for the handler),
// or lost — with an event for the restart and for each session; the prompt in flight at the crash is
// rejected and never sent again, and the next prompt on a recovered session works. Then nothing of
// either agent is left running.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConnectionClosedError, SessionLostError, isReplay, protocol, superviseClient, type SessionNotification, type SupervisedClient, type SupervisionEvent } from "../../src/index.ts";
import { AgentExitedError, spawnAgent, type AgentProcess } from "../../src/transport/stdio.ts";
import { chunkText, params, testClient } from "../support/handlers.ts";
import { allGone, groupGone } from "../support/process-group.ts";
import { tempDir } from "../support/temp.ts";
import { repoRoot } from "./support.ts";

const sdkAgent = join(repoRoot, "test", "supervision", "fixtures", "sdk-agent.ts");
const supervised: SupervisedClient[] = [];

afterEach(() => {
  for (const s of supervised.splice(0)) s.close();
});

/** A supervised client of the SDK agent advertising `recover`; every agent it starts is kept, for its pid. */
function superviseSdkAgent(recover: "resume" | "load" | "none") {
  const dir = tempDir("acp-restart-");
  const log = join(dir, "log");
  const agents: AgentProcess[] = [];
  const events: SupervisionEvent[] = [];
  const updates: { readonly text: string | undefined; readonly replay: boolean }[] = [];
  const client = superviseClient(
    protocol,
    testClient({ sessionUpdate: (n: SessionNotification, ctx) => void updates.push({ text: chunkText(n) ?? (n.update.sessionUpdate === "user_message_chunk" && n.update.content.type === "text" ? `user: ${n.update.content.text}` : undefined), replay: isReplay(ctx) }) }).handler,
    () => {
      const agent = spawnAgent(process.execPath, ["--import", "tsx", sdkAgent, `--state=${dir}`, `--log=${log}`, `--recover=${recover}`], { cwd: repoRoot, stderr: "capture", graceMs: 500 });
      agents.push(agent);
      return agent;
    },
    { restart: { backoffMs: 10 }, onEvent: (e) => void events.push(e) },
  );
  supervised.push(client);
  const prompts = () => readFileSync(log, "utf8").trim().split("\n");
  return { client, agents, events, updates, prompts };
}

/** Two sessions with one answered turn each, then a "hang" turn in flight on the first; the agent is killed with SIGKILL. */
async function crashMidSession(s: ReturnType<typeof superviseSdkAgent>) {
  await s.client.agent.initialize(params.initialize());
  const one = (await s.client.agent.newSession(params.newSession())).sessionId;
  const two = (await s.client.agent.newSession(params.newSession())).sessionId;
  expect(await s.client.agent.prompt(params.prompt(one, "first"))).toEqual({ stopReason: "end_turn" });
  expect(await s.client.agent.prompt(params.prompt(two, "second"))).toEqual({ stopReason: "end_turn" });
  const inFlight = s.client.agent.prompt(params.prompt(one, "hang")).catch((e: unknown) => e);
  for (let i = 0; i < 500 && !s.prompts().some((l) => l.endsWith(" prompt hang")); i++) await new Promise((r) => setTimeout(r, 10));
  const first = s.agents[0] as AgentProcess;
  first.child.kill("SIGKILL");
  const error = await inFlight;
  expect(error).toBeInstanceOf(ConnectionClosedError);
  expect((error as ConnectionClosedError).cause).toBeInstanceOf(AgentExitedError);
  expect((error as { cause: AgentExitedError }).cause.signalName).toBe("SIGKILL");
  return { one, two };
}

/** Resolves once `events` holds one of `type`. */
async function eventOf(events: readonly SupervisionEvent[], type: SupervisionEvent["type"]): Promise<void> {
  for (let i = 0; i < 1500 && !events.some((e) => e.type === type); i++) await new Promise((r) => setTimeout(r, 10));
}

const kinds = (events: readonly SupervisionEvent[]) => events.map((e) => (e.type === "session" ? `session ${e.outcome}` : e.type));

describe("a supervised client of an SDK-built agent killed mid-session", () => {
  it("that advertises session/resume: restarts it, resumes both sessions, and the next prompt works; the hanging prompt was never sent again", async () => {
    const s = superviseSdkAgent("resume");
    const { one, two } = await crashMidSession(s);
    expect(await s.client.agent.prompt(params.prompt(one, "after"))).toEqual({ stopReason: "end_turn" });
    expect(await s.client.agent.prompt(params.prompt(two, "after too"))).toEqual({ stopReason: "end_turn" });
    expect(kinds(s.events)).toEqual(["exited", "restarting", "restarted", "session resumed", "session resumed", "recovered"]);
    expect(
      s.events
        .filter((e) => e.type === "session")
        .map((e) => (e as { sessionId: string }).sessionId)
        .sort(),
    ).toEqual([one, two].sort());
    expect(s.events[0]).toMatchObject({ type: "exited", willRestart: true });
    const [firstPid, secondPid] = s.agents.map((a) => a.child.pid);
    expect(s.prompts()).toEqual([`${firstPid} prompt first`, `${firstPid} prompt second`, `${firstPid} prompt hang`, `${secondPid} prompt after`, `${secondPid} prompt after too`]);
    expect(s.updates.every((u) => !u.replay)).toBe(true);
    s.client.close();
    expect(await allGone(s.agents.map((a) => a.child.pid as number))).toEqual([]);
    expect((await Promise.all(s.agents.map((a) => groupGone(a.child.pid as number)))).flat()).toEqual([]);
  });

  it("that advertises session/load: loads both sessions, its replay reaches the handler marked as replay, and the next prompt works", async () => {
    const s = superviseSdkAgent("load");
    const { one } = await crashMidSession(s);
    await eventOf(s.events, "recovered");
    expect(kinds(s.events)).toEqual(["exited", "restarting", "restarted", "session loaded", "session loaded", "recovered"]);
    const replayed = s.updates
      .filter((u) => u.replay)
      .map((u) => u.text)
      .sort();
    expect(replayed).toEqual(["echo: first", "echo: second", "user: first", "user: second"]);
    expect(s.updates.filter((u) => !u.replay).map((u) => u.text)).toEqual(["echo: first", "echo: second"]);
    expect(await s.client.agent.prompt(params.prompt(one, "after"))).toEqual({ stopReason: "end_turn" });
    expect(s.updates.at(-1)).toEqual({ text: "echo: after", replay: false });
    s.client.close();
    expect(await allGone(s.agents.map((a) => a.child.pid as number))).toEqual([]);
    expect((await Promise.all(s.agents.map((a) => groupGone(a.child.pid as number)))).flat()).toEqual([]);
  });

  it("that advertises neither: reports both sessions lost; a call on one rejects SessionLostError, a new session works", async () => {
    const s = superviseSdkAgent("none");
    const { one, two } = await crashMidSession(s);
    await eventOf(s.events, "recovered");
    expect(kinds(s.events)).toEqual(["exited", "restarting", "restarted", "session lost", "session lost", "recovered"]);
    expect(s.client.sessions()).toEqual([]);
    const lost = await s.client.agent.prompt(params.prompt(one, "after")).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(SessionLostError);
    expect((lost as Error).message).toBe(`session ${one} was lost when the agent restarted (the agent advertises neither session/resume nor session/load)`);
    await expect(s.client.agent.prompt(params.prompt(two, "after"))).rejects.toBeInstanceOf(SessionLostError);
    const { sessionId } = await s.client.agent.newSession(params.newSession());
    expect(await s.client.agent.prompt(params.prompt(sessionId, "fresh"))).toEqual({ stopReason: "end_turn" });
    s.client.close();
    expect(await allGone(s.agents.map((a) => a.child.pid as number))).toEqual([]);
    expect((await Promise.all(s.agents.map((a) => groupGone(a.child.pid as number)))).flat()).toEqual([]);
  });
});
