/**
 * Figure 12 — one-sided ingest per protocol table: the same 256 `session/prompt`
 * lines (1 KB; and invalid ones, answered -32602) fed to acp-router agents on
 * the v1 stable table (`acp-router`, the baseline), the v1-unstable table
 * (`acp-router/unstable`) and the v2 table (`acp-router/v2`), in the same
 * rounds. A v2 prompt is answered with its acknowledgement (`{messageId}`);
 * its turn stays open, as v2's does until the agent's idle `state_update`.
 * Output: messages per second (median over rounds); target: each within
 * 10 % of v1 stable.
 *
 *   node --expose-gc --import tsx bench/ingest-versions.ts [--quick]
 */
import * as v1 from "../src/index.ts";
import * as unstable from "../src/unstable/index.ts";
import * as v2 from "../src/v2/index.ts";
import { emit, QUICK, Recorder, rotate, tick, time } from "./lib/harness.ts";
import { chunk, SESSION_ID } from "./lib/messages.ts";
import { BenchTransport } from "./lib/peers.ts";
import { checkAnswers, ingestPeer, Sink, type IngestPeer } from "./lib/sink.ts";

const IN_FLIGHT = 256;
const ROUNDS = QUICK ? 1 : 5;
const encoder = new TextEncoder();
const initialize = (params: object) => encoder.encode(`${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params })}\n`);

/** An initialized agent of one table, fed raw bytes. */
async function agent(connect: (t: v1.Transport) => { close(): void }, init: Uint8Array, capture: boolean): Promise<IngestPeer> {
  const sink = new Sink(capture);
  const transport = new BenchTransport(sink);
  const conn = connect(transport);
  const peer = ingestPeer(
    sink.answers,
    (bytes) => transport.push(bytes),
    sink,
    () => conn.close(),
  );
  await peer.feed(init, 1);
  peer.takeOutput();
  return peer;
}

const v1Handler: v1.AgentHandler = { initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }), newSession: () => ({ sessionId: SESSION_ID }), prompt: async () => ({ stopReason: "end_turn" }) };
const unstableHandler: unstable.AgentHandler = { initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }), newSession: () => ({ sessionId: SESSION_ID }), prompt: async () => ({ stopReason: "end_turn" }) };
const v2Handler: v2.AgentHandler = {
  initialize: () => ({ protocolVersion: 2, info: { name: "bench", version: "1" }, capabilities: { session: {} } }),
  newSession: () => ({ sessionId: SESSION_ID }),
  prompt: async () => ({ messageId: "m-1" }),
};

const TABLES = {
  "v1 stable": { make: (c: boolean) => agent((t) => v1.connectAgent(v1Handler, t), initialize({ protocolVersion: 1, clientCapabilities: {} }), c), ok: (m: Record<string, unknown>) => (m.result as { stopReason?: unknown } | undefined)?.stopReason === "end_turn" },
  "ours v1-unstable": { make: (c: boolean) => agent((t) => unstable.connectAgent(unstableHandler, t), initialize({ protocolVersion: 1, clientCapabilities: {} }), c), ok: (m: Record<string, unknown>) => (m.result as { stopReason?: unknown } | undefined)?.stopReason === "end_turn" },
  "ours v2": { make: (c: boolean) => agent((t) => v2.connectAgent(v2Handler, t), initialize({ protocolVersion: 2, info: { name: "bench", version: "1" }, capabilities: {} }), c), ok: (m: Record<string, unknown>) => (m.result as { messageId?: unknown } | undefined)?.messageId === "m-1" },
};
const CASES = [
  { label: "session/prompt (1 KB)", kind: "prompt" as const },
  { label: "invalid session/prompt (-32602)", kind: "invalid" as const },
];

const rec = new Recorder();
for (const { label, kind } of CASES) {
  const bytes = chunk(kind, IN_FLIGHT);
  for (const [name, table] of Object.entries(TABLES)) {
    const peer = await table.make(true);
    await peer.feed(bytes, IN_FLIGHT);
    const invalid = (m: Record<string, unknown>) => (m.error as { code?: unknown } | undefined)?.code === -32602;
    rec.verify(`${name} ${kind}`, checkAnswers(peer.takeOutput(), IN_FLIGHT, kind === "prompt" ? table.ok : invalid));
    peer.close();
  }
  const live: Record<string, IngestPeer> = {};
  for (const [name, table] of Object.entries(TABLES)) live[name] = await table.make(false);
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of rotate(Object.keys(live), round)) {
      const t = await time(() => (live[name] as IngestPeer).feed(bytes, IN_FLIGHT));
      rec.add(label, name, IN_FLIGHT / (t.p50 / 1e9));
      await tick();
    }
  }
  for (const peer of Object.values(live)) peer.close();
}
rec.notes.push(`${IN_FLIGHT} lines per chunk, full validation, all three tables loaded from source in one process; ${ROUNDS} round(s), tables alternating; target: each ≥ 0.9× v1 stable`);
emit(rec.result({ figure: "ingest-versions", title: "Ingest per protocol table, 256 in flight (msgs/s)", unit: "msgs/s", better: "higher", rounds: ROUNDS }));
