/**
 * Figure 1 — one-sided ingest: bytes in → handler → bytes out, 256 in
 * flight (256 lines fed as one chunk, then wait for 256 answers), for each
 * of the three messages; floor, SDK and ours measured in the same rounds.
 * Output: messages per second (median over rounds).
 *
 *   node --expose-gc --import tsx bench/ingest.ts [--quick] [--only=ours] [--messages=prompt,update]
 */
import { addRoundRatios, arg, emit, QUICK, Recorder, rotate, selected, tick, time } from "./lib/harness.ts";
import { chunk, MESSAGE_LABEL, type MessageKind } from "./lib/messages.ts";
import { floorPeer } from "./lib/floor.ts";
import { oursAgent, oursClient, sdkAgent, sdkClient } from "./lib/peers.ts";
import { checkAnswers, expectations, type IngestPeer } from "./lib/sink.ts";

const IN_FLIGHT = 256;
const ROUNDS = QUICK ? 1 : 5;
const KINDS = (arg("messages")?.split(",") ?? ["prompt", "update", "invalid"]) as MessageKind[];

type Maker = (capture: boolean) => IngestPeer | Promise<IngestPeer>;

/** The peer of each name for a message kind: agents take requests, clients take updates. */
function makers(kind: MessageKind): Record<string, Maker> {
  const all: Record<string, Maker> = {
    floor: (capture) => floorPeer(capture),
    sdk: (capture) => (kind === "update" ? sdkClient({ capture }) : sdkAgent({ capture })),
    ours: (capture) => (kind === "update" ? oursClient({ capture }) : oursAgent({ capture })),
  };
  return Object.fromEntries(Object.entries(all).filter(([name]) => selected(name)));
}

const rec = new Recorder();
for (const kind of KINDS) {
  const bytes = chunk(kind, IN_FLIGHT);
  const peers = makers(kind);
  // Verify each peer's real answers once before timing anything.
  for (const [name, make] of Object.entries(peers)) {
    const peer = await make(true);
    await peer.feed(bytes, IN_FLIGHT);
    const out = peer.takeOutput();
    const ok = kind === "update" ? out === "" : checkAnswers(out, IN_FLIGHT, expectations[kind]);
    rec.verify(`${name} ${kind}`, ok);
    peer.close();
  }
  const live: Record<string, IngestPeer> = {};
  for (const [name, make] of Object.entries(peers)) live[name] = await make(false);
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of rotate(Object.keys(live), round)) {
      const peer = live[name] as IngestPeer;
      const t = await time(() => peer.feed(bytes, IN_FLIGHT));
      rec.add(MESSAGE_LABEL[kind], name, IN_FLIGHT / (t.p50 / 1e9));
      await tick();
    }
  }
  for (const peer of Object.values(live)) peer.close();
  addRoundRatios(rec, MESSAGE_LABEL[kind]);
}
rec.notes.push(`${IN_FLIGHT} lines per chunk; value = messages/s from the median time per chunk; ${ROUNDS} round(s), peers alternating; the floor targets use the median of the same-round ratios to the floor`);
rec.notes.push("floor: Buffer utf8 decode, split lines, JSON.parse, switch on method, trivial sync handler, JSON.stringify, TextEncoder per answer; no validation");
emit(rec.result({ figure: "ingest", title: "One-sided ingest, 256 in flight (msgs/s)", unit: "msgs/s", better: "higher", rounds: ROUNDS }));
