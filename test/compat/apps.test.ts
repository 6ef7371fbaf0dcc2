// The SDK's builder API on the compatibility package, both ends in one process: agent().connect(client
// app), the client's session helpers (buildSession, withSession, prompt, readText, nextUpdate) and a
// terminal handle.
import { describe, expect, it } from "vitest";
import * as acp from "../../compat/sdk/src/index.ts";

const chunk = (sessionId: string, text: string) => ({ sessionId, update: { sessionUpdate: "agent_message_chunk" as const, content: { type: "text" as const, text } } });

function agentApp() {
  return acp
    .agent({ name: "apps" })
    .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {}, authMethods: [] }))
    .onRequest(acp.methods.agent.session.new, ({ params }) => ({ sessionId: `s:${params.cwd}` }))
    .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
      const first = params.prompt[0];
      if (first?.type === "text" && first.text === "terminal") {
        const term = await client.createTerminal({ sessionId: params.sessionId, command: "echo", args: ["hi"] });
        const { exitCode } = await term.waitForExit();
        const { output } = await term.currentOutput();
        await term.release();
        await client.notify(acp.methods.client.session.update, chunk(params.sessionId, `${output}:${exitCode}`));
        return { stopReason: "end_turn" };
      }
      for (const text of ["hello ", "world"]) await client.notify(acp.methods.client.session.update, chunk(params.sessionId, text));
      return { stopReason: "end_turn" };
    });
}

describe("the SDK's apps on the compatibility package, in one process", () => {
  it("prompts a session built with buildSession and reads its text until the turn's stop", async () => {
    const text = await acp.client().connectWith(agentApp(), async (agent) => {
      await agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
      return agent.buildSession("/work").withSession(async (session) => {
        expect(session.sessionId).toBe("s:/work");
        expect(await session.prompt("hi")).toEqual({ stopReason: "end_turn" });
        return session.readText();
      });
    });
    expect(text).toBe("hello world");
  });

  it("queues updates and the stop in order for nextUpdate", async () => {
    const kinds = await acp.client().connectWith(agentApp(), async (agent) => {
      await agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
      const session = await agent.buildSession("/").start();
      await session.prompt([{ type: "text", text: "hi" }]);
      const seen = [await session.nextUpdate(), await session.nextUpdate(), await session.nextUpdate()];
      session.dispose();
      return seen.map((m) => m.kind);
    });
    expect(kinds).toEqual(["session_update", "session_update", "stop"]);
  });

  it("runs a terminal on the client through the agent's TerminalHandle", async () => {
    const calls: string[] = [];
    const client = acp
      .client()
      .onRequest(acp.methods.client.terminal.create, ({ params }) => (calls.push(`create ${params.command}`), { terminalId: "t1" }))
      .onRequest(acp.methods.client.terminal.waitForExit, () => (calls.push("wait"), { exitCode: 0 }))
      .onRequest(acp.methods.client.terminal.output, () => (calls.push("output"), { output: "hi", truncated: false }))
      .onRequest(acp.methods.client.terminal.release, () => void calls.push("release"));
    const text = await client.connectWith(agentApp(), async (agent) => {
      await agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: { terminal: true } });
      return agent.buildSession("/").withSession(async (session) => {
        await session.prompt("terminal");
        return session.readText();
      });
    });
    expect(text).toBe("hi:0");
    expect(calls).toEqual(["create echo", "wait", "output", "release"]);
  });
});
