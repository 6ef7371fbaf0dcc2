/**
 * Stdio for both sides (Node only; the rest of acp-router has no `node:`
 * imports). `serveStdio` runs an agent on this process's stdin/stdout;
 * `spawnAgent` starts an agent process for a client.
 */
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { connectAgent, type AgentConnection } from "../generated/connect.ts";
import type { ConnectionOptions } from "../connection/options.ts";
import type { AgentHandler } from "../generated/handlers.ts";
import { nodeStreamTransport, type NodeStreamOptions } from "./node.ts";
import type { Transport, TransportReceiver } from "./transport.ts";

export { nodeStreamTransport, type NodeStreamOptions } from "./node.ts";

/**
 * Serves `handler` as an agent on stdin/stdout. stdout carries protocol lines
 * only; when stdin ends the connection closes and, with nothing else
 * pending, the process exits on its own.
 */
export function serveStdio(handler: AgentHandler, options?: ConnectionOptions & NodeStreamOptions): AgentConnection;
/** Same, for a handler of another method table: pass that table's generated `connectAgent`. */
export function serveStdio<H, C extends { readonly closed: Promise<unknown> }>(handler: H, options: ConnectionOptions & NodeStreamOptions, connect: (handler: H, transport: Transport, options: ConnectionOptions) => C): C;
export function serveStdio(
  handler: unknown,
  options: ConnectionOptions & NodeStreamOptions = {},
  connect: (handler: never, transport: Transport, options: ConnectionOptions) => { readonly closed: Promise<unknown> } = connectAgent,
): { readonly closed: Promise<unknown> } {
  const transport = nodeStreamTransport(process.stdin, process.stdout, { ...options, endWritable: false });
  const conn = connect(handler as never, transport, options);
  void conn.closed.then(() => {
    // Let the process exit: stop holding stdin open.
    process.stdin.pause();
    process.stdin.unref?.();
  });
  return conn;
}

/** The agent process ended; pending calls reject with a `ConnectionClosedError` whose cause is this. */
export class AgentExitedError extends Error {
  readonly exitCode: number | null;
  readonly signalName: NodeJS.Signals | null;
  /** The last lines the agent wrote to stderr (captured mode), for the error message. */
  readonly stderrTail: string;
  constructor(exitCode: number | null, signalName: NodeJS.Signals | null, stderrTail: string, options?: { cause?: unknown }) {
    const how = exitCode !== null ? `exited with code ${exitCode}` : `was killed by ${signalName ?? "a signal"}`;
    super(`agent process ${how}${stderrTail ? `; last stderr lines:\n${stderrTail}` : ""}`, options);
    this.name = "AgentExitedError";
    this.exitCode = exitCode;
    this.signalName = signalName;
    this.stderrTail = stderrTail;
  }
}

/** Longest stderr line kept in capture mode (characters); longer lines are cut. */
const STDERR_LINE_CHARS = 2048;

function clip(line: string): string {
  return line.length > STDERR_LINE_CHARS ? line.slice(0, STDERR_LINE_CHARS) : line;
}

/** Options of {@link spawnAgent}; stream options apply to the agent's stdin/stdout. */
export interface SpawnAgentOptions extends NodeStreamOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** `inherit` (default) passes the agent's stderr through; `capture` keeps its last lines for errors and `stderrTail()`. */
  readonly stderr?: "inherit" | "capture" | "ignore";
  /** Lines of stderr kept in capture mode. Default 20. */
  readonly stderrLines?: number;
  /** After closing the agent's stdin, kill it if it has not exited within this many ms. Default 2000. */
  readonly killAfterMs?: number;
}

/** A spawned agent process and the transport over its stdin/stdout. */
export interface AgentProcess {
  readonly transport: Transport;
  readonly child: ChildProcess;
  /** Settles when the process exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The captured tail of stderr (capture mode), else "". */
  stderrTail(): string;
}

/** Starts `command args` as an ACP agent; connect to it with `connectClient(handler, agent.transport)`. */
export function spawnAgent(command: string, args: readonly string[] = [], options: SpawnAgentOptions = {}): AgentProcess {
  const mode = options.stderr ?? "inherit";
  const spawnOptions: SpawnOptions = { stdio: ["pipe", "pipe", mode === "capture" ? "pipe" : mode], cwd: options.cwd, env: options.env };
  const child = spawn(command, args, spawnOptions);
  const keep = options.stderrLines ?? 20;
  // Bounded in lines and in characters: an agent drawing a progress bar on
  // stderr forever (no newline) must not grow the client.
  const tail: string[] = [];
  let partial = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (text: string) => {
    let start = 0;
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
      tail.push(clip(partial + text.slice(start, Math.min(nl, start + STDERR_LINE_CHARS))));
      partial = "";
      if (tail.length > keep) tail.shift();
      start = nl + 1;
    }
    if (start < text.length) partial = clip(partial + text.slice(Math.max(start, text.length - STDERR_LINE_CHARS)));
  });
  const stderrTail = () => [...tail, ...(partial ? [partial] : [])].slice(-keep).join("\n");
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("close", (code, signal) => resolve({ code, signal }));
  });
  let spawnError: Error | undefined;
  child.once("error", (error) => {
    spawnError = error;
  });

  const inner = nodeStreamTransport(child.stdout as NonNullable<ChildProcess["stdout"]>, child.stdin as NonNullable<ChildProcess["stdin"]>, options);
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  let killedForError = false;
  const transport: Transport = {
    start(receiver: TransportReceiver) {
      let ended = false;
      inner.start({
        data: (chunk) => receiver.data(chunk),
        end: (error) => {
          if (ended) return;
          ended = true;
          // Wait for the exit status so the error can name it (a write error such as
          // EPIPE from a dying agent becomes the cause, not the message).
          void exited.then(({ code, signal }) => {
            if (killTimer) clearTimeout(killTimer);
            // Our own kill after a stream failure: the failure is the reason.
            if (killedForError && error) receiver.end(error);
            else receiver.end(spawnError ?? new AgentExitedError(code, signal, stderrTail(), error ? { cause: error } : undefined));
          });
          // An agent that closed stdout but lives on, or whose stream failed (it stopped
          // reading, say), is killed after killAfterMs: time for a dying agent to report its exit.
          if (child.exitCode === null && child.signalCode === null) scheduleKill(error !== undefined);
        },
      });
    },
    write: (text) => inner.write(text),
    // Flow control passes through: without it the connection would report "paused" while the
    // agent's stdout kept flowing into memory (PITFALLS #16).
    pause: () => inner.pause?.(),
    resume: () => inner.resume?.(),
    close() {
      inner.close();
      scheduleKill();
    },
  };
  function scheduleKill(forError = false): void {
    if (killTimer || child.exitCode !== null || child.signalCode !== null) return;
    killTimer = setTimeout(() => {
      killedForError = forError;
      child.kill("SIGKILL");
    }, options.killAfterMs ?? 2000);
    killTimer.unref();
  }
  return { transport, child, exited, stderrTail };
}
