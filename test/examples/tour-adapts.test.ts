// The tour (examples/tour.ts) adapts to what an agent advertised: an in-process agent with one
// mode, two config options, session/list that fails, and no session/load or session/close.
import { describe, expect, it } from "vitest";
import { connectAgent, connectClient, memoryPair, RpcError, type AgentHandler, type SessionConfigOption, type SetSessionConfigOptionRequest } from "../../src/index.ts";
import { createClientSession } from "../../examples/client-session.ts";
import { createTranscript } from "../../examples/transcript.ts";
import { runTour } from "../../examples/tour.ts";

const configOptions: SessionConfigOption[] = [
  {
    id: "model",
    name: "Model",
    type: "select",
    currentValue: "small",
    options: [
      {
        group: "sizes",
        name: "Sizes",
        options: [
          { value: "small", name: "Small" },
          { value: "large", name: "Large" },
        ],
      },
    ],
  },
  { id: "think", name: "Think", type: "boolean", currentValue: false },
];

function oneModeAgent(configCalls: SetSessionConfigOptionRequest[]): AgentHandler {
  return {
    initialize: () => ({ protocolVersion: 1, agentCapabilities: { sessionCapabilities: { list: {} } } }),
    authenticate: () => ({}),
    newSession: () => ({ sessionId: "s1", modes: { currentModeId: "only", availableModes: [{ id: "only", name: "Only" }] }, configOptions }),
    listSessions: () => {
      throw new RpcError(-32000, "no session index here");
    },
    setSessionMode: () => ({}),
    setSessionConfigOption: (params) => {
      configCalls.push(params);
      return { configOptions: configOptions.map((o) => (o.id === params.configId ? ({ ...o, currentValue: params.value } as SessionConfigOption) : o)) };
    },
    prompt: async (params, ctx) => {
      const first = params.prompt[0];
      await ctx.peer.sessionUpdate({ sessionId: params.sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `ok: ${first?.type === "text" ? first.text : "?"}` } } });
      return { stopReason: "end_turn" };
    },
  };
}

describe("the tour against an agent with one mode, config options, a failing session/list and no load or close", () => {
  it("runs what the agent offers, skips the rest saying why, and goes on after an error answer", async () => {
    const [clientEnd, agentEnd] = memoryPair();
    const configCalls: SetSessionConfigOptionRequest[] = [];
    connectAgent(oneModeAgent(configCalls), agentEnd);
    let out = "";
    const transcript = createTranscript({ write: (text: string) => (out += text) });
    const conn = connectClient({ requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: (n) => transcript.update(n) }, clientEnd);
    const init = await conn.agent.initialize({ protocolVersion: 1 });
    const created = await conn.agent.newSession({ cwd: "/project", mcpServers: [] });
    const session = createClientSession(conn, created.sessionId, "/project", transcript);

    const report = await runTour(session, { capabilities: init.agentCapabilities, modes: created.modes, configOptions: created.configOptions });

    expect(report.ran).toEqual([
      "1. A first prompt: a greeting, its answer streamed",
      "2. A prompt about a file in the session's directory (the agent may ask permission and read it through fs/read_text_file)",
      "3. A prompt asking for a plan",
      "5. Config options: set Model to large",
      "6. Cancellation: a long prompt, cancelled after 1 s with session/cancel",
    ]);
    expect(report.skipped).toEqual([
      { step: "4. Modes", why: "the agent advertised only the mode only" },
      { step: "7. Listing the sessions in this directory (session/list)", why: "failed (-32000 no session index here)" },
      { step: "8. Loading the session", why: "the agent does not advertise session/load" },
      { step: "9. Resuming the session", why: "the agent does not advertise session/resume" },
      { step: "10. Forking the session", why: "the agent does not advertise session/fork (unstable)" },
      { step: "11. Models", why: "the agent offered no models" },
      { step: "12. Closing the session", why: "the agent does not advertise session/close" },
    ]);
    expect(configCalls).toEqual([{ sessionId: "s1", configId: "model", value: "large" }]);
    expect(out).toContain("\n> /config model large\n  Model is now large\n");
    expect(out).toContain("\n== 4. Modes: skipped, the agent advertised only the mode only\n");
    expect(out).toContain("\n> /list\n  failed (-32000 no session index here); going on\n");
    expect(out).toContain("\n== 12. Closing the session: skipped, the agent does not advertise session/close\n");
    expect(out.trimEnd().endsWith("Tour done: 5 steps ran; skipped: 4, 7, 8, 9, 10, 11, 12.")).toBe(true);
    expect(session.stopReasons).toEqual(["end_turn", "end_turn", "end_turn", "end_turn"]);
    conn.close();
  });

  it("sets a boolean option to the other value when it is the first one with a choice", async () => {
    const [clientEnd, agentEnd] = memoryPair();
    const configCalls: SetSessionConfigOptionRequest[] = [];
    connectAgent(oneModeAgent(configCalls), agentEnd);
    const transcript = createTranscript({ write: () => {} });
    const conn = connectClient({ requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {} }, clientEnd);
    await conn.agent.initialize({ protocolVersion: 1 });
    await conn.agent.newSession({ cwd: "/project", mcpServers: [] });
    const session = createClientSession(conn, "s1", "/project", transcript);
    const onlyBoolean = configOptions.slice(1);
    const report = await runTour(session, { configOptions: onlyBoolean });
    expect(report.ran).toContain("5. Config options: set Think to true");
    expect(configCalls).toEqual([{ sessionId: "s1", configId: "think", type: "boolean", value: true }]);
    conn.close();
  });
});
