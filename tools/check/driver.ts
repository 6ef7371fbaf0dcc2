/**
 * A raw ACP client for `check` and `replay`: spawns the agent in its own
 * process group (src/transport/process.ts),
 * writes lines as given (hostile ones included), and reads its stdout
 * through the router's framer and the inspect monitor, so every rule inspect
 * knows is checked on the agent's answers while the probes run. Closing ends
 * stdin, waits a grace period, then signals the whole group (SIGTERM, then
 * SIGKILL), so an agent behind `sh -c`, `npx` or a launcher leaves nothing running.
 */
import { ErrorCode } from "../../src/error-code.ts";
import { lineReader, readerLimits } from "../../src/transport/reader.ts";
import { createMonitor, type Monitor } from "../inspect/monitor.ts";
import { startProcess, type ManagedProcess } from "../../src/transport/process.ts";
import { watchEnding, type AgentEnding } from "./ending.ts";
import type { Recorder } from "./record.ts";
import { createUtf8Watch, type Utf8Watch } from "./utf8-watch.ts";

/** One line the agent wrote, parsed when it is JSON, with its arrival in ms since the start. */
export interface AgentLine {
  readonly text: string;
  readonly body: Record<string, unknown> | undefined;
  readonly t: number;
  /** The monitor's index of this message (both directions counted), as its violations name it. */
  readonly index: number;
}

/** One line check wrote, with the monitor's index of it (both directions counted). */
export interface SentLine {
  readonly text: string;
  readonly index: number;
}

/** How the agent process ended, and during which probe. */
export interface Death {
  readonly code: number | null;
  readonly signal: string | null;
  readonly t: number;
  readonly probe: string;
}

/** A request that got no answer within its wait; `late` is set if the answer came afterwards. */
export interface Unanswered {
  readonly id: number | string;
  readonly method: string;
  readonly sent: number;
  readonly waited: number;
}

/** How check's client answers a request the agent sent: a result or an error (undefined: leave it unanswered). */
export type ClientAnswer = { readonly result: unknown } | { readonly error: { readonly code: number; readonly message: string } } | undefined;

export interface Driver {
  readonly monitor: Monitor;
  /** The requests the agent sent to check's client (each is also in `lines`). */
  readonly requests: AgentLine[];
  /** The method of each request check sent with `request`, by id. */
  readonly sent: ReadonlyMap<number, string>;
  /** Every line check wrote, in order (hostile ones included), for evidence. */
  readonly written: readonly SentLine[];
  /** The line check wrote for the request with this id (`request` and `requestRaw`), for evidence. */
  sentLine(id: number | string): SentLine | undefined;
  /** The line of the record file (`--record`) holding the message with this monitor index; undefined when nothing is recorded. */
  recordLine(index: number): number | undefined;
  /**
   * Answers the agent's requests (fs/*, terminal/*, session/request_permission,
   * elicitation/create, …); may be async. Default: -32601, as a client that
   * offers none of them answers.
   */
  answerer: (method: string, params: Record<string, unknown>, line: AgentLine) => ClientAnswer | Promise<ClientAnswer>;
  /** Every line the agent wrote so far. */
  readonly lines: AgentLine[];
  /** The agent's stdout bytes, checked as strict UTF-8 (a decoded U+FFFD alone proves nothing: it may be a real character). */
  readonly utf8: Utf8Watch;
  /** How long a probe waits for an answer, in ms (`--timeout`). */
  readonly timeout: number;
  /**
   * How long check watches for something that must not come, in ms (`--quiet`): an answer to a
   * notification after the sentinel's answer, an update after a turn's or a load's answer.
   */
  readonly quiet: number;
  /** How long the agent may take to exit after its stdin closes, in ms (`--exit-grace`). */
  readonly grace: number;
  /** The probe running now (named in the report of an agent that died during it). */
  probe: string;
  /** Ms since the agent was started. */
  now(): number;
  /** Writes text as is (add the newline yourself) and lets the monitor see each complete line. */
  write(text: string): void;
  /** Sends a request and resolves with its answer, or undefined after `ms` (default: the timeout) or when the agent exits. */
  request(method: string, params?: unknown, ms?: number): Promise<Record<string, unknown> | undefined>;
  /** Sends a request with a caller-chosen id token (written as is, e.g. `1.5`) and resolves with the line answering it. */
  requestRaw(idToken: string, method: string, params: unknown, match: (line: AgentLine) => boolean, ms?: number): Promise<AgentLine | undefined>;
  notify(method: string, params?: unknown): void;
  /** Resolves with the first line at or after `from` matching `test`, or undefined after `ms` or when the agent exits. */
  waitFor(test: (line: AgentLine) => boolean, ms?: number, from?: number): Promise<AgentLine | undefined>;
  /** Requests whose wait expired (their late answers are looked up at the end with `answerTo`). */
  readonly unanswered: Unanswered[];
  /** The line answering request `id`, if one arrived. */
  answerTo(id: number | string): AgentLine | undefined;
  /** Set once the agent process exited. */
  readonly death: Death | undefined;
  /** Closes the agent's stdin and waits the grace period for it to exit; then ends its process group. `exited`: it left by itself. */
  close(): Promise<{ readonly exited: boolean; readonly code: number | null; readonly signal: string | null; readonly note: string | undefined }>;
  /** How the agent ended, once `close` settled (ending.ts): the report's section apart from the rows. */
  readonly ending: AgentEnding | undefined;
  readonly process: ManagedProcess;
  /** Why the command could not be started (ENOENT, EACCES), once known. */
  readonly startError: Error | undefined;
  /** The id of the last request sent. */
  readonly lastRequestId: number;
}

/** How long a probe waits for an answer unless `--timeout` says otherwise: 30 s, for real agents on a loaded machine. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * How long check watches for a message that must not come unless `--quiet` says otherwise: 1 s. A
 * sentinel request sent after the line under test bounds the wait from below (an agent that handles
 * lines in order answers the line before the sentinel); the window covers agents that answer out of
 * order. Tests against scripted stubs set it small.
 */
export const DEFAULT_QUIET_MS = 1000;

/** How long the agent may take to exit after its stdin closes unless `--exit-grace` says otherwise: 5 s, then its process group is terminated. */
export const DEFAULT_GRACE_MS = 5000;

const parseBody = (text: string): Record<string, unknown> | undefined => {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

export interface DriverOptions {
  /** How long a probe waits for an answer, in ms. Default {@link DEFAULT_TIMEOUT_MS}. */
  readonly timeout?: number;
  /** How long check watches for a message that must not come, in ms. Default {@link DEFAULT_QUIET_MS}. */
  readonly quiet?: number;
  /** How long the agent may take to exit after its stdin closes before its group is terminated, in ms. Default {@link DEFAULT_GRACE_MS}. */
  readonly graceMs?: number;
  readonly env?: NodeJS.ProcessEnv;
  /** Where every line of both directions is recorded (`--record`), shared by every run of one check. */
  readonly recorder?: Recorder | undefined;
  /** The run's name in the record (`main run`, `capabilities run`). */
  readonly label?: string;
}

/** Starts `command` (stdin and stdout piped, stderr inherited) and a driver on it. */
export function startDriver(command: readonly string[], options: DriverOptions = {}): Driver {
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
  const quiet = options.quiet ?? DEFAULT_QUIET_MS;
  const grace = options.graceMs ?? DEFAULT_GRACE_MS;
  const [file, ...args] = command as [string, ...string[]];
  const proc = startProcess(file, args, { stdio: ["pipe", "pipe", "inherit"], env: options.env, graceMs: grace });
  const started = performance.now();
  const now = () => performance.now() - started;
  const monitor = createMonitor();
  const endingWatch = watchEnding(proc);
  let ending: AgentEnding | undefined;
  const lines: AgentLine[] = [];
  const waiters = new Set<() => void>();
  const unanswered: Unanswered[] = [];
  const requests: AgentLine[] = [];
  const methods = new Map<number, string>();
  const written: SentLine[] = [];
  const byId = new Map<number | string, SentLine>();
  const recorded = new Map<number, number>();
  const recorder = options.recorder;
  recorder?.start(command, options.label ?? "run");
  const observe = (from: "agent" | "client", text: string) => {
    const o = monitor.observe(from, text, now());
    const at = recorder?.message(o, text);
    if (at !== undefined) recorded.set(o.index, at);
    return o;
  };
  let nextId = 1000;
  let death: Death | undefined;
  let startError: Error | undefined;
  void proc.exited.then(({ code, signal, error }) => {
    startError = error;
    death = { code, signal, t: now(), probe: driver.probe };
    for (const w of waiters) w();
  });
  // Both directions read as a connection with the default limits reads them (the one reader, no answers).
  const limits = readerLimits();
  const fromAgent = lineReader(
    {
      line(text) {
        const { index } = observe("agent", text);
        const line = { text, body: parseBody(text), t: now(), index };
        lines.push(line);
        const { id, method } = line.body ?? {};
        if (typeof method === "string" && id !== undefined) {
          requests.push(line);
          void Promise.resolve(driver.answerer(method, (line.body?.params ?? {}) as Record<string, unknown>, line)).then((answer) => {
            if (answer !== undefined) driver.write(`${JSON.stringify({ jsonrpc: "2.0", id, ...answer })}\n`);
          });
        }
        for (const w of waiters) w();
      },
      oversized: (n) => monitor.oversized("agent", n, now()),
    },
    limits,
  );
  const fromClient = lineReader(
    {
      line(text) {
        const { index } = observe("client", text);
        const sent = { text, index };
        written.push(sent);
        const id = parseBody(text)?.id;
        if ((typeof id === "number" || typeof id === "string") && !byId.has(id)) byId.set(id, sent);
      },
      oversized: () => undefined,
    },
    limits,
  );
  const utf8 = createUtf8Watch();
  proc.child.stdout?.on("data", (chunk: Uint8Array) => {
    proc.heard(); // the grace period after close starts now, not startMs after it (process.ts)
    utf8.push(chunk);
    fromAgent.push(chunk);
  });
  const isAnswer = (id: number | string) => (l: AgentLine) => l.body?.id === id && l.body.method === undefined;

  const driver: Driver = {
    monitor,
    lines,
    utf8,
    timeout,
    quiet,
    grace,
    unanswered,
    requests,
    sent: methods,
    written,
    process: proc,
    probe: "initialize",
    sentLine: (id) => byId.get(id),
    recordLine: (index) => recorded.get(index),
    answerer: (method) => ({ error: { code: ErrorCode.MethodNotFound, message: `Method not found: check's client does not offer ${method}` } }),
    now,
    get death() {
      return death;
    },
    get startError() {
      return startError;
    },
    get ending() {
      return ending;
    },
    write(text) {
      if (death === undefined && !proc.hasExited && proc.child.stdin?.writable) proc.child.stdin.write(text);
      fromClient.push(text);
    },
    get lastRequestId() {
      return nextId - 1;
    },
    async request(method, params, ms = timeout) {
      const id = nextId++;
      methods.set(id, method);
      const from = lines.length;
      const sent = now();
      driver.write(`${JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params })}\n`);
      const line = await driver.waitFor(isAnswer(id), ms, from);
      if (line === undefined && death === undefined) unanswered.push({ id, method, sent, waited: ms });
      return line?.body;
    },
    async requestRaw(idToken, method, params, match, ms = timeout) {
      const from = lines.length;
      driver.write(`{"jsonrpc":"2.0","id":${idToken},"method":${JSON.stringify(method)},"params":${JSON.stringify(params)}}\n`);
      return driver.waitFor(match, ms, from);
    },
    notify(method, params) {
      driver.write(`${JSON.stringify(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params })}\n`);
    },
    waitFor(test, ms = timeout, from = 0) {
      return new Promise((resolve) => {
        let scanned = from;
        const check = () => {
          let found: AgentLine | undefined;
          for (; scanned < lines.length && found === undefined; scanned++) if (test(lines[scanned]!)) found = lines[scanned];
          if (found === undefined && death === undefined) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          resolve(undefined);
        }, ms);
        waiters.add(check);
        check();
      });
    },
    answerTo(id) {
      return lines.find(isAnswer(id));
    },
    async close() {
      endingWatch.stdinClosing();
      const end = await proc.close();
      ending = endingWatch.result(end);
      fromAgent.end();
      return { exited: end.lingered !== true, code: end.code, signal: end.signal, note: end.note };
    },
  };
  return driver;
}
