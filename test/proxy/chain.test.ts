// Proxy chains end to end, real processes over stdio: `acp-router conduct` running the example proxy (twice)
// in front of the example agent for our client, and our proxy in front of the SDK agent for the SDK client;
// injection, cancellation at every hop, nothing left running, and the conductor's answers to bad input.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectClient, type ClientHandler, type SessionNotification } from "../../src/index.ts";
import { spawnAgent } from "../../src/transport/stdio.ts";
import { runMcpClient } from "../../examples/mcp-client.ts";
import { mcpTourTranscript } from "../mcp/tour.ts";
import { startSdkClient } from "../peers/sdk-client.ts";
import { runProcess } from "../support/process.ts";
import { scratch } from "../tools/support.ts";
import { bin, commandLine, conductCommand, exampleAgent, exampleClient, exampleProxy, hostedProxies, sdkAgent, tsx } from "./fixtures.ts";

/** Our client on a chain: the updates' texts, and the connection. */
function ourClient(chain: readonly string[]) {
  const updates: SessionNotification[] = [];
  const handler: ClientHandler = {
    requestPermission: ({ options }) => ({ outcome: { outcome: "selected", optionId: options[0]?.optionId ?? "" } }),
    sessionUpdate: (n) => void updates.push(n),
  };
  const [command, ...args] = chain as [string, ...string[]];
  const agent = spawnAgent(command, args, { stderr: "capture" });
  const conn = connectClient(handler, agent.transport);
  const text = () => updates.map((u) => (u.update.sessionUpdate === "agent_message_chunk" && u.update.content.type === "text" ? u.update.content.text : "")).join("");
  return { agent, conn, updates, text };
}

/** Whether a process is still running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pids of `pid`'s descendants (Linux /proc). */
function descendants(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  return children.flatMap((c) => [c, ...(alive(c) ? descendants(c) : [])]);
}

describe("acp-router conduct: our client → proxy A → proxy B → the example agent", () => {
  it("passes the example client's tour through unchanged: the same transcript as the agent alone", async () => {
    const chain = conductCommand(exampleProxy("--name", "A", "--no-context"), exampleProxy("--name", "B", "--no-context"), exampleAgent());
    const tour = (agent: readonly string[]) => runProcess(process.execPath, ["--import", "tsx", exampleClient, "--tour", "--protocol", "1", "--agent", commandLine(agent)], { timeoutMs: 120_000 });
    const [through, direct] = [await tour(chain), await tour(exampleAgent())];
    expect(through.code).toBe(0);
    expect(through.stdout).toContain("Tour done: 8 steps ran; skipped: 5, 9, 10, 11.");
    // Session ids are random UUIDs, and how far the slow count gets before its cancel (sent after
    // 1 s) depends on timing, as does the length of the history replayed with it; everything else
    // is the same, and the history replayed beside the count too.
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
    // The proxies saw the tour's tool calls on their way back (logged on stderr, never stdout).
    expect(through.stderr).toMatch(/A: tool call read-1: Read /);
    expect(through.stderr).toMatch(/B: tool call read-1: Read /);
  }, 240_000);

  it("carries each proxy's injected context to the agent, in chain order, and cancels at every hop; nothing is left running after the client leaves", async () => {
    const client = ourClient(conductCommand(exampleProxy("--name", "A"), exampleProxy("--name", "B"), exampleAgent()));
    const { conn, agent } = client;
    const init = await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    expect(init.agentInfo?.name).toBe("acp-router-example-agent");
    const { sessionId } = await conn.agent.newSession({ cwd: scratch(), mcpServers: [] });
    const hello = await conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hello" }] });
    expect(hello.stopReason).toBe("end_turn");
    expect(client.text()).toContain("hello[context-from-A](context://A)[context-from-B](context://B)");

    // session/cancel: client → conductor → A → (proxy/successor) → B → (proxy/successor) → agent.
    const components = descendants(agent.child.pid as number);
    expect(components.length).toBeGreaterThanOrEqual(hostedProxies ? 1 : 3);
    const slow = conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "slow" }] });
    await until(() => client.text().includes("Counting slowly: 1 2"));
    await conn.notify("session/cancel", { sessionId });
    expect((await slow).stopReason).toBe("cancelled");

    // $/cancel_request: each hop cancels its own request with its own id.
    const controller = new AbortController();
    const slowAgain = conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "slow" }] }, { signal: controller.signal });
    const before = client.text().length;
    await until(() => client.text().length > before + 10);
    controller.abort();
    expect((await slowAgain).stopReason).toBe("cancelled");

    // The chain keeps serving after both.
    expect((await conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hello again" }] })).stopReason).toBe("end_turn");

    conn.close();
    expect((await agent.exited).code).toBe(0);
    expect(components.filter(alive)).toEqual([]);
  }, 120_000);

  it("judges every hop clean with inspect in front of it (the proxy hop with the proxy table)", async () => {
    const dir = scratch();
    const inspected = (summary: string, table: string[], command: string[]) => ["sh", "-c", `exec ${commandLine(bin("inspect", ...table, "--summary", join(dir, summary), "--", ...command))}`];
    const chain = conductCommand(inspected("a.json", ["--table", "src/proxy/generated"], exampleProxy("--name", "A")), inspected("b.json", ["--table", "src/proxy/generated"], exampleProxy("--name", "B")), inspected("agent.json", [], exampleAgent()));
    const outer = ["sh", "-c", `exec ${commandLine(bin("inspect", "--summary", join(dir, "client.json"), "--", ...chain))}`];
    const run = await runProcess(process.execPath, ["--import", "tsx", exampleClient, "--prompt", "hello", "--prompt", "plan", "--protocol", "1", "--agent", commandLine(outer)], { timeoutMs: 120_000 });
    expect(run.code).toBe(0);
    const summaries = ["client", "a", "b", "agent"].map((name) => JSON.parse(readFileSync(join(dir, `${name}.json`), "utf8")) as { table: string; violations: unknown[]; notes: string[] });
    expect(summaries.map((s) => [s.table, s.violations])).toEqual([
      ["v1", []],
      ["v1-proxy", []],
      ["v1-proxy", []],
      ["v1", []],
    ]);
  }, 180_000);
});

describe("acp-router conduct --proxy-mode: a chain nested in another chain", () => {
  it("runs our client → [conduct --proxy-mode: proxy A → proxy B] → the example agent, context and cancel included", async () => {
    // A component whose own arguments hold `--` goes through `sh -c` (conduct splits its arguments on every `--`).
    const inner = ["sh", "-c", `exec ${commandLine(bin("conduct", "--proxy-mode", "--", ...exampleProxy("--name", "A"), "--", ...exampleProxy("--name", "B")))}`];
    const client = ourClient(conductCommand(inner, exampleAgent()));
    const { conn, agent } = client;
    expect((await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} })).agentInfo?.name).toBe("acp-router-example-agent");
    const { sessionId } = await conn.agent.newSession({ cwd: scratch(), mcpServers: [] });
    expect((await conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hello" }] })).stopReason).toBe("end_turn");
    expect(client.text()).toContain("hello[context-from-A](context://A)[context-from-B](context://B)");
    const slow = conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "slow" }] });
    await until(() => client.text().includes("Counting slowly: 1 2"));
    await conn.notify("session/cancel", { sessionId });
    expect((await slow).stopReason).toBe("cancelled");
    conn.close();
    expect((await agent.exited).code).toBe(0);
  }, 120_000);
});

describe("acp-router conduct: the SDK client → our proxy → the SDK agent", () => {
  it("serves the SDK client's echo, permission round trip and cancel through our proxy", async () => {
    const sdk = await startSdkClient(conductCommand(exampleProxy("--name", "P"), sdkAgent())[0] as string, conductCommand(exampleProxy("--name", "P"), sdkAgent()).slice(1));
    try {
      const init = await sdk.initialize();
      expect(init.agentInfo?.name).toBe("sdk-agent");
      const { sessionId } = await sdk.newSession({ cwd: scratch() });
      expect((await sdk.promptText(sessionId, "echo hi there")).stopReason).toBe("end_turn");
      expect(sdk.chunks(sessionId).join("")).toContain("hi there");
      // A permission request from the agent reaches the SDK client through the proxy and back.
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
});

describe("acp-router conduct: MCP-over-ACP for an agent without mcpCapabilities.acp", () => {
  const refusal = "agentCapabilities.mcpCapabilities.acp was not advertised by the agent; not sent";
  const tour = mcpTourTranscript("declared: acp tools", refusal);

  it.each([
    ["through a proxy", [exampleProxy("--name", "P", "--no-context")]],
    ["with no proxy", []],
  ])(
    "advertises acp to the client and bridges the client's acp server over loopback HTTP for the agent, %s: the MCP tour, progress included",
    async (_, proxies) => {
      const agentMcp = tsx("../../examples/agent-mcp.ts", "--no-acp");
      const lines = await runMcpClient({ agentCommand: conductCommand(...proxies, agentMcp), output: () => {} });
      expect(lines).toEqual(['agent advertises mcpCapabilities {"http":true,"acp":true}', ...tour]);
    },
    120_000,
  );
});

describe("acp-router conduct: bad input gets a clear answer and the chain keeps serving", () => {
  it("answers a proxy/successor without method with -32602 to that proxy, which goes on", async () => {
    const client = ourClient(conductCommand(tsx("./bad-proxy.mjs"), exampleAgent()));
    const init = await client.conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    // The bad proxy put the conductor's answer to its envelope without method in the _meta of its initialize answer.
    expect(init._meta?.refused).toEqual({ code: -32602, message: "Invalid params", data: { errors: [{ path: "/method", message: "proxy/successor needs the wrapped message's method (a string)" }] } });
    expect(init.agentInfo?.name).toBe("acp-router-example-agent");
    const { sessionId } = await client.conn.agent.newSession({ cwd: scratch(), mcpServers: [] });
    expect((await client.conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hello" }] })).stopReason).toBe("end_turn");
    client.conn.close();
    await client.agent.exited;
  }, 60_000);

  it("answers the turn of a successor that dies mid-turn with -32603 naming it, and every later request the same way", async () => {
    const client = ourClient(conductCommand(exampleProxy("--name", "A"), tsx("./dying-agent.mjs")));
    await client.conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await client.conn.agent.newSession({ cwd: scratch(), mcpServers: [] });
    const turn = client.conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hello" }] });
    await expect(turn).rejects.toMatchObject({ code: -32603, message: expect.stringMatching(/^Internal error: component 1 \(.*dying-agent\.mjs\) has exited$/) });
    await expect(client.conn.agent.newSession({ cwd: scratch(), mcpServers: [] })).rejects.toMatchObject({ code: -32603, message: expect.stringContaining("component 1") });
    client.conn.close();
    await client.agent.exited;
  }, 60_000);

  it("answers lines that are not JSON-RPC on the client's hop, and goes on", async () => {
    const ran = await runProcess(conductCommand(exampleAgent())[0] as string, conductCommand(exampleAgent()).slice(1), {
      input: ["not json", "[]", '{"jsonrpc":"2.0","id":1.5,"method":"initialize"}', '{"jsonrpc":"2.0","id":"p","method":"proxy/successor","params":{"method":"initialize"}}', '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}', ""].join("\n"),
      timeoutMs: 60_000,
    });
    const lines = ran.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: unknown; error?: { code: number; message: string }; result?: { protocolVersion: number } });
    expect(lines.slice(0, 3).map((l) => [l.id, l.error?.code])).toEqual([
      [null, -32700],
      [null, -32600],
      [null, -32600],
    ]);
    // A client sending the conductor's own methods is refused on its hop.
    expect(lines.find((l) => l.id === "p")?.error).toMatchObject({ code: -32601, data: { method: "proxy/successor", reason: "a client of a conductor does not send proxy methods" } });
    // The agent answers initialize, or (when stdin's end reached it first) the conductor says it exited: never silence.
    expect(lines[4]?.id).toBe(1);
  }, 60_000);
});

async function until(condition: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}
