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
import { HELLO_UPDATES, helloLine, INITIALIZE_LINE, line } from "./lib/messages.ts";
import { seconds, startScript } from "./lib/processes.ts";
import { checkAnswers, expectations } from "./lib/sink.ts";

const IN_FLIGHT = 256;
const ROUNDS = QUICK ? 1 : 9;
const CASES = arg("cases")?.split(",") ?? ["1kb", "small"];

/** One case of the figure: how its prompt lines look, how many per round, and how the agent is started. */
interface Case {
  readonly name: string;
  readonly prompts: number;
  readonly line: (id: number) => string;
  /** Extra argument of `agent-process.ts`. */
  readonly mode: string[];
  /** Lines each prompt makes the agent write (its updates and the answer). */
  readonly linesPerPrompt: number;
}

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

/** The token only answer lines carry (updates never do): the driver counts answers by it. */
const ANSWER_TOKEN = Buffer.from('"stopReason"');

/** Prompt lines with ids 1..count as one buffer, and where each line starts (plus the end). */
function promptLines(c: Case, count: number): { bytes: Buffer; offsets: Uint32Array } {
  const bytes = Buffer.from(Array.from({ length: count }, (_, i) => c.line(i + 1)).join(""));
  const offsets = new Uint32Array(count + 1);
  for (let i = 0, at = 0; i < count; i++) {
    at = bytes.indexOf(10, at) + 1;
    offsets[i + 1] = at;
  }
  return { bytes, offsets };
}

/**
 * The raw driver of one agent process: writes prompt lines, counts answers
 * (complete lines holding `"stopReason"`; a line cut between two chunks is
 * counted with the chunk that ends it).
 */
class Driver {
  private readonly child;
  private onLines: (count: number, text: Buffer) => void = () => {};
  private partial: Buffer | undefined;

  constructor(peer: string, mode: readonly string[]) {
    this.child = startScript("agent-process.ts", [peer, ...mode]);
    this.child.stdout.on("data", (chunk: Buffer) => {
      const end = chunk.lastIndexOf(10) + 1;
      if (end === 0) {
        this.partial = this.partial === undefined ? Buffer.from(chunk) : Buffer.concat([this.partial, chunk]);
        return;
      }
      const whole = this.partial === undefined ? chunk.subarray(0, end) : Buffer.concat([this.partial, chunk.subarray(0, end)]);
      this.partial = end === chunk.length ? undefined : Buffer.from(chunk.subarray(end));
      let n = 0;
      for (let i = whole.indexOf(ANSWER_TOKEN); i !== -1; i = whole.indexOf(ANSWER_TOKEN, i + ANSWER_TOKEN.length)) n++;
      this.onLines(n, whole);
    });
  }

  /** Sends `initialize` and waits for its answer. */
  async initialize(): Promise<void> {
    await new Promise<void>((resolve) => {
      // Its answer is the first complete line (it has no stop reason to count).
      this.onLines = () => resolve();
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

/**
 * Checks the captured output of the first `count` prompts of `c`: every
 * prompt answered with `end_turn`, and (small case) every session got its
 * updates, in order, before its answer.
 */
function checkOutput(c: Case, output: string, count: number): boolean {
  const lines = output.split("\n").filter((l) => l.length > 0);
  if (lines.length !== count * c.linesPerPrompt) return false;
  const answers = lines.filter((l) => l.includes('"id"'));
  if (!checkAnswers(`${answers.join("\n")}\n`, count, expectations.prompt)) return false;
  if (c.linesPerPrompt === 1) return true;
  const seen = new Map<string, string[]>();
  for (const l of lines) {
    const m = JSON.parse(l) as { id?: number; method?: string; params?: { sessionId: string; update: { content: { text: string } } } };
    if (m.method === "session/update" && m.params) {
      const list = seen.get(m.params.sessionId) ?? [];
      seen.set(m.params.sessionId, [...list, m.params.update.content.text]);
    } else if (JSON.stringify(seen.get(`s${String(m.id)}`)) !== JSON.stringify(HELLO_UPDATES)) return false;
  }
  return seen.size === count;
}

const rec = new Recorder();
const names = ["floor", "sdk", "ours"].filter(selected);
for (const c of CASES.map((k) => ALL_CASES[k] as Case)) {
  const drivers: Record<string, Driver> = {};
  for (const name of names) {
    const driver = new Driver(name, c.mode);
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
rec.notes.push("agents: floor = parse line, switch, trivial sync handler (small case: stringify two updates first), stringify, one write per input chunk; ours = serveStdio(reference handler, small case: two awaited ctx.peer.sessionUpdate), full validation; sdk = agent() app over ndJsonStream (small case: two awaited client.notify)");
emit(rec.result({ figure: "stdio-agent", title: "Agent process over stdio, 256 prompts in flight (prompts/s)", unit: "prompts/s", better: "higher", rounds: ROUNDS }));
