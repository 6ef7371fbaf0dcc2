/**
 * Figure — remote ACP on one machine. (a) Prompt round trips per second over
 * Streamable HTTP on HTTP/1.1 and on HTTP/2 (h2c), and over WebSocket, our
 * server against the SDK's experimental `AcpServer` in the same run (4
 * connections × 16 prompts in flight; each prompt is one `session/update` and
 * the answer). Two kinds of rows: "same client" drives both servers with one
 * client (ours, with the same options), so the ratio is the servers'; "own
 * clients" runs each side's server with its own client on the fetch named. (b) Server memory per idle connection
 * and per idle session, with 10,000 sessions on one server process (100
 * WebSocket connections × 100 sessions), before and after a soak of turns.
 * The memory server runs in a child process (`--serve=ours|sdk`) so only its
 * heap is measured.
 *
 *   node --expose-gc --import tsx bench/remote.ts [--quick] [--only=ours,sdk] [--modes=http1,h2,ws] [--memory=off]
 */
import { spawn } from "node:child_process";
import * as acp from "@agentclientprotocol/sdk";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import { createWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";
import { WebSocket } from "ws";
import { connectClient, protocol, type ClientConnection, type Transport } from "../src/index.ts";
import { httpClientTransport } from "../src/remote/http-client.ts";
import { listen } from "../src/remote/node.ts";
import { createHttp1Fetch } from "../src/remote/node-h1.ts";
import { createH2Fetch } from "../src/remote/node-h2.ts";
import { nodeWebSocket } from "../src/remote/node-ws.ts";
import { createRemoteServer } from "../src/remote/server.ts";
import { webSocketClientTransport } from "../src/remote/ws-client.ts";
import { arg, collect, emit, QUICK, Recorder, rotate, selected, tick, time } from "./lib/harness.ts";
import { oursAgent, sdkServer, type Mode } from "./lib/remote-peers.ts";
const CONNECTIONS = 4;
/** Prompts in flight per connection, one per session (a session's messages travel in order, one at a time). */
const IN_FLIGHT = 16;
const ROUNDS = QUICK ? 1 : 3;
const MEM_CONNECTIONS = QUICK ? 10 : 100;
const SESSIONS_PER_CONNECTION = QUICK ? 10 : 100;
const SOAK_TURNS = QUICK ? 200 : 5000;

/** One client connection with IN_FLIGHT sessions: `burst()` runs one prompt in each, concurrently. */
interface BenchClient {
  burst(): Promise<string[]>;
  close(): void;
}

/** Which client drives a server: ours or the SDK's, on which fetch (HTTP), with session-scoped streams or not (ours). */
interface ClientSpec {
  readonly kind: "ours" | "sdk";
  readonly fetch?: "node" | "h1";
  readonly sessionStreams?: boolean;
}

async function oursClient(url: string, mode: Mode, fetch: typeof globalThis.fetch | undefined, spec: ClientSpec): Promise<BenchClient> {
  const transport: Transport = mode === "ws" ? webSocketClientTransport(url.replace(/^http/, "ws"), { WebSocket: nodeWebSocket }) : httpClientTransport(url, { ...(fetch ? { fetch } : {}), sessionStreams: spec.sessionStreams === true });
  let updates = 0;
  const conn: ClientConnection = connectClient({ requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => void updates++ }, transport);
  await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
  const sessions: string[] = [];
  for (let i = 0; i < IN_FLIGHT; i++) sessions.push((await conn.agent.newSession({ cwd: "/", mcpServers: [] })).sessionId);
  return {
    burst: () => Promise.all(sessions.map(async (sessionId) => (await conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hi" }] })).stopReason)),
    close: () => conn.close(),
  };
}

async function sdkClient(url: string, mode: Mode, fetch: typeof globalThis.fetch | undefined): Promise<BenchClient> {
  const stream = mode === "ws" ? createWebSocketStream(url.replace(/^http/, "ws"), { WebSocket: WebSocket as never }) : createHttpStream(url, fetch ? { fetch } : {});
  let updates = 0;
  const connection = acp
    .client({ name: "bench" })
    .onNotification(acp.methods.client.session.update, () => void updates++)
    .connect(stream);
  const agent = connection.agent;
  await agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
  const sessions: string[] = [];
  for (let i = 0; i < IN_FLIGHT; i++) sessions.push((await agent.request(acp.methods.agent.session.new, { cwd: "/", mcpServers: [] })).sessionId);
  return {
    burst: () => Promise.all(sessions.map(async (sessionId) => (await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "hi" }] })).stopReason)),
    close: () => void connection.close?.(),
  };
}

interface Setup {
  burst(): Promise<string[]>;
  close(): Promise<void>;
}

/** `server` (ours or the SDK's) on `mode`, with CONNECTIONS clients of `spec` sharing one fetch (HTTP/2: one session). */
async function setup(server: "ours" | "sdk", mode: Mode, spec: ClientSpec): Promise<Setup> {
  const h2 = mode === "h2" ? createH2Fetch() : undefined;
  const h1 = mode === "http1" && spec.fetch === "h1" ? createHttp1Fetch() : undefined;
  let url: string;
  let closeServer: () => Promise<void>;
  if (server === "ours") {
    const remote = createRemoteServer({ protocol, agent: oursAgent() });
    const listening = await listen(remote, { protocol: mode === "h2" ? "h2c" : "http1" });
    url = listening.url;
    closeServer = () => listening.close({ graceMs: 0 });
  } else {
    const s = await sdkServer(mode);
    url = s.url;
    closeServer = () => s.close();
  }
  const fetch = h2 ?? h1;
  const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => (spec.kind === "ours" ? oursClient(url, mode, fetch, spec) : sdkClient(url, mode, fetch))));
  return {
    burst: async () => (await Promise.all(clients.map((c) => c.burst()))).flat(),
    async close() {
      for (const c of clients) c.close();
      // Let the clients' DELETEs go out before their HTTP/2 session and the server go away.
      await new Promise((resolve) => setTimeout(resolve, 200));
      h2?.close();
      h1?.close();
      await closeServer();
    },
  };
}

/** One row of the table: a mode, and per column ("ours", "sdk") the server and the client that drives it. */
interface Row {
  readonly mode: Mode;
  readonly label: string;
  readonly columns: Readonly<Partial<Record<"ours" | "sdk", ClientSpec>>>;
}

/** The client of the "same client" rows: one spec object for both columns (the ratio note keys on it). */
const SAME_H1: ClientSpec = { kind: "ours", fetch: "h1", sessionStreams: true };
const SAME_WS: ClientSpec = { kind: "ours" };
const ROWS: Row[] = [
  { mode: "http1", label: "HTTP/1.1, same client for both servers (ours on createHttp1Fetch, session streams)", columns: { ours: SAME_H1, sdk: SAME_H1 } },
  { mode: "http1", label: "HTTP/1.1, own clients on createHttp1Fetch", columns: { ours: { kind: "ours", fetch: "h1" }, sdk: { kind: "sdk", fetch: "h1" } } },
  { mode: "http1", label: "HTTP/1.1, own clients on Node's fetch", columns: { ours: { kind: "ours", fetch: "node" }, sdk: { kind: "sdk", fetch: "node" } } },
  // Measured: the SDK's node adapter copies HTTP/2 pseudo-headers into a fetch Headers and answers 500.
  { mode: "h2", label: "HTTP/2 (h2c), own client on createH2Fetch", columns: { ours: { kind: "ours" } } },
  { mode: "ws", label: "WebSocket, same client for both servers (ours on ws)", columns: { ours: SAME_WS, sdk: SAME_WS } },
  { mode: "ws", label: "WebSocket, own clients on ws", columns: { ours: { kind: "ours" }, sdk: { kind: "sdk" } } },
];

/** Child mode: a memory server for one peer over WebSocket; answers `measure` messages with its heap after GC. */
async function serve(peer: string): Promise<void> {
  let url: string;
  if (peer === "ours") url = (await listen(createRemoteServer({ protocol, agent: oursAgent(), maxConnections: 100_000 }))).url;
  else url = (await sdkServer("ws")).url;
  process.on("message", () => {
    collect();
    const m = process.memoryUsage();
    process.send?.({ heapUsed: m.heapUsed, rss: m.rss, external: m.external + m.arrayBuffers });
  });
  process.send?.({ url });
}

interface Memory {
  heapUsed: number;
  rss: number;
  external: number;
}

async function memory(peer: "ours" | "sdk", rec: Recorder): Promise<void> {
  const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", new URL(import.meta.url).pathname, `--serve=${peer}`], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const replies: ((m: unknown) => void)[] = [];
  child.on("message", (m) => replies.shift()?.(m));
  const next = <T>() => new Promise<T>((resolve) => replies.push(resolve as (m: unknown) => void));
  const { url } = await next<{ url: string }>();
  const measure = async () => {
    await new Promise((r) => setTimeout(r, 200));
    child.send("measure");
    return next<Memory>();
  };
  const base = await measure();
  const sessions: (() => Promise<string>)[] = [];
  const wsConns: ClientConnection[] = [];
  for (let i = 0; i < MEM_CONNECTIONS; i++) {
    const conn = connectClient({ requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {} }, webSocketClientTransport(url.replace(/^http/, "ws"), { WebSocket: nodeWebSocket }));
    await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    wsConns.push(conn);
  }
  const idleConnections = await measure();
  rec.add(`heap per idle WebSocket connection (${MEM_CONNECTIONS})`, peer, (idleConnections.heapUsed - base.heapUsed) / MEM_CONNECTIONS);
  for (const conn of wsConns) {
    for (let s = 0; s < SESSIONS_PER_CONNECTION; s++) {
      const { sessionId } = await conn.agent.newSession({ cwd: "/", mcpServers: [] });
      sessions.push(async () => (await conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hi" }] })).stopReason);
    }
  }
  const total = MEM_CONNECTIONS * SESSIONS_PER_CONNECTION;
  const idleSessions = await measure();
  const perSession = (idleSessions.heapUsed - idleConnections.heapUsed) / total;
  rec.add(`heap per idle session (${total} sessions)`, peer, perSession);
  for (let i = 0; i < SOAK_TURNS; i += 100) await Promise.all(Array.from({ length: 100 }, (_, k) => (sessions[(i + k) % sessions.length] as () => Promise<string>)()));
  const afterSoak = await measure();
  rec.add(`heap per idle session after ${SOAK_TURNS} turns`, peer, (afterSoak.heapUsed - idleConnections.heapUsed) / total);
  rec.notes.push(`${peer}: rss ${mb(base.rss)} → ${mb(idleSessions.rss)} with ${total} sessions → ${mb(afterSoak.rss)} after the soak; heap ${mb(base.heapUsed)} → ${mb(idleSessions.heapUsed)} → ${mb(afterSoak.heapUsed)}`);
  rec.verify(`${peer} memory: ${total} sessions served`, sessions.length === total);
  for (const c of wsConns) c.close();
  child.kill();
}

/** Notes each row's ours/sdk ratio of medians, and whether the servers' ≥ 3× target holds on the same-client rows. */
function ratios(rec: Recorder): void {
  const { results } = rec.result({ figure: "", title: "", unit: "", better: "higher", rounds: ROUNDS });
  for (const row of ROWS) {
    const of = (peer: string) => results.find((r) => r.case === `prompt round trips, ${row.label}` && r.peer === peer)?.value;
    const ours = of("ours");
    const sdk = of("sdk");
    if (ours === undefined || sdk === undefined) continue;
    const ratio = ours / sdk;
    // Server and clients share this process here: the servers' own ratio (the ≥ 3× target) is figure 13, remote-server.ts.
    const target = row.columns.ours === row.columns.sdk ? "; the servers' own ratio, each in its own process: figure 13 (remote-server)" : "";
    rec.notes.push(`${row.label}: ours ${Math.round(ours)} vs sdk ${Math.round(sdk)} round trips/s = ${ratio.toFixed(2)}×${target}`);
  }
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

// A rejection nobody handled is a bug of the code measured: report where it came from, then fail.
process.on("unhandledRejection", (error) => {
  process.stderr.write(`unhandled rejection: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

const serving = arg("serve");
if (serving !== undefined) await serve(serving);
else {
  const rec = new Recorder();
  const peers = (["ours", "sdk"] as const).filter((p) => selected(p));
  const onlyModes = arg("modes")?.split(",");
  for (const row of ROWS) {
    if (onlyModes && !onlyModes.includes(row.mode)) continue;
    const setups: Record<string, Setup> = {};
    for (const peer of peers) {
      const spec = row.columns[peer];
      if (spec === undefined) continue;
      try {
        setups[peer] = await setup(peer, row.mode, spec);
        const answers = await setups[peer].burst();
        rec.verify(`${peer} server, ${row.label}`, answers.length === CONNECTIONS * IN_FLIGHT && answers.every((a) => a === "end_turn"));
      } catch (error) {
        rec.verify(`${peer} server, ${row.label}`, false);
        rec.notes.push(`${peer} server, ${row.label} failed: ${error instanceof Error ? error.message : String(error)}`);
        delete setups[peer];
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const peer of rotate(Object.keys(setups), round)) {
        const t = await time(() => (setups[peer] as Setup).burst());
        rec.add(`prompt round trips, ${row.label}`, peer, (CONNECTIONS * IN_FLIGHT) / (t.p50 / 1e9));
        await tick();
      }
    }
    for (const s of Object.values(setups)) await s.close();
  }
  if (peers.includes("sdk")) rec.notes.push("sdk over h2c: not run; the SDK's createNodeHttpHandler fails on node:http2 requests (\"Headers.set: ':method' is an invalid header name\", HTTP 500)");
  ratios(rec);
  if (arg("memory") !== "off") for (const peer of peers) await memory(peer, rec);
  rec.notes.push(
    `round trips: ${CONNECTIONS} connections × ${IN_FLIGHT} sessions, one prompt in flight per session, the same agent work (one update per prompt), server and clients in one process; "same client" rows drive both servers with our transport and identical options, "own clients" rows each side's client on the fetch named`,
  );
  rec.notes.push(`targets: round trips ≥ 3× the SDK's; ≤ 10 KB (10,240 B) heap per idle session, flat after the soak`);
  emit(rec.result({ figure: "remote", title: "Remote ACP: round trips/s and server heap (B) per idle connection and session", unit: "rt/s | B", better: "higher", rounds: ROUNDS }));
}
