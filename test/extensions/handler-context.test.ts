// The handler context's extension caller (`ctx.request` / `ctx.notify`): a handler reaches its
// peer's whole surface — table methods through `ctx.peer`, extension methods through `ctx` — on
// every in-process transport (memory, Web streams, Node streams as over stdio). The stdio
// subprocess and the official SDK's client are in test/interop/handler-extensions.test.ts, the
// remote transports in test/remote/handler-extensions.test.ts.
import { PassThrough } from "node:stream";
import { describe, expect, expectTypeOf, it } from "vitest";
import { connectAgent, connectClient, memoryPair, RpcError, type Diagnostic, type HandlerContext, type Transport } from "../../src/index.ts";
import { nodeStreamTransport } from "../../src/transport/node.ts";
import { webStreamTransport } from "../../src/transport/web.ts";
import { until, within } from "../support/async.ts";
import { agentExtensions, gated, hello, ping, pingAgent, pingClient, seen } from "../support/ping.ts";

/** Two connected transports of each in-process kind. */
const transports: [string, () => [Transport, Transport]][] = [
  ["memory", () => memoryPair()],
  [
    "Web streams",
    () => {
      const up = new TransformStream<Uint8Array, Uint8Array>();
      const down = new TransformStream<Uint8Array, Uint8Array>();
      return [webStreamTransport(up.readable, down.writable), webStreamTransport(down.readable, up.writable)];
    },
  ],
  [
    "Node streams (stdio's transport)",
    () => {
      const up = new PassThrough();
      const down = new PassThrough();
      return [nodeStreamTransport(up, down), nodeStreamTransport(down, up)];
    },
  ],
];

async function start(make: () => [Transport, Transport], clientCapabilities: Record<string, unknown> = {}) {
  const [agentSide, clientSide] = make();
  const diagnostics: Diagnostic[] = [];
  const agentConn = connectAgent(pingAgent(), agentSide, { extensions: agentExtensions, onDiagnostic: (d) => diagnostics.push(d) });
  const client = pingClient();
  const conn = connectClient(client.handler, clientSide, { extensions: client.extensions });
  await within(conn.agent.initialize({ protocolVersion: 1, clientCapabilities }), "initialize");
  const { sessionId } = await within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new");
  return { agentConn, conn, record: client.record, sessionId, diagnostics };
}

describe.each(transports)("ctx.request / ctx.notify over %s", (_name, make) => {
  it("a prompt handler sends a defineExtension request, a raw `_` request and notifications to its client", async () => {
    const { conn, record, sessionId } = await start(make);
    expect((await within(conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "ping" }] }), "prompt")).stopReason).toBe("end_turn");
    expect(record.pings).toEqual([41]);
    expect(record.seen).toEqual([42]);
    expect(record.raw).toEqual(["_acme/raw", "_acme/raw_seen"]);
    expect(record.chunks).toEqual(["pong 42 raw ok"]);
    conn.close();
  });

  it("an extension handler's ctx calls back the peer that called it", async () => {
    const { conn, record } = await start(make);
    expect(await within(conn.request(hello, { name: "ada" }), "hello")).toEqual({ greeting: "hello ada (4)" });
    expect(record.pings).toEqual([3]);
    conn.close();
  });

  it("applies the outbound capability gate: refused without sending unless the client advertised it", async () => {
    const refused = await start(make);
    await within(refused.conn.agent.prompt({ sessionId: refused.sessionId, prompt: [{ type: "text", text: "gated" }] }), "prompt");
    expect(refused.record.chunks).toEqual(["refused -32601"]);
    expect(refused.record.gated).toBe(0);
    refused.conn.close();

    const allowed = await start(make, { _meta: { "acme.dev/gated": true } });
    await within(allowed.conn.agent.prompt({ sessionId: allowed.sessionId, prompt: [{ type: "text", text: "gated" }] }), "prompt");
    expect(allowed.record.chunks).toEqual(["answered true"]);
    expect(allowed.record.gated).toBe(1);
    allowed.conn.close();
  });
});

describe("ctx.request validates the result as conn.request does", () => {
  it("rejects an invalid answer with -32603 Invalid result and a diagnostic", async () => {
    const [agentSide, clientSide] = memoryPair();
    const diagnostics: Diagnostic[] = [];
    let failure: unknown;
    connectAgent(
      {
        ...pingAgent(),
        async prompt(_params, ctx) {
          failure = await ctx.request(ping, { n: 1 }).catch((e: unknown) => e);
          return { stopReason: "end_turn" };
        },
      },
      agentSide,
      { onDiagnostic: (d) => diagnostics.push(d) },
    );
    // The client answers `_acme/ping` through extMethod with the wrong shape.
    const conn = connectClient({ requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {}, extMethod: () => ({ pong: "no" }) }, clientSide);
    await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await conn.agent.newSession({ cwd: "/", mcpServers: [] });
    await within(conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "x" }] }), "prompt");
    expect(failure).toBeInstanceOf(RpcError);
    expect((failure as RpcError).code).toBe(-32603);
    expect((failure as RpcError).message).toMatch(/Invalid result/);
    expect(diagnostics.some((d) => d.kind === "invalid_result")).toBe(true);
    conn.close();
  });

  it("refuses a notification definition passed to request (and the reverse) with a TypeError, as the connection does", async () => {
    const [agentSide, clientSide] = memoryPair();
    const outcomes: string[] = [];
    connectAgent(
      {
        ...pingAgent(),
        async prompt({ sessionId }, ctx) {
          await ctx.request(seen as never, { sessionId, pong: 1 } as never).catch((e: unknown) => void outcomes.push(`${(e as Error).name}: ${(e as Error).message}`));
          await ctx.notify(gated as never, {} as never).catch((e: unknown) => void outcomes.push(`${(e as Error).name}: ${(e as Error).message}`));
          return { stopReason: "end_turn" };
        },
      },
      agentSide,
    );
    const conn = connectClient({ requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {} }, clientSide);
    await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await conn.agent.newSession({ cwd: "/", mcpServers: [] });
    await within(conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "x" }] }), "prompt");
    expect(outcomes).toEqual(['TypeError: "_acme/seen" is an extension notification: send it with notify', 'TypeError: "_acme/gated" is an extension request: send it with request']);
    conn.close();
  });

  it("works on the client side too: a client handler calls the agent's extension through ctx", async () => {
    const [agentSide, clientSide] = memoryPair();
    const greetings: string[] = [];
    connectAgent(
      {
        ...pingAgent(),
        async prompt({ sessionId }, ctx) {
          await ctx.peer.sessionUpdate({ sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } } });
          return { stopReason: "end_turn" };
        },
      },
      agentSide,
      { extensions: [hello.handle(({ name }) => ({ greeting: `hello ${name}` }))] },
    );
    const conn = connectClient(
      {
        requestPermission: () => ({ outcome: { outcome: "cancelled" } }),
        async sessionUpdate(_n, ctx) {
          greetings.push((await ctx.request(hello, { name: "from a notification handler" })).greeting);
        },
      },
      clientSide,
    );
    await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await conn.agent.newSession({ cwd: "/", mcpServers: [] });
    await within(conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "x" }] }), "prompt");
    await until(() => greetings.length > 0, "the greeting");
    expect(greetings).toEqual(["hello from a notification handler"]);
    conn.close();
  });
});

describe("ctx.request / ctx.notify types", () => {
  it("types params and result by the definition, and raw wires by the caller's claim", () => {
    // Type-level only: never called.
    const check = async (ctx: HandlerContext<unknown>) => {
      expectTypeOf(await ctx.request(ping, { n: 1 })).toEqualTypeOf<{ pong: number }>();
      // @ts-expect-error: params typed by the definition's params validator
      await ctx.request(ping, { n: "1" });
      // @ts-expect-error: a notification definition is sent with notify
      await ctx.request(seen, { sessionId: "s", pong: 1 });
      expectTypeOf(await ctx.request<{ ok: boolean }>("_acme/raw", {})).toEqualTypeOf<{ ok: boolean }>();
      // @ts-expect-error: only `_` wires (table methods go through ctx.peer)
      await ctx.request("session/prompt", {});
      expectTypeOf(ctx.notify(seen, { sessionId: "s", pong: 1 })).toEqualTypeOf<Promise<void>>();
    };
    expect(typeof check).toBe("function");
  });
});
