/**
 * Figure 10 — an agent process over real stdio pipes: the same raw driver
 * (this process) keeps 256 `session/prompt`s (1 KB text) in flight to an
 * agent process and counts answer lines, for the floor agent (the floor's
 * parse-switch-stringify, the answers of one input chunk in one write), the
 * reference agent built on acp-router (`serveStdio`, default options) and
 * the SDK's agent app (`ndJsonStream` on stdin/stdout), alternating in the
 * same rounds. Output: prompts per second (median over rounds).
 *
 *   node --expose-gc --import tsx bench/stdio-agent.ts [--quick] [--only=ours] [--prompts=20000]
 */
import { addRoundRatios, arg, emit, QUICK, Recorder, rotate, selected } from "./lib/harness.ts";
import { INITIALIZE_LINE, line } from "./lib/messages.ts";
import { seconds, startScript } from "./lib/processes.ts";
import { checkAnswers, expectations } from "./lib/sink.ts";

const IN_FLIGHT = 256;
const PROMPTS = Number(arg("prompts") ?? (QUICK ? 4_000 : 20_000));
const ROUNDS = QUICK ? 1 : 9;
const CASE = `session/prompt (1 KB text), ${IN_FLIGHT} in flight`;

/** Prompt lines with ids 1..count as one buffer, and where each line starts (plus the end). */
function promptLines(count: number): { bytes: Buffer; offsets: Uint32Array } {
  const bytes = Buffer.from(Array.from({ length: count }, (_, i) => line("prompt", i + 1)).join(""));
  const offsets = new Uint32Array(count + 1);
  for (let i = 0, at = 0; i < count; i++) {
    at = bytes.indexOf(10, at) + 1;
    offsets[i + 1] = at;
  }
  return { bytes, offsets };
}

/** The raw driver of one agent process: writes prompt lines, counts answer lines. */
class Driver {
  private readonly child;
  private onLines: (count: number, text: Buffer) => void = () => {};

  constructor(peer: string) {
    this.child = startScript("agent-process.ts", [peer]);
    this.child.stdout.on("data", (chunk: Buffer) => {
      let n = 0;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n++;
      this.onLines(n, chunk);
    });
  }

  /** Sends `initialize` and waits for its answer. */
  async initialize(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.onLines = (n) => n > 0 && resolve();
      this.child.stdin.write(INITIALIZE_LINE);
    });
  }

  /** Sends the prompts of `lines` keeping `inFlight` unanswered; resolves with the answers' text when captured. */
  run(lines: { bytes: Buffer; offsets: Uint32Array }, inFlight: number, capture = false): Promise<string> {
    const total = lines.offsets.length - 1;
    const out: Buffer[] = [];
    let sent = 0;
    let answered = 0;
    const send = (count: number) => {
      const next = Math.min(total, sent + count);
      if (next > sent) this.child.stdin.write(lines.bytes.subarray(lines.offsets[sent], lines.offsets[next]));
      sent = next;
    };
    return new Promise((resolve) => {
      this.onLines = (n, chunk) => {
        if (capture) out.push(chunk);
        answered += n;
        if (answered >= total) resolve(Buffer.concat(out).toString("utf8"));
        else send(n);
      };
      send(inFlight);
    });
  }

  close(): void {
    this.child.stdin.end();
  }
}

const rec = new Recorder();
const names = ["floor", "sdk", "ours"].filter(selected);
const drivers: Record<string, Driver> = {};
for (const name of names) {
  const driver = new Driver(name);
  await driver.initialize();
  // Check the real answers once (and warm up) before timing anything.
  const answers = await driver.run(promptLines(IN_FLIGHT), IN_FLIGHT, true);
  rec.verify(`${name} stdio prompt`, checkAnswers(answers, IN_FLIGHT, expectations.prompt));
  drivers[name] = driver;
}
const lines = promptLines(PROMPTS);
for (const driver of Object.values(drivers)) await driver.run(lines, IN_FLIGHT);
for (let round = 0; round < ROUNDS; round++) {
  for (const name of rotate(names, round)) {
    const driver = drivers[name] as Driver;
    (globalThis as { gc?: () => void }).gc?.();
    const s = await seconds(() => driver.run(lines, IN_FLIGHT));
    rec.add(CASE, name, PROMPTS / s);
  }
}
for (const driver of Object.values(drivers)) driver.close();
addRoundRatios(rec, CASE);
rec.notes.push(`${PROMPTS} prompts per round over the agent process's stdin/stdout, ${IN_FLIGHT} in flight (a new prompt line for each answer line); value = prompts/s, median of ${ROUNDS} round(s); the target uses the median of the same-round ratios to the floor, peers alternating`);
rec.notes.push("agents: floor = parse line, switch, trivial sync handler, stringify, one write per input chunk; ours = serveStdio(reference handler), full validation; sdk = agent() app over ndJsonStream");
emit(rec.result({ figure: "stdio-agent", title: "Agent process over stdio, 256 prompts in flight (prompts/s)", unit: "prompts/s", better: "higher", rounds: ROUNDS }));
