// The `tracing` connection option: W3C trace context in `_meta`, OpenTelemetry spans (the real SDK's
// in-memory exporter), the context passed to a spawned agent, and one connected trace across processes.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { context, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { connectAgent, connectClient, memoryPair, RpcError, type AgentHandler, type ClientHandler, type ConnectionOptions } from "../../src/index.ts";
import { parseTraceparent, withTraceContext } from "../../src/tracing/hook.ts";
import { spawnAgent } from "../../src/transport/stdio.ts";
import { otelTracing } from "../../src/tracing/otel.ts";
import { propagateTracing } from "../../src/tracing/propagate.ts";
import { tempDir } from "../support/temp.ts";
import { spanRecords, type SpanRecord } from "./fixtures/span-records.ts";

const exporter = new InMemorySpanExporter();
beforeAll(() => {
  new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register();
});
afterEach(() => exporter.reset());

const SERVER = 1;
const CLIENT = 2;
const CONSUMER = 4;

/** What each side's handlers saw of `_meta` and `ctx.traceContext`. */
interface Seen {
  promptMeta: unknown;
  promptContext: unknown;
  updateMeta: unknown;
}

/** One prompt turn between a client and an agent over a memory pair, each side with its options. */
async function turn(clientOptions: ConnectionOptions, agentOptions: ConnectionOptions, promptMeta?: Record<string, unknown>): Promise<Seen> {
  const seen: Seen = { promptMeta: undefined, promptContext: undefined, updateMeta: undefined };
  const agent: AgentHandler = {
    initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }),
    authenticate: () => ({}),
    newSession: () => ({ sessionId: "s1" }),
    async prompt(params, ctx) {
      seen.promptMeta = params._meta;
      seen.promptContext = ctx.traceContext;
      await ctx.peer.sessionUpdate({ sessionId: params.sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } } });
      return { stopReason: "end_turn" };
    },
  };
  const client: ClientHandler = {
    requestPermission: () => ({ outcome: { outcome: "cancelled" } }),
    sessionUpdate: (params) => {
      seen.updateMeta = params._meta;
    },
  };
  const [a, b] = memoryPair();
  connectAgent(agent, a, agentOptions);
  const conn = connectClient(client, b, clientOptions);
  await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await conn.agent.newSession({ cwd: "/", mcpServers: [] });
  await conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hello" }], ...(promptMeta ? { _meta: promptMeta } : {}) });
  conn.close();
  await conn.closed;
  return seen;
}

describe("tracing off (the default)", () => {
  it("adds no _meta and exposes no context", async () => {
    const seen = await turn({}, {});
    expect(seen).toEqual({ promptMeta: undefined, promptContext: undefined, updateMeta: undefined });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

describe("otelTracing()", () => {
  it("opens a span per request, per prompt turn and per notification, parent to child across the connection, with the ACP attributes", async () => {
    const tracer = trace.getTracer("test");
    const root = tracer.startSpan("editor action");
    const seen = await context.with(trace.setSpan(context.active(), root), () => turn({ tracing: otelTracing() }, { tracing: otelTracing() }));
    root.end();
    const spans = spanRecords(exporter.getFinishedSpans(), "one process");
    const one = (name: string, kind: number) => {
      const found = spans.filter((s) => s.name === name && s.kind === kind);
      expect(found, `${name} ${kind}`).toHaveLength(1);
      return found[0]!;
    };
    const rootId = root.spanContext().spanId;
    const clientPrompt = one("session/prompt", CLIENT);
    const agentPrompt = one("session/prompt", SERVER);
    const update = one("session/update", CONSUMER);
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([root.spanContext().traceId]));
    expect(clientPrompt.parentSpanId).toBe(rootId);
    expect(agentPrompt.parentSpanId).toBe(clientPrompt.spanId);
    expect(update.parentSpanId).toBe(agentPrompt.spanId);
    expect(one("initialize", SERVER).parentSpanId).toBe(one("initialize", CLIENT).spanId);
    expect(agentPrompt.attributes).toEqual({ "rpc.system": "jsonrpc", "rpc.method": "session/prompt", "acp.side": "agent", "rpc.jsonrpc.request_id": "2", "acp.session.id": "s1", "acp.stop_reason": "end_turn" });
    expect(clientPrompt.attributes).toMatchObject({ "acp.side": "client", "acp.session.id": "s1", "acp.stop_reason": "end_turn" });
    // What went on the wire: W3C traceparent values in _meta, and the handler's ctx sees the one it got.
    const sent = (seen.promptMeta as { traceparent?: string }).traceparent;
    expect(parseTraceparent(sent)).toEqual({ traceId: root.spanContext().traceId, spanId: clientPrompt.spanId, flags: 1 });
    expect(seen.promptContext).toEqual({ traceparent: sent });
    expect((seen.updateMeta as { traceparent?: string }).traceparent).toBe(`00-${agentPrompt.traceId}-${agentPrompt.spanId}-01`);
  });

  it("marks a failed request's spans with its error code", async () => {
    const [a, b] = memoryPair();
    connectAgent({ initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }), authenticate: () => ({}), newSession: () => ({ sessionId: "s" }), prompt: () => Promise.reject(RpcError.authRequired()) }, a, { tracing: otelTracing() });
    const conn = connectClient({ requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {} }, b, { tracing: otelTracing() });
    await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    await expect(conn.agent.prompt({ sessionId: "s", prompt: [] })).rejects.toMatchObject({ code: -32000 });
    conn.close();
    await conn.closed;
    const prompt = spanRecords(exporter.getFinishedSpans(), "p").filter((s) => s.name === "session/prompt");
    expect(prompt.map((s) => [s.kind, s.attributes["rpc.jsonrpc.error_code"]]).sort()).toEqual(
      [
        [SERVER, -32000],
        [CLIENT, -32000],
      ].sort(),
    );
  });

  it("puts its own traceparent and tracestate in _meta (replacing a forwarded one), keeping baggage and the other keys already there", async () => {
    const earlier = "00-11111111111111111111111111111111-2222222222222222-01";
    const seen = await turn({ tracing: otelTracing() }, {}, { traceparent: earlier, tracestate: "old=1", baggage: "k=v", other: 1 });
    const meta = seen.promptMeta as Record<string, unknown>;
    expect({ ...meta, traceparent: parseTraceparent(meta.traceparent) === undefined ? meta.traceparent : "valid" }).toEqual({ traceparent: "valid", baggage: "k=v", other: 1 });
    expect(meta.traceparent).not.toBe(earlier);
    const mine = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    expect(withTraceContext({ a: 1, _meta: { baggage: "k=v", traceparent: earlier, x: 2 } }, { traceparent: mine, tracestate: "s=1", baggage: "x=y" })).toEqual({ a: 1, _meta: { traceparent: mine, tracestate: "s=1", baggage: "k=v", x: 2 } });
    expect(withTraceContext(undefined, { traceparent: mine })).toEqual({ _meta: { traceparent: mine } });
  });
});

describe("propagateTracing()", () => {
  it("passes the context a message carried on to what its handler sends, unchanged, with no spans", async () => {
    const mine = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const seen = await turn({}, { tracing: propagateTracing() }, { traceparent: mine, tracestate: "k=v" });
    expect(seen.promptContext).toEqual({ traceparent: mine, tracestate: "k=v" });
    expect(seen.updateMeta).toEqual({ traceparent: mine, tracestate: "k=v" });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const tsx = (file: string, ...args: string[]) => [process.execPath, "--import", "tsx", file, ...args];

describe("spawnAgent({ tracing })", () => {
  const printEnv = "process.stdout.write(JSON.stringify({ TRACEPARENT: process.env.TRACEPARENT, OTEL_SERVICE_NAME: process.env.OTEL_SERVICE_NAME, ACP_ROUTER_TEST_KEEP: process.env.ACP_ROUTER_TEST_KEEP }) + '\\n')";
  const envOf = async (options: Parameters<typeof spawnAgent>[2]) => {
    const agent = spawnAgent(process.execPath, ["-e", printEnv], { stderr: "ignore", ...options });
    let text = "";
    await new Promise<void>((resolve) => {
      agent.transport.start({ data: (chunk: Uint8Array | string) => void (text += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk)), end: () => resolve() });
    });
    await agent.exited;
    return JSON.parse(text) as Record<string, string | undefined>;
  };

  it("passes the caller's active context as TRACEPARENT, keeping what the env option sets and the caller's OTEL_* settings", async () => {
    process.env.OTEL_SERVICE_NAME = "editor";
    try {
      const span = trace.getTracer("test").startSpan("spawn");
      const expected = `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;
      const [inherited, explicit, own] = await context.with(trace.setSpan(context.active(), span), () =>
        Promise.all([envOf({ tracing: otelTracing() }), envOf({ tracing: otelTracing(), env: { PATH: process.env.PATH, ACP_ROUTER_TEST_KEEP: "1" } }), envOf({ tracing: otelTracing(), env: { PATH: process.env.PATH, TRACEPARENT: "mine" } })]),
      );
      span.end();
      expect(inherited).toEqual({ TRACEPARENT: expected, OTEL_SERVICE_NAME: "editor" });
      expect(explicit).toEqual({ TRACEPARENT: expected, OTEL_SERVICE_NAME: "editor", ACP_ROUTER_TEST_KEEP: "1" });
      expect(own).toEqual({ TRACEPARENT: "mine", OTEL_SERVICE_NAME: "editor" });
      expect(await envOf({})).toEqual({ OTEL_SERVICE_NAME: "editor" });
    } finally {
      delete process.env.OTEL_SERVICE_NAME;
    }
  }, 30_000);
});

describe("one trace across processes: client → acp-router conduct → proxy → agent", () => {
  // The proxy in a process of its own, then hosted in the conductor's process (`--proxy-module`): the conductor's process then holds the proxy's spans.
  it.each(["in a process of its own", "hosted in the conductor"])(
    "connects the client's, the proxy's and the agent's spans parent to child, the proxy %s",
    async (hosting) => {
      const dir = tempDir("acp-spans-");
      const withSpans = (role: string, file: string, ...args: string[]) => ["env", `ACP_TEST_SPANS=${dir}`, `ACP_TEST_ROLE=${role}`, process.execPath, "--import", "tsx", "--import", here("./fixtures/otel-spans.ts"), here(file), ...args];
      const bin = fileURLToPath(new URL("../../bin/acp-router.ts", import.meta.url));
      const agentSpans = withSpans("agent", "./fixtures/traced-agent.ts");
      const conductor = hosting === "hosted in the conductor" ? withSpans("proxy", bin, "conduct", "--proxy-module", here("./fixtures/traced-proxy-module.ts"), "--", ...agentSpans) : tsx(bin, "conduct", "--", ...withSpans("proxy", "./fixtures/traced-proxy.ts"), "--", ...agentSpans);
      const root = trace.getTracer("test").startSpan("editor action");
      const updates: string[] = [];
      await context.with(trace.setSpan(context.active(), root), async () => {
        const agent = spawnAgent(conductor[0]!, conductor.slice(1), { tracing: otelTracing() });
        const conn = connectClient({ requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: (p) => void updates.push(p.update.sessionUpdate === "agent_message_chunk" && p.update.content.type === "text" ? p.update.content.text : "") }, agent.transport, {
          tracing: otelTracing(),
        });
        await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
        const { sessionId } = await conn.agent.newSession({ cwd: "/", mcpServers: [] });
        expect(await conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hello" }] })).toMatchObject({ stopReason: "end_turn" });
        conn.close();
        await conn.closed;
        await agent.exited;
      });
      root.end();
      const spans: SpanRecord[] = [...spanRecords(exporter.getFinishedSpans(), "client"), ...readdirSync(dir).flatMap((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as SpanRecord[])];
      const traceId = root.spanContext().traceId;
      expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([traceId]));
      const find = (role: string, name: string, kind: number) => spans.filter((s) => s.role === role && s.name === name && s.kind === kind);
      const byId = new Map(spans.map((s) => [s.spanId, s]));
      const clientPrompt = find("client", "session/prompt", CLIENT);
      const proxyPrompt = find("proxy", "session/prompt", SERVER);
      const agentPrompt = find("agent", "session/prompt", SERVER);
      expect([clientPrompt.length, proxyPrompt.length, agentPrompt.length]).toEqual([1, 1, 1]);
      expect(proxyPrompt[0]!.parentSpanId).toBe(clientPrompt[0]!.spanId);
      // The agent's turn hangs under the proxy's: its parent is a span of the proxy process (the proxy's
      // prompt, or the request it sent on) whose own chain reaches the client's prompt.
      const chain: string[] = [];
      for (let s: SpanRecord | undefined = agentPrompt[0]; s !== undefined; s = s.parentSpanId === undefined ? undefined : byId.get(s.parentSpanId)) chain.push(`${s.role} ${s.name}`);
      expect(chain[0]).toBe("agent session/prompt");
      expect(chain[1]?.startsWith("proxy ")).toBe(true);
      expect(chain).toContain("client session/prompt");
      expect(chain.at(-1)).toBe("client editor action");
      // The agent saw a traceparent in the prompt's _meta and echoed it in its update.
      expect(parseTraceparent(updates[0])?.traceId).toBe(traceId);
    },
    60_000,
  );
});
