// Our v1-unstable agent (acp-router/unstable) over real stdio, driven by the official SDK's unstable
// client through session/fork and providers/list|set|disable.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";

const agentPath = fileURLToPath(new URL("./fixtures/unstable-agent.ts", import.meta.url));
const cwd = fileURLToPath(new URL("../../", import.meta.url));

describe("our unstable agent driven by the SDK's unstable client over stdio", () => {
  it("forks a session and lists, sets and disables a provider, each answer as the SDK parses it", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", agentPath], { stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    const stream = acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
    const connection = acp
      .client({ name: "sdk-unstable-client" })
      .onRequest(acp.methods.client.session.requestPermission, () => ({ outcome: { outcome: "cancelled" } }))
      .onNotification(acp.methods.client.session.update, () => {})
      .connect(stream);
    const agent = connection.agent;

    const init = await agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    expect(init.agentCapabilities).toMatchObject({ sessionCapabilities: { fork: {} }, providers: {} });
    const { sessionId } = await agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
    expect(await agent.request(acp.methods.agent.session.fork, { sessionId, cwd })).toMatchObject({ sessionId: `${sessionId}-fork-1` });

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
  });
});
