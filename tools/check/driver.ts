/**
 * A raw ACP client for `check`: spawns the agent, writes lines as given
 * (hostile ones included), and reads its stdout through the router's framer
 * and the inspect monitor, so every rule inspect knows is checked on the
 * agent's answers while the probes run.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createFramer } from "../../src/transport/framer.ts";
import { createMonitor, type Monitor } from "../inspect/monitor.ts";

/** One line the agent wrote, parsed when it is JSON. */
export interface AgentLine {
  readonly text: string;
  readonly body: Record<string, unknown> | undefined;
}

export interface Driver {
  readonly monitor: Monitor;
  /** Every line the agent wrote so far. */
  readonly lines: AgentLine[];
  /** Writes text as is (add the newline yourself) and lets the monitor see each complete line. */
  write(text: string): void;
  /** Sends a request and resolves with its answer, or undefined after `ms` (default 5000). */
  request(method: string, params?: unknown, ms?: number): Promise<Record<string, unknown> | undefined>;
  notify(method: string, params?: unknown): void;
  /** Resolves with the first line at or after `from` matching `test`, or undefined after `ms`. */
  waitFor(test: (line: AgentLine) => boolean, ms?: number, from?: number): Promise<AgentLine | undefined>;
  /** Closes the agent's stdin and resolves with its exit code, or undefined if it is still running after `ms`. */
  close(ms?: number): Promise<number | null | undefined>;
  readonly child: ChildProcess;
  /** The id of the last request sent. */
  readonly lastRequestId: number;
  /** Why the command could not be started, if it could not. */
  startError: Error | undefined;
}

/** How long a probe waits for an answer: 10 s, generous for a real agent on a loaded machine. */
export const ANSWER_MS = 10_000;

export function startDriver(command: readonly string[]): Driver {
  const [file, ...args] = command as [string, ...string[]];
  const child = spawn(file, args, { stdio: ["pipe", "pipe", "inherit"] });
  const started = performance.now();
  const now = () => performance.now() - started;
  const monitor = createMonitor();
  const lines: AgentLine[] = [];
  const waiters = new Set<() => void>();
  let nextId = 1000;
  let exited: number | null | undefined;
  const exit = new Promise<number | null>((resolve) => {
    const done = (code: number | null) => {
      if (exited !== undefined) return;
      exited = code;
      for (const w of waiters) w();
      resolve(code);
    };
    child.once("close", done);
    // The command could not be started (ENOENT, EACCES): no close may follow.
    child.once("error", (error) => {
      driver.startError = error;
      done(null);
    });
  });
  child.stdin?.on("error", () => undefined);
  const fromAgent = createFramer({
    line(text) {
      monitor.observe("agent", text, now());
      let body: Record<string, unknown> | undefined;
      try {
        const v = JSON.parse(text) as unknown;
        body = typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
      } catch {
        body = undefined;
      }
      lines.push({ text, body });
      for (const w of waiters) w();
    },
    oversized: (n) => monitor.oversized("agent", n, now()),
  });
  const fromClient = createFramer({ line: (text) => monitor.observe("client", text, now()), oversized: () => undefined });
  child.stdout?.on("data", (chunk: Uint8Array) => fromAgent.push(chunk));

  const driver: Driver = {
    monitor, lines, child, startError: undefined,
    write(text) {
      if (exited === undefined) child.stdin?.write(text);
      fromClient.push(text);
    },
    get lastRequestId() {
      return nextId - 1;
    },
    async request(method, params, ms = ANSWER_MS) {
      const id = nextId++;
      const from = lines.length;
      driver.write(`${JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params })}\n`);
      return (await driver.waitFor((l) => l.body?.id === id && l.body.method === undefined, ms, from))?.body;
    },
    notify(method, params) {
      driver.write(`${JSON.stringify({ jsonrpc: "2.0", method, params })}\n`);
    },
    waitFor(test, ms = ANSWER_MS, from = 0) {
      return new Promise((resolve) => {
        const check = () => {
          const found = lines.slice(from).find(test);
          if (found === undefined && exited === undefined) return;
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
    async close(ms = ANSWER_MS) {
      child.stdin?.end();
      let late: (value: undefined) => void = () => undefined;
      const timeout = new Promise<undefined>((resolve) => (late = resolve));
      const timer = setTimeout(() => late(undefined), ms);
      const code = await Promise.race([exit, timeout]);
      clearTimeout(timer);
      if (code === undefined) child.kill("SIGKILL");
      fromAgent.end();
      return code;
    },
  };
  return driver;
}
