// DESIGN §9: a real agent subprocess (test/fixtures/stdio-agent.ts on serveStdio) driven by an
// acp-router client through spawnAgent.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConnectionClosedError, connectClient } from "../../src/index.ts";
import type { ClientConnection, Diagnostic } from "../../src/index.ts";
import { AgentExitedError, spawnAgent, type AgentProcess } from "../../src/transport/stdio.ts";
import { until, within } from "../support/async.ts";
import { chunkText, params, testClient } from "../support/handlers.ts";
import { tapTransport, type Tap } from "../support/tap.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const fixture = fileURLToPath(new URL("../fixtures/stdio-agent.ts", import.meta.url));

function start(): { proc: AgentProcess; tap: Tap; conn: ClientConnection; updates: string[]; diagnostics: Diagnostic[] } {
  // killAfterMs far above the exit bound below: an agent that only exits because it was killed fails the test.
  const proc = spawnAgent(process.execPath, ["--import", "tsx", fixture], { cwd: repoRoot, stderr: "capture", killAfterMs: 20_000 });
  const tap = tapTransport(proc.transport);
  const updates: string[] = [];
  const diagnostics: Diagnostic[] = [];
  const client = testClient({ sessionUpdate: (n) => void updates.push(chunkText(n) ?? "?") });
  const conn = connectClient(client.handler, tap.transport, { onDiagnostic: (d) => diagnostics.push(d) });
  return { proc, tap, conn, updates, diagnostics };
}

describe("a client driving a serveStdio agent subprocess", () => {
  let agent: ReturnType<typeof start>;
  let sessionId: string;

  beforeAll(async () => {
    agent = start();
    const init = await within(agent.conn.agent.initialize(params.initialize()), "initialize", 15_000);
    expect(init).toEqual({ protocolVersion: 1, agentCapabilities: { loadSession: false }, agentInfo: { name: "stdio-agent", version: "0.0.0" } });
    sessionId = (await agent.conn.agent.newSession(params.newSession())).sessionId;
  });

  afterAll(() => {
    if (agent.proc.child.exitCode === null) agent.proc.child.kill("SIGKILL");
  });

  it("[ACP-TRANSPORT-103] runs initialize → session/new → prompt, with the streamed updates delivered before the answer", async () => {
    expect(sessionId).toBe("sess-1");
    const seen = await agent.conn.agent.prompt(params.prompt(sessionId, "hello  big world")).then((answer) => ({ answer, updates: [...agent.updates] }));
    expect(seen).toEqual({ answer: { stopReason: "end_turn" }, updates: ["hello", "big", "world"] });
  });

  it("cancels a prompt through session/cancel", async () => {
    const turn = agent.conn.agent.prompt(params.prompt(sessionId, "slow"));
    await until(() => agent.tap.outbound().includes('"slow"'), "prompt sent");
    await agent.conn.agent.cancel({ sessionId });
    expect(await within(turn, "cancelled prompt")).toEqual({ stopReason: "cancelled" });
  });

  it("answers a junk line on its stdin with -32700 on stdout and keeps serving", async () => {
    agent.tap.transport.write("this is not json\n");
    await until(() => agent.diagnostics.some((d) => d.kind === "unknown_response"), "the agent's -32700 reached the client");
    expect(agent.tap.inbound()).toContain('"id":null,"error":{"code":-32700');
    expect(await agent.conn.agent.newSession(params.newSession())).toEqual({ sessionId: "sess-2" });
  });

  it("[ACP-TRANSPORT-001][ACP-TRANSPORT-102] wrote only JSON-RPC 2.0 lines to stdout, and its logs to stderr", () => {
    const lines = agent.tap.inbound().split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.length).toBeGreaterThanOrEqual(8);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
    expect(agent.proc.stderrTail()).toContain("stdio-agent ready");
    expect(agent.proc.stderrTail()).toContain("diagnostic parse_error");
  });

  it("[ACP-SHUTDOWN-001] exits on its own with code 0 after the client closes", async () => {
    agent.conn.close();
    expect(await within(agent.proc.exited, "agent exit", 10_000)).toEqual({ code: 0, signal: null });
    expect(await agent.conn.closed).toMatchObject({ reason: "closed by this side" });
  });
});

describe("an agent subprocess that exits mid-call", () => {
  it("rejects the pending call with ConnectionClosedError caused by AgentExitedError naming the code and stderr", async () => {
    const agent = start();
    await within(agent.conn.agent.initialize(params.initialize()), "initialize", 15_000);
    const error = await agent.conn.agent.prompt(params.prompt("sess-0", "exit 3")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionClosedError);
    const cause = (error as ConnectionClosedError).cause;
    expect(cause).toBeInstanceOf(AgentExitedError);
    expect((cause as AgentExitedError).exitCode).toBe(3);
    expect((cause as AgentExitedError).message).toContain("exiting 3");
    expect(await agent.proc.exited).toEqual({ code: 3, signal: null });
  });
});
