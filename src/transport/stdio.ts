/**
 * Stdio for both sides (Node only; the rest of acp-router has no `node:`
 * imports). `serveProtocolStdio(protocol, handler)` runs an agent of any table
 * on this process's stdin/stdout; `spawnAgent` starts an agent process for a
 * client. `serveStdio(handler)` is each table entry's one-liner
 * (`acp-router`, `acp-router/v2`, `acp-router/unstable`), not this entry's:
 * one name, one signature.
 *
 * @module acp-router/stdio
 */
import type { ChildProcess } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import { argumentError, checkOptions } from "../arguments.ts";
import { nodeStreamTransport, type NodeStreamOptions } from "./node.ts";
import { DEFAULT_GRACE_MS, DEFAULT_TERM_MS, startProcess, type ProcessExit } from "./process.ts";
import { AgentExitedError, AgentOutputClosedError, createTail } from "./process-exit.ts";
import type { Transport, TransportReceiver } from "./transport.ts";
import type { Tracing } from "../tracing/hook.ts";
import { checkWatchdog } from "../connection/watchdog.ts";
import type { WatchdogOptions } from "../connection/watchdog-options.ts";

export { nodeStreamTransport, type NodeStreamOptions } from "./node.ts";
export { DEFAULT_GRACE_MS, DEFAULT_TERM_MS, exitStatus, type ProcessExit } from "./process.ts";
export { AgentExitedError, AgentOutputClosedError } from "./process-exit.ts";
export type { UnresponsiveEvent, UnresponsiveRequest, WatchdogDecision, WatchdogOptions } from "../connection/watchdog-options.ts";
/**
 * `serveProtocolStdio(protocol, handler, options?)`: pass the table's
 * `protocol` (`import { protocol } from "acp-router/v2"`). Each table's entry
 * also exports its one-liner `serveStdio(handler, options?)`; this entry
 * loads no table, so a v2 agent bundles no v1 one.
 */
export { serveProtocolStdio } from "./serve-stdio.ts";

const SPAWN_AGENT = "spawnAgent(command, args?, options?)";

/**
 * After the agent's stdout ended, how long to wait for its exit so the
 * error names the exit code or signal, in ms: 200. An agent that exits
 * closes stdout and exits within a millisecond or two; one still running
 * by then closed stdout and lingers, and is reported as such at once.
 */
const EXIT_NAMING_MS = 200;

/** Options of {@link spawnAgent}; stream options apply to the agent's stdin/stdout. */
export interface SpawnAgentOptions extends NodeStreamOptions {
  readonly cwd?: string;
  /** The agent's environment. Default: this process's. */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * The trace context of the caller reaches the agent process as
   * `TRACEPARENT` / `TRACESTATE` / `BAGGAGE` (the hook's `environment()`, e.g.
   * `otelTracing()` from `acp-router/otel`: the active span), and the
   * caller's `OTEL_*` settings as they are. A variable the `env` option sets
   * is never replaced; one merely inherited from this process's environment
   * is, since the current context is the nearer parent. Default: none.
   */
  readonly tracing?: Tracing;
  /**
   * What happens to the agent's stderr. `forward` (default) writes every byte
   * on to this process's stderr and keeps the last lines for exit errors and
   * `stderrTail()`: people see the agent's logs, and an `AgentExitedError`
   * still says why it died. `capture` keeps the tail without showing anything;
   * `inherit` hands the agent this process's stderr (no tail); `ignore`
   * discards it (no tail).
   */
  readonly stderr?: "forward" | "capture" | "inherit" | "ignore";
  /** Lines of stderr kept in `forward` and `capture` modes. Default 20: enough for a stack trace's top. */
  readonly stderrLines?: number;
  /**
   * After the agent's stdin closed (the connection closed, or the agent closed
   * its stdout), how long it may take to exit before its process group gets
   * SIGTERM. Default 2000 ms ({@link DEFAULT_GRACE_MS}): a well-behaved agent
   * exits within milliseconds of EOF; two seconds leave room to flush.
   */
  readonly graceMs?: number;
  /** The earlier name of `graceMs`; `graceMs` wins when both are given. */
  readonly killAfterMs?: number;
  /**
   * After SIGTERM, how long before SIGKILL to the group: when the connection
   * closed and the grace period ran out, when `kill()` or the watchdog ended
   * the agent, and when this process dies by any cause (the owner's watcher,
   * src/transport/process-watcher.ts, waits this long). Default 1000 ms
   * ({@link DEFAULT_TERM_MS}): the whole tree ends within 2 s of its owner.
   */
  readonly termMs?: number;
  /**
   * Gives up on calls the agent leaves in silence: while a request is in
   * flight the agent must send some message every `silenceMs`, else
   * `onUnresponsive` is told and chooses (default: reject the silent calls;
   * `"kill"` ends the agent's group). The default of the connection's own
   * `watchdog` option (src/connection/watchdog.ts, docs/supervision.md).
   * Default: none.
   */
  readonly watchdog?: WatchdogOptions;
  /**
   * Serve a JSON-RPC message that follows junk on its line (a terminal escape,
   * a shell greeting: agents often run behind shells and profiles), with a
   * diagnostic. Default true; false makes such a line a parse error, as on
   * any other transport. Sets the transport's `recoverPrefixedLines`.
   */
  readonly recoverPrefixedLines?: boolean;
}

/** A spawned agent process and the transport over its stdin/stdout. */
export interface AgentProcess {
  readonly transport: Transport;
  readonly child: ChildProcess;
  /**
   * Settles on the process's `'exit'` (after a bounded wait for its last
   * stderr bytes; a grandchild holding the pipe does not delay it). An agent
   * ended after lingering past the grace period has `lingered: true` and a
   * `note` ("did not exit within 2 s of stdin closing; terminated"): that is
   * not a failure of the run.
   */
  readonly exited: Promise<ProcessExit>;
  /** The last lines of the agent's stderr (`forward` and `capture` modes), else "". */
  stderrTail(): string;
  /**
   * Ends the agent now: SIGTERM to its process group, SIGKILL after
   * `termMs`; resolves with `exited`. The connection over `transport` then
   * ends, its pending calls rejected naming the signal. Idempotent.
   */
  kill(): Promise<ProcessExit>;
}

/** The agent's environment with the caller's trace context: the `env` option's own variables win over it, inherited ones do not (see {@link SpawnAgentOptions.tracing}). */
function tracedEnvironment(env: NodeJS.ProcessEnv | undefined, context: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  if (env === undefined) return { ...process.env, ...context };
  const otel = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("OTEL_")));
  return { ...otel, ...context, ...env };
}

/**
 * Starts `command args` as an ACP agent in its own process group; connect to
 * it with `connectClient(handler, agent.transport)`. Closing the connection
 * closes the agent's stdin, then ends the whole group after the grace period
 * if it is still running (`sh -c`, `npx` and launchers included); if this
 * process exits or is killed by a signal it does not handle, the group is
 * ended with it (src/transport/process.ts).
 */
export function spawnAgent(command: string, args: readonly string[] = [], options: SpawnAgentOptions = {}): AgentProcess {
  if (typeof command !== "string" || command === "") throw argumentError(SPAWN_AGENT, "command", "a non-empty string (the program to run)", command, 'e.g. spawnAgent("npx", ["my-agent", "--acp"]).');
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === "string")) throw argumentError(SPAWN_AGENT, "args", "an array of strings", args, 'e.g. spawnAgent("my-agent", ["--acp"]).');
  checkOptions(SPAWN_AGENT, "options", options);
  const watchdog = checkWatchdog(SPAWN_AGENT, options.watchdog);
  const mode = options.stderr ?? "forward";
  const piped = mode === "forward" || mode === "capture";
  const managed = startProcess(command, args, {
    stdio: ["pipe", "pipe", piped ? "pipe" : mode],
    cwd: options.cwd,
    env: options.tracing?.environment === undefined ? options.env : tracedEnvironment(options.env, options.tracing.environment()),
    graceMs: options.graceMs ?? options.killAfterMs,
    termMs: options.termMs,
  });
  const child = managed.child;
  const tail = createTail(options.stderrLines ?? 20);
  const decoder = new StringDecoder("utf8");
  const agentStderr = child.stderr;
  agentStderr?.on("data", (chunk: Buffer) => {
    // The bytes go on unchanged; while our stderr is backed up, the agent's waits.
    if (mode === "forward" && !process.stderr.write(chunk)) {
      agentStderr.pause();
      process.stderr.once("drain", () => agentStderr.resume());
    }
    tail.add(decoder.write(chunk));
  });
  const stderrTail = () => tail.text();
  const exited = managed.exited;

  const inner = nodeStreamTransport(child.stdout as NonNullable<ChildProcess["stdout"]>, child.stdin as NonNullable<ChildProcess["stdin"]>, options);
  const transport: Transport = {
    recoverPrefixedLines: options.recoverPrefixedLines ?? true,
    ...(watchdog === undefined ? {} : { watchdog }),
    start(receiver: TransportReceiver) {
      let ended = false;
      inner.start({
        data: (chunk) => {
          managed.heard();
          receiver.data(chunk);
        },
        end: (error) => {
          if (ended) return;
          ended = true;
          endWith(receiver, error);
          // An agent that closed stdout but lives on, or whose stream failed (it stopped
          // reading, say), gets EOF, the grace period, then SIGTERM and SIGKILL to its group.
          // After a stream failure the grace starts at once: no first output is awaited (startMs).
          if (error) managed.heard();
          void managed.close();
        },
      });
    },
    write: (text) => inner.write(text),
    flush: () => inner.flush?.(),
    // Flow control passes through: without it the connection would report "paused" while the
    // agent's stdout kept flowing into memory (PITFALLS #16).
    pause: () => inner.pause?.(),
    resume: () => inner.resume?.(),
    close() {
      inner.close();
      void managed.close();
    },
    kill: () => void managed.terminate(),
  };
  /**
   * Ends the connection as soon as its stdout ended: with the exit status when
   * the agent exits within {@link EXIT_NAMING_MS} (it usually exits as its
   * stdout closes), else at once with {@link AgentOutputClosedError}, so no
   * call waits out the grace period of an agent that closed stdout and lingers.
   * After a stream failure it waits for the exit (bounded by graceMs + termMs).
   */
  const endWith = (receiver: TransportReceiver, error: Error | undefined) => {
    let done = false;
    // A failed stream (a write hitting EPIPE: the agent stopped reading, it is most likely dying)
    // waits for the exit, at most the grace period and termMs, which start at once.
    const naming =
      error !== undefined
        ? undefined
        : setTimeout(() => {
            // Exited, its last stderr bytes still draining (drainMs): the exit names the cause.
            if (done || managed.hasExited) return;
            done = true;
            receiver.end(new AgentOutputClosedError(child.pid, stderrTail()));
          }, EXIT_NAMING_MS);
    void exited.then((exit) => {
      clearTimeout(naming);
      if (done) return;
      done = true;
      // Our own termination after a stream failure: the failure is the reason.
      // (A write error such as EPIPE from a dying agent becomes the cause, not the message.)
      if (exit.lingered && error) receiver.end(error);
      else receiver.end(exit.error ?? new AgentExitedError(exit.code, exit.signal, stderrTail(), { ...(error ? { cause: error } : {}), note: exit.note }));
    });
  };
  return { transport, child, exited, stderrTail, kill: () => managed.terminate() };
}
