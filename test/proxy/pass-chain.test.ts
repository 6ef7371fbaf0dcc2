// Chains of pass-through proxies (no hooks: src/proxy/pass.ts carries every message once initialized), real
// processes over stdio: the example client's tour gives the agent's own transcript, cancellation reaches
// every hop, the SDK client's permission round trip and cancel work, and the MCP tour is bridged.
import { describe, expect, it } from "vitest";
import { runMcpClient } from "../../examples/mcp-client.ts";
import { connectClient, type ClientHandler, type SessionNotification } from "../../src/index.ts";
import { spawnAgent } from "../../src/transport/stdio.ts";
import { mcpTourTranscript } from "../mcp/tour.ts";
import { startSdkClient } from "../peers/sdk-client.ts";
import { runProcess } from "../support/process.ts";
import { scratch } from "../tools/support.ts";
import { commandLine, conductCommand, exampleAgent, exampleClient, passProxy, sdkAgent, tsx } from "./fixtures.ts";

async function until(condition: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("acp-router conduct with pass-through proxies", () => {
  it("passes the example client's tour through two of them unchanged: the same transcript as the agent alone", async () => {
    const tour = (agent: readonly string[]) => runProcess(process.execPath, ["--import", "tsx", exampleClient, "--tour", "--protocol", "1", "--agent", commandLine(agent)], { timeoutMs: 120_000 });
    const [through, direct] = [await tour(conductCommand(passProxy(), passProxy(), exampleAgent())), await tour(exampleAgent())];
    expect(through.code).toBe(0);
    expect(through.stdout).toContain("Tour done: 8 steps ran; skipped: 5, 9, 10, 11.");
    const counted = (out: string) =>
      out
        .slice(out.indexOf("Counting slowly:"), out.indexOf("[stop: cancelled]"))
        .replace(/^.*sending session\/cancel.*$/m, "")
        .match(/\d+/g)?.length ?? 0;
    const replayed = (out: string) => Number(/the agent replayed (\d+) updates/.exec(out)?.[1]);
    const same = (out: string) =>
      out
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<session id>")
        .replace(/Counting slowly:[\s\S]*?\[stop: cancelled\]/, "Counting slowly: <n> [stop: cancelled]")
        .replace(/the agent replayed \d+ updates/, "the agent replayed <n> updates");
    expect(same(through.stdout)).toBe(same(direct.stdout));
    expect(counted(through.stdout)).toBeGreaterThan(2);
    expect(replayed(through.stdout) - counted(through.stdout)).toBe(replayed(direct.stdout) - counted(direct.stdout));
  }, 240_000);

  it("cancels at every hop through two of them: session/cancel, then $/cancel_request; the chain keeps serving", async () => {
    const updates: SessionNotification[] = [];
    const handler: ClientHandler = { requestPermission: ({ options }) => ({ outcome: { outcome: "selected", optionId: options[0]?.optionId ?? "" } }), sessionUpdate: (n) => void updates.push(n) };
    const [command, ...args] = conductCommand(passProxy(), passProxy(), exampleAgent()) as [string, ...string[]];
    const agent = spawnAgent(command, args, { stderr: "capture" });
    const conn = connectClient(handler, agent.transport);
    const text = () => updates.map((u) => (u.update.sessionUpdate === "agent_message_chunk" && u.update.content.type === "text" ? u.update.content.text : "")).join("");
    expect((await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} })).agentInfo?.name).toBe("acp-router-example-agent");
    const { sessionId } = await conn.agent.newSession({ cwd: scratch(), mcpServers: [] });
    const slow = conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "slow" }] });
    await until(() => text().includes("Counting slowly: 1 2"));
    await conn.notify("session/cancel", { sessionId });
    expect((await slow).stopReason).toBe("cancelled");
    const controller = new AbortController();
    const slowAgain = conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "slow" }] }, { signal: controller.signal });
    const before = text().length;
    await until(() => text().length > before + 10);
    controller.abort();
    expect((await slowAgain).stopReason).toBe("cancelled");
    expect((await conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hello again" }] })).stopReason).toBe("end_turn");
    expect(text()).toContain("hello again");
    conn.close();
    expect((await agent.exited).code).toBe(0);
  }, 120_000);

  it("serves the SDK client's echo, permission round trip and cancel through one", async () => {
    const chain = conductCommand(passProxy(), sdkAgent());
    const sdk = await startSdkClient(chain[0] as string, chain.slice(1));
    try {
      expect((await sdk.initialize()).agentInfo?.name).toBe("sdk-agent");
      const { sessionId } = await sdk.newSession({ cwd: scratch() });
      expect((await sdk.promptText(sessionId, "echo hi there")).stopReason).toBe("end_turn");
      expect(sdk.chunks(sessionId).join("")).toContain("hi there");
      expect((await sdk.promptText(sessionId, "permission")).stopReason).toBe("end_turn");
      expect(sdk.permissionRequests.map((r) => r.toolCall.title)).toEqual(["Run a dangerous thing"]);
      const slow = sdk.promptText(sessionId, "slow");
      await until(() => sdk.chunks(sessionId).some((c) => c.includes("tick 2")));
      await sdk.cancel(sessionId);
      expect((await slow).stopReason).toBe("cancelled");
      expect(sdk.protocolErrors()).toEqual([]);
    } finally {
      expect((await sdk.close(5000)).code).toBe(0);
    }
  }, 120_000);

  it("bridges the client's acp MCP server for the agent through one: the MCP tour, progress included", async () => {
    const refusal = "agentCapabilities.mcpCapabilities.acp was not advertised by the agent; not sent";
    const lines = await runMcpClient({ agentCommand: conductCommand(passProxy(), tsx("../../examples/agent-mcp.ts", "--no-acp")), output: () => {} });
    expect(lines).toEqual(['agent advertises mcpCapabilities {"http":true,"acp":true}', ...mcpTourTranscript("declared: acp tools", refusal)]);
  }, 120_000);
});
