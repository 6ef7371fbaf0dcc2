/**
 * Figure 15 — the cost of one proxy hop: the same client (connectClient
 * over spawnAgent) drives the same agent (test/fixtures/stdio-agent.ts)
 * five ways in the same rounds, peers alternating: direct; behind a bare
 * byte relay process (lib/relay.ts, the cost of an extra process hop
 * alone); behind three bare relays in a row (as many process crossings as
 * the out-of-process chain's, doing nothing: the floor of its shape);
 * through `acp-router conduct` with one pass-through proxy (lib/pass-proxy.ts)
 * in a process of its own in front of the agent — the conductor and the
 * proxy read each line's head off it (src/jsonrpc/scan.ts) and pass it on as
 * text (the proxy's pass-through path, src/proxy/pass.ts); a message crosses
 * the conductor, the proxy and the conductor again each way; and the same
 * proxy hosted in the conductor's process (`--proxy-module`), which carries
 * what the proxy passes verbatim past it: one process crossing, as the
 * relay's. Prints prompt throughput with 64 prompts in flight and the ratios
 * to the relay, to three relays and to direct (medians of same-round
 * ratios); in the notes, the figure's three targets, the p50 of one
 * sequential round trip each way and the load average. Printed, never
 * asserted.
 *
 *   node --expose-gc --import tsx bench/proxy.ts [--quick]
 */
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { addRoundRatios, emit, QUICK, Recorder, rotate, tick, time } from "./lib/harness.ts";
import { openProcessClient as open, type ProcessClient as Pair } from "./lib/process-client.ts";

const IN_FLIGHT = 64;
const ROUNDS = QUICK ? 1 : 7;
const CASE = `session/prompt, ${IN_FLIGHT} in flight`;
const tsxNode = (file: string) => [process.execPath, "--import", "tsx", fileURLToPath(new URL(file, import.meta.url))];
const agent = tsxNode("../test/fixtures/stdio-agent.ts");
const conductMain = pathToFileURL(fileURLToPath(new URL("../tools/conduct/main.ts", import.meta.url))).href;
// What the package bin does for `acp-router conduct …`, without depending on the bin.
const conductor = [process.execPath, "--import", "tsx", "--input-type=module", "-e", `import { conductMain } from ${JSON.stringify(conductMain)}; process.exit(await conductMain(process.argv.slice(1)));`, "--"];
const throughChain = [...conductor, "--", ...tsxNode("./lib/pass-proxy.ts"), "--", ...agent];
const throughHosted = [...conductor, "--proxy-module", fileURLToPath(new URL("./lib/pass-proxy.ts", import.meta.url)), "--", ...agent];
const behindRelay = [...tsxNode("./lib/relay.ts"), ...agent];
// The floor of a chain's shape: a message from the client crosses the conductor, the proxy and the conductor again on its way
// to the agent (and back); three bare relays in a row cross as many processes doing nothing.
const behindThreeRelays = [...tsxNode("./lib/relay.ts"), ...tsxNode("./lib/relay.ts"), ...behindRelay];
const [DIRECT, RELAY, RELAYS, CHAIN, HOSTED] = ["direct", "relay", "three relays", "ours (conduct + one proxy)", "ours (conduct, the proxy hosted)"] as const;

const rec = new Recorder();
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const loadBefore = existsSync("/proc/loadavg") ? load() : undefined;
const pairs: Record<string, Pair> = { [DIRECT]: await open(agent), [RELAY]: await open(behindRelay), [RELAYS]: await open(behindThreeRelays), [CHAIN]: await open(throughChain), [HOSTED]: await open(throughHosted) };
const burst = (pair: Pair) => Promise.all(Array.from({ length: IN_FLIGHT }, () => pair.prompt()));
for (const [name, pair] of Object.entries(pairs)) {
  const answers = await burst(pair);
  rec.verify(
    name,
    answers.every((a) => (a as { stopReason?: unknown }).stopReason === "end_turn"),
  );
}
const latency: Record<string, number[]> = { [DIRECT]: [], [RELAY]: [], [RELAYS]: [], [CHAIN]: [], [HOSTED]: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const name of rotate(Object.keys(pairs), round)) {
    const pair = pairs[name] as Pair;
    const t = await time(() => burst(pair));
    rec.add(CASE, name, IN_FLIGHT / (t.p50 / 1e9));
    const one = await time(() => pair.prompt());
    latency[name]?.push(one.p50 / 1e3);
    await tick();
  }
}
for (const pair of Object.values(pairs)) await pair.close();
addRoundRatios(rec, CASE, RELAY);
addRoundRatios(rec, CASE, RELAYS);
addRoundRatios(rec, CASE, DIRECT);

const f = (us: number) => us.toFixed(0);
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const result = rec.result({ figure: "proxy", title: "A stdio agent direct, behind a relay, and through `acp-router conduct` with one proxy (prompts/s)", unit: "rt/s", better: "higher", rounds: ROUNDS });
const sameRound = (c: string, peer: string = CHAIN) => result.results.find((r) => r.case === `ratio to ${c} (same round), ${CASE}` && r.peer === peer)?.value ?? Number.NaN;
const [direct, relayed, relays, chained, hosted] = [median(latency[DIRECT] ?? []), median(latency[RELAY] ?? []), median(latency[RELAYS] ?? []), median(latency[CHAIN] ?? []), median(latency[HOSTED] ?? [])];
const target = (value: number, goal: number) => `${value.toFixed(3)}× (target ≥ ${goal}×: ${value >= goal ? "met" : "not met"})`;
rec.notes.push(`the proxy hosted in the conductor: ${target(sameRound(RELAY, HOSTED), 0.8)} the relay, p50 ${f(hosted)} µs (+${f(hosted - relayed)} µs over the relay)`);
rec.notes.push(`the proxy in a process of its own: ${target(sameRound(RELAYS), 0.75)} three relays in a row, p50 ${f(chained)} µs (+${f(chained - relays)} µs over three relays); ${sameRound(RELAY).toFixed(3)}× one relay, ${sameRound(DIRECT).toFixed(3)}× direct`);
rec.notes.push(`three bare relays in a row (the out-of-process chain's process crossings doing nothing): ${sameRound(RELAY, RELAYS).toFixed(3)}× the relay, p50 ${f(relays)} µs (+${f(relays - relayed)} µs over one)`);
rec.notes.push(`one round trip, p50: direct ${f(direct)} µs, behind the relay ${f(relayed)} µs (+${f(relayed - direct)} µs)`);
if (loadBefore !== undefined) rec.notes.push(`load average (1, 5, 15 min) before: ${loadBefore}, after: ${load()} on ${availableParallelism()} CPUs`);
emit({ ...result, notes: rec.notes });
