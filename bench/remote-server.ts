/**
 * Figure 13 — the remote servers' own throughput, each server in its own
 * process (figure 9 runs server and clients in one process, so the clients'
 * work dilutes the servers' ratio). Our server and the SDK's experimental
 * `AcpServer` serve the same agent work (`lib/remote-peers.ts`) from child
 * processes, HTTP/1.1 and WebSocket on one port; the bench process drives
 * each with
 *
 *  - lean load generators, as `wrk` drives an HTTP server, so the server is
 *    what saturates: `lib/sse-load.ts` (Streamable HTTP over raw sockets) and
 *    `lib/ws-load.ts` (WebSocket on `ws`), no client library;
 *  - our client transports, the same client for both servers:
 *    `httpClientTransport` on `createHttp1Fetch` with session streams, and
 *    `webSocketClientTransport`.
 *
 * A third peer, `floor` (`floorServer`: bare `node:http`, `JSON.parse`,
 * `switch`, `JSON.stringify`, no checks), driven by the HTTP load generator,
 * shows what the HTTP exchanges alone cost on Node: the ceiling of any
 * server's ratio to the SDK's.
 *
 * 4 connections × 16 sessions, one prompt in flight per session; each
 * prompt is one `session/update` and the answer. Per round and driver it
 * records wall round trips per second and the server's capacity: round trips
 * per second of the server process's own CPU time (`process.cpuUsage()` in
 * the child), which is what one core of server buys.
 *
 *   node --expose-gc --import tsx bench/remote-server.ts [--quick] [--only=floor,ours,sdk] [--sample-ms=2000]
 *   (BENCH_TRACE=1 prints each step to stderr)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { connectClient, protocol, type ClientConnection } from "../src/index.ts";
import { httpClientTransport } from "../src/remote/http-client.ts";
import { listen } from "../src/remote/node.ts";
import { createHttp1Fetch } from "../src/remote/node-h1.ts";
import { nodeWebSocket } from "../src/remote/node-ws.ts";
import { createRemoteServer } from "../src/remote/server.ts";
import { webSocketClientTransport } from "../src/remote/ws-client.ts";
import { arg, emit, median, QUICK, Recorder, rotate, selected, tick } from "./lib/harness.ts";
import { floorServer, oursAgent, sdkServer } from "./lib/remote-peers.ts";
import type { Load } from "./lib/load.ts";
import { sseLoad } from "./lib/sse-load.ts";
import { wsLoad } from "./lib/ws-load.ts";

const CONNECTIONS = 4;
const SESSIONS = 16;
const ROUNDS = QUICK ? 1 : 5;
/** Wall time per measurement. */
const SAMPLE_MS = Number(arg("sample-ms") ?? (QUICK ? 300 : 2000));
const WARMUP_BURSTS = QUICK ? 5 : 40;

/** `floor`: a bare `node:http` server (`floorServer`), HTTP/1.1 only, for the ceiling any server on Node has. */
type Peer = "floor" | "ours" | "sdk";
const DRIVERS = {
  "HTTP/1.1, load generator": (url: string) => sseLoad(url, { connections: CONNECTIONS, sessions: SESSIONS }),
  "HTTP/1.1, our client": (url: string) => ourClient(url, "http"),
  "WebSocket, load generator": (url: string) => wsLoad(url, { connections: CONNECTIONS, sessions: SESSIONS }),
  "WebSocket, our client": (url: string) => ourClient(url, "ws"),
} as const;
type Driver = keyof typeof DRIVERS;
const DRIVER_NAMES = Object.keys(DRIVERS) as Driver[];

/** Child mode: serve one peer on HTTP/1.1 and WebSocket; answer each IPC message with this process's CPU usage. */
async function serve(peer: string): Promise<void> {
  const url = peer === "ours" ? (await listen(createRemoteServer({ protocol, agent: oursAgent() }), { protocol: "http1" })).url : peer === "sdk" ? (await sdkServer("http1")).url : (await floorServer()).url;
  process.on("message", () => process.send?.(process.cpuUsage()));
  process.send?.({ url });
}

interface Server {
  readonly url: string;
  /** Microseconds of CPU the server process used so far. */
  cpu(): Promise<number>;
  readonly child: ChildProcess;
}

async function start(peer: Peer): Promise<Server> {
  const child = spawn(process.execPath, ["--import", "tsx", new URL(import.meta.url).pathname, `--serve=${peer}`], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const replies: ((m: unknown) => void)[] = [];
  child.on("message", (m) => replies.shift()?.(m));
  const next = <T>() => new Promise<T>((resolve) => replies.push(resolve as (m: unknown) => void));
  const { url } = await next<{ url: string }>();
  return {
    url,
    child,
    async cpu() {
      child.send("cpu");
      const usage = await next<{ user: number; system: number }>();
      return usage.user + usage.system;
    },
  };
}

/** Our client transport, 4 connections × 16 sessions (HTTP: on one keep-alive fetch). */
async function ourClient(url: string, kind: "http" | "ws"): Promise<Load> {
  const fetch = createHttp1Fetch();
  let updates = 0;
  const conns: { conn: ClientConnection; sessions: string[] }[] = [];
  for (let c = 0; c < CONNECTIONS; c++) {
    const transport = kind === "ws" ? webSocketClientTransport(url.replace(/^http/, "ws"), { WebSocket: nodeWebSocket }) : httpClientTransport(url, { fetch, sessionStreams: true });
    const conn = connectClient({ requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => void updates++ }, transport);
    await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    const sessions: string[] = [];
    for (let s = 0; s < SESSIONS; s++) sessions.push((await conn.agent.newSession({ cwd: "/", mcpServers: [] })).sessionId);
    conns.push({ conn, sessions });
  }
  return {
    async burst() {
      const answers = await Promise.all(conns.flatMap(({ conn, sessions }) => sessions.map((sessionId) => conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hi" }] }))));
      if (!answers.every((a) => a.stopReason === "end_turn")) throw new Error("a prompt did not end with end_turn");
      return answers.length;
    },
    get updates() {
      return updates;
    },
    close() {
      for (const { conn } of conns) conn.close();
      setTimeout(() => fetch.close(), 200);
    },
  };
}

/** Bursts for SAMPLE_MS; returns wall round trips/s and round trips per server CPU second. */
async function sample(server: Server, load: Load): Promise<{ wall: number; capacity: number; driverCpu: number }> {
  const cpu0 = await server.cpu();
  const own0 = process.cpuUsage();
  const t0 = performance.now();
  let trips = 0;
  while (performance.now() - t0 < SAMPLE_MS) trips += await load.burst();
  const seconds = (performance.now() - t0) / 1000;
  const own = process.cpuUsage(own0);
  const cpu = (await server.cpu()) - cpu0;
  return { wall: trips / seconds, capacity: trips / (cpu / 1e6), driverCpu: (own.user + own.system) / trips };
}

const serving = arg("serve");
if (serving !== undefined) await serve(serving);
else {
  const rec = new Recorder();
  const peers = (["floor", "ours", "sdk"] as const).filter((p) => selected(p));
  /** The floor speaks HTTP/1.1 only, and is driven only by the load generator. */
  const drives = (peer: Peer, driver: Driver) => peer !== "floor" || driver === "HTTP/1.1, load generator";
  const servers = {} as Record<Peer, Server>;
  const loads = {} as Record<Peer, Record<Driver, Load>>;
  for (const peer of peers) {
    const server = await start(peer);
    servers[peer] = server;
    loads[peer] = {} as Record<Driver, Load>;
    for (const driver of DRIVER_NAMES.filter((d) => drives(peer, d))) {
      if (process.env.BENCH_TRACE) process.stderr.write(`${new Date().toISOString()} setup ${driver} ${peer}\n`);
      const load = await DRIVERS[driver](server.url);
      loads[peer][driver] = load;
      for (let i = 0; i < WARMUP_BURSTS; i++) await load.burst();
      rec.verify(`${peer} server, ${driver}: every prompt answered end_turn, one update each`, load.updates === WARMUP_BURSTS * CONNECTIONS * SESSIONS);
    }
  }
  const driverCpus: Partial<Record<Driver, number[]>> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const driver of DRIVER_NAMES) {
      for (const peer of rotate(peers, round).filter((p) => drives(p, driver))) {
        if (process.env.BENCH_TRACE) process.stderr.write(`${new Date().toISOString()} round ${round} ${driver} ${peer}\n`);
        const { wall, capacity, driverCpu } = await sample(servers[peer], loads[peer][driver]);
        rec.add(`round trips/s (wall), ${driver}`, peer, wall);
        rec.add(`round trips per server CPU second, ${driver}`, peer, capacity);
        (driverCpus[driver] ??= []).push(driverCpu);
        await tick();
      }
    }
  }
  for (const peer of peers) {
    for (const driver of DRIVER_NAMES.filter((d) => drives(peer, d))) loads[peer][driver].close();
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  for (const peer of peers) servers[peer].child.kill();
  const { results } = rec.result({ figure: "", title: "", unit: "", better: "higher", rounds: ROUNDS });
  for (const r of results.filter((r) => r.peer === "ours")) {
    const floor = results.find((s) => s.case === r.case && s.peer === "floor");
    if (floor) rec.notes.push(`${r.case}: ours ${(r.value / floor.value).toFixed(2)}× the floor (${Math.round(floor.value)}); the SDK ${((results.find((s) => s.case === r.case && s.peer === "sdk")?.value ?? Number.NaN) / floor.value).toFixed(2)}×`);
    const sdk = results.find((s) => s.case === r.case && s.peer === "sdk");
    if (sdk) rec.notes.push(`${r.case}: ours ${Math.round(r.value)} vs sdk ${Math.round(sdk.value)} = ${(r.value / sdk.value).toFixed(2)}×${r.case.includes("load generator") ? `; target ≥ 3×: ${r.value / sdk.value >= 3 ? "met" : "NOT met"}` : ""}`);
  }
  for (const driver of DRIVER_NAMES) rec.notes.push(`${driver}: ${median(driverCpus[driver] ?? []).toFixed(0)} µs of the bench process's CPU per round trip (median over all servers and rounds)`);
  rec.notes.push(`${CONNECTIONS} connections × ${SESSIONS} sessions, one prompt in flight per session, one update per prompt; each server in its own process, driven from the bench process; ${ROUNDS} rounds of ${SAMPLE_MS} ms per driver and peer, medians`);
  emit(rec.result({ figure: "remote-server", title: "Remote servers in their own processes, HTTP/1.1 and WebSocket: round trips/s", unit: "rt/s", better: "higher", rounds: ROUNDS }));
}
