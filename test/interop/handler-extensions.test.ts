// The handler context's extension caller over stdio: test/fixtures/ping-agent.ts (serveStdio) runs as
// a real subprocess whose prompt handler sends `_acme/ping` (a defineExtension request), a raw
// `_acme/raw` request and two notifications to its client through `ctx.request` / `ctx.notify`;
// driven by our client (spawnAgent) and by the official SDK's client (@agentclientprotocol/sdk 2.4.0).
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { connectClient } from "../../src/index.ts";
import { spawnAgent, type AgentProcess } from "../../src/transport/stdio.ts";
import { startSdkClient, type SdkClient } from "../peers/sdk-client.ts";
import { within } from "../support/async.ts";
import { hello, pingClient } from "../support/ping.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const fixture = fileURLToPath(new URL("../fixtures/ping-agent.ts", import.meta.url));

const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

describe("a serveStdio agent subprocess calling its client's extension methods from handlers", () => {
  it("reaches our client (spawnAgent)", async () => {
    const proc: AgentProcess = spawnAgent(process.execPath, ["--import", "tsx", fixture], { cwd: repoRoot, stderr: "capture", killAfterMs: 20_000 });
    const client = pingClient();
    const conn = connectClient(client.handler, proc.transport, { extensions: client.extensions });
    stops.push(async () => {
      conn.close();
      await within(conn.closed, "closed", 10_000);
    });
    await within(conn.agent.initialize({ protocolVersion: 1, clientCapabilities: { _meta: { "acme.dev/gated": true } } }), "initialize", 15_000);
    const { sessionId } = await conn.agent.newSession({ cwd: "/", mcpServers: [] });
    expect((await within(conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "ping" }] }), "prompt")).stopReason).toBe("end_turn");
    await within(conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "gated" }] }), "gated prompt");
    expect(await within(conn.request(hello, { name: "ada" }), "hello")).toEqual({ greeting: "hello ada (4)" });
    expect(client.record).toEqual({ chunks: ["pong 42 raw ok", "answered true"], pings: [41, 3], seen: [42], raw: ["_acme/raw", "_acme/raw_seen"], gated: 1 });
  });

  it("reaches the official SDK's client", async () => {
    const pings: unknown[] = [];
    const sdk: SdkClient = await startSdkClient(process.execPath, ["--import", "tsx", fixture], {
      cwd: repoRoot,
      extRequests: {
        "_acme/ping": (params) => {
          pings.push(params);
          return { pong: (params as { n: number }).n + 1 };
        },
        "_acme/raw": () => ({ ok: true }),
      },
    });
    stops.push(() => sdk.close());
    await within(sdk.initialize(), "initialize", 15_000);
    const { sessionId } = await within(sdk.newSession({ cwd: "/" }), "session/new");
    expect((await within(sdk.promptText(sessionId, "ping"), "prompt")).stopReason).toBe("end_turn");
    expect(pings).toEqual([{ n: 41 }]);
    expect(sdk.chunks(sessionId)).toEqual(["pong 42 raw ok"]);
    expect(sdk.extNotifications).toEqual([
      { method: "_acme/seen", params: { sessionId, pong: 42 } },
      { method: "_acme/raw_seen", params: { sessionId } },
    ]);
    // Ungated for a client that did not advertise `_meta["acme.dev/gated"]`: refused before sending.
    await within(sdk.promptText(sessionId, "gated"), "gated prompt");
    expect(sdk.chunks(sessionId).at(-1)).toBe("refused -32601");
    // The SDK's client calls our agent's extension, whose handler pings the SDK's client back.
    expect(await within(sdk.extMethod("_acme/hello", { name: "grace" }), "hello")).toEqual({ greeting: "hello grace (6)" });
    expect(pings).toEqual([{ n: 41 }, { n: 5 }]);
    expect(sdk.protocolErrors()).toEqual([]);
  });
});
