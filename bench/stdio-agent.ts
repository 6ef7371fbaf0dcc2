/**
 * Figure 10 — an agent process over real stdio pipes: the same raw driver
 * (this process) keeps 256 `session/prompt`s in flight to an agent process
 * and counts answers, for the floor agent (the floor's
 * parse-switch-stringify, the output of one input chunk in one write), the
 * reference agent built on acp-router (`serveStdio`, default options) and
 * the SDK's agent app (`ndJsonStream` on stdin/stdout), alternating in the
 * same rounds. Two cases, each with its own agent processes:
 * - 1 KB: prompts of 1 KB text in one session, answered at once;
 * - small messages (the shape of a token stream): one `"hello"` prompt per
 *   session (256 sessions in flight), each answered after two one-line
 *   `session/update`s of its session, so the per-message fixed cost shows.
 * Output: prompts per second (median over rounds).
 *
 *   node --expose-gc --import tsx bench/stdio-agent.ts [--quick] [--only=ours] [--prompts=20000] [--small-prompts=40000] [--cases=1kb,small]
 */
import { addRoundRatios, arg, emit, QUICK, Recorder, rotate, selected } from "./lib/harness.ts";
import { checkOutput, Driver, promptLines, type Case } from "./lib/driver.ts";
import { HELLO_UPDATES, helloLine, line } from "./lib/messages.ts";
import { scriptCommand, seconds } from "./lib/processes.ts";

const IN_FLIGHT = 256;
const ROUNDS = QUICK ? 1 : 9;
const CASES = arg("cases")?.split(",") ?? ["1kb", "small"];

const ALL_CASES: Record<string, Case> = {
  "1kb": { name: `session/prompt (1 KB text), ${IN_FLIGHT} in flight`, prompts: Number(arg("prompts") ?? (QUICK ? 4_000 : 20_000)), line: (id) => line("prompt", id), mode: [], linesPerPrompt: 1 },
  small: {
    name: `session/prompt "hello", one per session, ${IN_FLIGHT} sessions in flight, ${HELLO_UPDATES.length} session/updates + answer each`,
    prompts: Number(arg("small-prompts") ?? (QUICK ? 8_000 : 40_000)),
    line: helloLine,
    mode: ["stream"],
    linesPerPrompt: HELLO_UPDATES.length + 1,
  },
};

const rec = new Recorder();
const names = ["floor", "sdk", "ours"].filter(selected);
for (const c of CASES.map((k) => ALL_CASES[k] as Case)) {
  const drivers: Record<string, Driver> = {};
  for (const name of names) {
    const driver = new Driver(scriptCommand("agent-process.ts", [name, ...c.mode]));
    await driver.initialize();
    // Check the real answers once (and warm up) before timing anything.
    const output = await driver.run(promptLines(c, IN_FLIGHT), IN_FLIGHT, true);
    rec.verify(`${name} stdio prompt${c.mode.length > 0 ? " (small messages)" : ""}`, checkOutput(c, output, IN_FLIGHT));
    drivers[name] = driver;
  }
  const lines = promptLines(c, c.prompts);
  for (const driver of Object.values(drivers)) await driver.run(lines, IN_FLIGHT);
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of rotate(names, round)) {
      const driver = drivers[name] as Driver;
      (globalThis as { gc?: () => void }).gc?.();
      const s = await seconds(() => driver.run(lines, IN_FLIGHT));
      rec.add(c.name, name, c.prompts / s);
    }
  }
  for (const driver of Object.values(drivers)) driver.close();
  addRoundRatios(rec, c.name);
  rec.notes.push(`${c.name}: ${c.prompts} prompts per round`);
}
rec.notes.push(`prompts over the agent process's stdin/stdout, ${IN_FLIGHT} in flight (a new prompt line for each answer); value = prompts/s, median of ${ROUNDS} round(s); the targets use the median of the same-round ratios to the floor, peers alternating`);
rec.notes.push(
  "agents: floor = parse line, switch, trivial sync handler (small case: stringify two updates first), stringify, one write per input chunk; ours = serveStdio(reference handler, small case: two awaited ctx.peer.sessionUpdate), full validation; sdk = agent() app over ndJsonStream (small case: two awaited client.notify)",
);
emit(rec.result({ figure: "stdio-agent", title: "Agent process over stdio, 256 prompts in flight (prompts/s)", unit: "prompts/s", better: "higher", rounds: ROUNDS }));
