/**
 * The raw stdio driver of the stdio figures (10, and 8's saturated case):
 * writes prompt lines to a process, keeps a number of them unanswered,
 * counts answers by their `"stopReason"`, and checks captured output.
 */
import { spawn } from "node:child_process";
import { HELLO_UPDATES, INITIALIZE_LINE } from "./messages.ts";
import { checkAnswers, expectations } from "./sink.ts";

/** One case of the figure: how its prompt lines look, how many per round, and how the agent is started. */
export interface Case {
  readonly name: string;
  readonly prompts: number;
  readonly line: (id: number) => string;
  /** Extra argument of `agent-process.ts`. */
  readonly mode: string[];
  /** Lines each prompt makes the agent write (its updates and the answer). */
  readonly linesPerPrompt: number;
}

/** The token only answer lines carry (updates never do): the driver counts answers by it. */
const ANSWER_TOKEN = Buffer.from('"stopReason"');

/** Prompt lines with ids 1..count as one buffer, and where each line starts (plus the end). */
export function promptLines(c: Case, count: number): { bytes: Buffer; offsets: Uint32Array } {
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
export class Driver {
  private readonly child;
  private onLines: (count: number, text: Buffer) => void = () => {};
  private partial: Buffer | undefined;

  /** Starts `command` (executable and arguments) with piped stdin and stdout; stderr is ours. */
  constructor(command: readonly [string, readonly string[]]) {
    this.child = spawn(command[0], command[1], { stdio: ["pipe", "pipe", "inherit"] });
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

  /** The process's id (for its CPU time in /proc). */
  get pid(): number | undefined {
    return this.child.pid;
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
export function checkOutput(c: Case, output: string, count: number): boolean {
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
