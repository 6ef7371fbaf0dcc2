// Our v2 unstable example agent (examples/agent-v2-unstable.ts, acp-router/v2/unstable behind
// routeAgent) over real stdio, driven by the official SDK's v2 unstable client
// (@agentclientprotocol/sdk/experimental/v2/unstable): initialize v2, session/fork, a prompt turn in
// the fork, and providers/list|set|disable, each answer as the SDK parses it.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import * as acp from "@agentclientprotocol/sdk/experimental/v2/unstable";
import { describe, expect, it } from "vitest";
import { within } from "../support/async.ts";

const agentPath = fileURLToPath(new URL("../../examples/agent-v2-unstable.ts", import.meta.url));
const cwd = fileURLToPath(new URL("../../", import.meta.url));

describe("our v2 unstable agent driven by the SDK's v2 unstable client over stdio", () => {
  it("negotiates v2, forks a session and prompts in the fork, and lists, sets and disables a provider", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", agentPath], { stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    const updates: acp.UpdateSessionNotification[] = [];
    const stream = acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
    const connection = acp
      .client({ name: "sdk-v2-unstable-client" })
      .onRequest(acp.methods.client.session.requestPermission, () => ({ outcome: { outcome: "cancelled" } }))
      .onNotification(acp.methods.client.session.update, ({ params }) => void updates.push(params))
      .connect(stream);
    const agent = connection.agent;

    const init = await agent.request(acp.methods.agent.initialize, { protocolVersion: 2, info: { name: "sdk-v2-unstable-client", version: "0" }, capabilities: {} });
    expect(init).toMatchObject({ protocolVersion: 2, info: { name: "acp-router-v2-unstable-agent" }, capabilities: { session: { fork: {} }, providers: {} } });

    const { sessionId } = await agent.request(acp.methods.agent.session.new, { cwd });
    const turn = async (id: string, text: string) => {
      const from = updates.length;
      expect(await agent.request(acp.methods.agent.session.prompt, { sessionId: id, prompt: [{ type: "text", text }] })).toMatchObject({ messageId: expect.any(String) });
      const idle = () => updates.slice(from).some((n) => n.sessionId === id && n.update.sessionUpdate === "state_update" && n.update.state === "idle");
      await within(
        (async () => {
          while (!idle()) await new Promise((resolve) => setTimeout(resolve, 10));
        })(),
        `the idle state_update of ${id}`,
        10_000,
      );
      return updates
        .slice(from)
        .map((n) => n.update as { sessionUpdate: string; content?: { type: string; text?: string } })
        .map((u) => (u.sessionUpdate === "agent_message_chunk" && u.content?.type === "text" ? (u.content.text ?? "") : ""))
        .join("");
    };
    expect(await turn(sessionId, "hello")).toBe(`You said: hello (message 1 of ${sessionId}: hello)`);

    const fork = await agent.request(acp.methods.agent.session.fork, { sessionId, cwd });
    expect(fork.sessionId).not.toBe(sessionId);
    expect(await turn(fork.sessionId, "again")).toBe(`You said: again (message 2 of ${fork.sessionId}: hello / again)`);
    expect(await turn(sessionId, "parent")).toBe(`You said: parent (message 2 of ${sessionId}: hello / parent)`);

    const list = async () => (await agent.request(acp.methods.agent.providers.list, {})).providers;
    expect(await list()).toEqual([{ providerId: "main", supported: ["openai", "anthropic"], required: false, current: null }]);
    await agent.request(acp.methods.agent.providers.set, { providerId: "main", apiType: "anthropic", baseUrl: "https://llm.example/v1" });
    expect((await list())[0]?.current).toEqual({ apiType: "anthropic", baseUrl: "https://llm.example/v1" });
    await agent.request(acp.methods.agent.providers.disable, { providerId: "main" });
    expect((await list())[0]?.current).toBeNull();

    connection.close();
    child.stdin.end();
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(stderr).toBe("");
  }, 30_000);
});
