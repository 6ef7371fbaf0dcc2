/**
 * Figure 11 — a client taking `session/update`s over real stdio pipes: one
 * agent process (`lib/update-streamer.ts`, no library, the same for every
 * client) answers each `session/prompt` with 200,000 `session/update`
 * chunks (200 characters) and then `end_turn`. Clients, alternating in the
 * same rounds: the floor client (the floor's decode-split-parse-switch with
 * a counting handler), the client built on acp-router (`spawnAgent` +
 * `connectClient`, default options) and the SDK's client app
 * (`ndJsonStream` on the child's pipes). A turn ends once the prompt's
 * answer arrived and every update was handled. Output: updates per second
 * (median over rounds).
 *
 *   node --expose-gc --import tsx bench/stdio-client.ts [--quick] [--only=ours] [--updates=200000]
 */
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { addRoundRatios, arg, emit, QUICK, Recorder, rotate, selected } from "./lib/harness.ts";
import { floorLines } from "./lib/floor.ts";
import { promptParams } from "./lib/messages.ts";
import { ours, oursStdio } from "./lib/ours.ts";
import { oursClientHandler, sdkClientApp } from "./lib/peers.ts";
import { scriptCommand, seconds, startScript } from "./lib/processes.ts";
import { Counter } from "./lib/sink.ts";

const UPDATES = Number(arg("updates") ?? (QUICK ? 20_000 : 200_000));
const ROUNDS = QUICK ? 1 : 9;
const CASE = `session/update chunks (200 chars), ${UPDATES.toLocaleString("en-US")} per turn`;
const INIT_PARAMS = { protocolVersion: 1, clientCapabilities: {} };
const NEW_SESSION_PARAMS = { cwd: "/tmp", mcpServers: [] };

/** A client connected to its own streamer process; `turn()` is one prompt and its updates. */
interface StdioClient {
  /** Sends a prompt; resolves with its stop reason once it was answered and every update was handled. */
  turn(): Promise<unknown>;
  /** Updates handled in the last turn. */
  readonly handled: number;
  close(): void;
}

/** The floor client: writes request lines, reads with the floor's line handling, counts updates. */
async function floorClient(): Promise<StdioClient> {
  const child = startScript("update-streamer.ts", [String(UPDATES)]);
  const counter = new Counter();
  const waiting = new Map<unknown, (result: unknown) => void>();
  let nextId = 0;
  const push = floorLines({
    answer: (text) => child.stdin.write(text),
    update: () => counter.hit(),
    response: (message) => {
      waiting.get(message.id)?.(message.result);
      waiting.delete(message.id);
    },
  });
  child.stdout.on("data", push);
  const request = (method: string, params: object) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  await request("initialize", INIT_PARAMS);
  await request("session/new", NEW_SESSION_PARAMS);
  return {
    turn: async () => (await Promise.all([request("session/prompt", promptParams), counter.wait(UPDATES)]))[0],
    get handled() {
      return counter.count;
    },
    close: () => child.stdin.end(),
  };
}

/** acp-router's client over `spawnAgent`. */
async function oursClient(): Promise<StdioClient> {
  const [file, args] = scriptCommand("update-streamer.ts", [String(UPDATES)]);
  const agent = oursStdio.spawnAgent(file, args, { stderr: "inherit" });
  const counter = new Counter();
  const conn = ours.connectClient(
    oursClientHandler(() => counter.hit()),
    agent.transport,
  );
  await conn.agent.initialize(INIT_PARAMS);
  await conn.agent.newSession(NEW_SESSION_PARAMS);
  return {
    turn: async () => (await Promise.all([conn.agent.prompt(promptParams), counter.wait(UPDATES)]))[0],
    get handled() {
      return counter.count;
    },
    close: () => conn.close(),
  };
}

/** The SDK's client app over `ndJsonStream` on the child's pipes. */
async function sdkClient(): Promise<StdioClient> {
  const child = startScript("update-streamer.ts", [String(UPDATES)]);
  const counter = new Counter();
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
  const conn = sdkClientApp(() => counter.hit()).connect(stream);
  const ctx = conn.agent;
  await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  await ctx.request(acp.methods.agent.session.new, NEW_SESSION_PARAMS);
  return {
    turn: async () => (await Promise.all([ctx.request(acp.methods.agent.session.prompt, promptParams), counter.wait(UPDATES)]))[0],
    get handled() {
      return counter.count;
    },
    close: () => {
      conn.close();
      child.stdin.end();
    },
  };
}

const makers: Record<string, () => Promise<StdioClient>> = { floor: floorClient, sdk: sdkClient, ours: oursClient };
const rec = new Recorder();
const names = Object.keys(makers).filter(selected);
const clients: Record<string, StdioClient> = {};
for (const name of names) {
  const client = await (makers[name] as () => Promise<StdioClient>)();
  // One untimed turn: checks the answer and the count, and warms up.
  const answer = (await client.turn()) as { stopReason?: unknown } | undefined;
  rec.verify(`${name} stdio updates`, answer?.stopReason === "end_turn" && client.handled === UPDATES);
  clients[name] = client;
}
for (let round = 0; round < ROUNDS; round++) {
  for (const name of rotate(names, round)) {
    const client = clients[name] as StdioClient;
    (globalThis as { gc?: () => void }).gc?.();
    const s = await seconds(() => client.turn());
    rec.add(CASE, name, client.handled / s);
  }
}
for (const client of Object.values(clients)) client.close();
addRoundRatios(rec, CASE);
rec.notes.push(`one streamer process per client writes ${UPDATES} update lines per prompt as fast as the client reads; value = updates/s over the whole turn, median of ${ROUNDS} round(s); the target uses the median of the same-round ratios to the floor, clients alternating`);
rec.notes.push("clients: floor = decode, split, JSON.parse, switch, counting handler; ours = spawnAgent + connectClient, full validation; sdk = client() app over ndJsonStream");
emit(rec.result({ figure: "stdio-client", title: "Client over stdio, one agent streaming session/updates (updates/s)", unit: "updates/s", better: "higher", rounds: ROUNDS }));
