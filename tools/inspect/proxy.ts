/**
 * The transparent stdio proxy of `acp-router inspect -- <agent command…>`:
 * spawns the agent, copies the editor's stdin to the agent's stdin and the
 * agent's stdout to the editor's stdout byte for byte (stderr is inherited),
 * with flow control passed through in both directions. Each chunk is
 * written on as soon as it is read, unchanged; framing (the router's own
 * framer), the monitor and the outputs run afterwards, off the forwarding
 * path: in a worker thread (analysis-thread.ts) by default, so they never
 * hold up a chunk, or in the analysis queue of this thread (analysis.ts)
 * with `inlineAnalysis`. Nothing but the agent's bytes is ever written to stdout.
 * The agent runs in its own process group (src/transport/process.ts), so a
 * wrapper such as `sh -c` or `npx` and what it started end together.
 */
import { constants } from "node:os";
import type { Readable, Writable } from "node:stream";
import { exitStatus, startProcess } from "../../src/transport/process.ts";
import { startAnalysisThread } from "./analysis-thread.ts";
import type { Observer } from "./observer.ts";

export interface ProxyOptions {
  readonly command: readonly string[];
  /** Live readable trace; `-` is stderr. */
  readonly log?: string | undefined;
  /** NDJSON recording. */
  readonly record?: string | undefined;
  /** A trace in the Rust conductor's format (tools/inspect/rust-trace.ts), for its viewer and ours. */
  readonly trace?: string | undefined;
  /** Where the exit summary goes; default stderr. A `.json` name gets JSON. */
  readonly summary?: string | undefined;
  /**
   * After the editor's EOF, how long the agent may take to exit before its
   * group gets SIGTERM (then SIGKILL). Default: no limit. inspect is a
   * transparent proxy, so it exits when the agent does: a lingering agent
   * keeps inspect running, exactly as it would keep the editor waiting
   * without inspect (and `check -- acp-router inspect -- agent` sees the
   * lingering, ACP-SHUTDOWN-001). The editor ending inspect (SIGTERM, SIGINT,
   * SIGHUP) ends the agent's group. Set it to end a lingering agent after
   * that many ms (noted in the summary; inspect then exits 0).
   */
  readonly exitGraceMs?: number | undefined;
  /** `--table`: the folder of a user's generated table (ACP rows plus extension rows), judged in place of the built-in table of its version. */
  readonly table?: string | undefined;
  /**
   * Analyse in this thread (in `setImmediate` slices after forwarding)
   * instead of a worker thread. Default false: the worker keeps parsing and
   * validation off the forwarding thread and on another core when one is free.
   */
  readonly inlineAnalysis?: boolean | undefined;
}

/** The editor-side streams: the proxy's own stdin and stdout by default. */
export interface ProxyStdio {
  readonly stdin: Readable;
  readonly stdout: Writable;
}

/** The signals on which inspect finishes its outputs, ends the agent's group and stops. */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * Runs the proxy until the agent exits; resolves with the agent's exit code
 * (128 + signal number when killed; 0 when, with `exitGraceMs`, it lingered
 * after the editor's EOF and was ended, which the summary notes). On SIGINT, SIGTERM or SIGHUP the
 * summary, the trace and the recording's `end` record are written
 * synchronously, the agent's process group is ended, and the process exits
 * with 128 + that signal's number.
 */
export async function runProxy(options: ProxyOptions, io: ProxyStdio = { stdin: process.stdin, stdout: process.stdout }): Promise<number> {
  const [command, ...args] = options.command;
  if (command === undefined) throw new Error("no agent command after --");
  const started = performance.now();
  const now = () => performance.now() - started;
  // A table that does not load ends inspect here, before the agent starts (TableLoadError: its message is one line).
  // The tables (every generated protocol) and the observer load only where they run: in this
  // thread for `--table` or `inlineAnalysis`; else only the analysis thread loads them, while
  // this one starts the agent.
  const tables = options.table === undefined ? undefined : await (await import("./tables.ts")).loadTables(options.table);
  const observed = { command: options.command, log: options.log, record: options.record, trace: options.trace, summary: options.summary, startedAt: Date.now(), table: options.table };
  const analysis: Observer = options.inlineAnalysis ? (await import("./observer.ts")).createObserver(observed, undefined, undefined, tables) : startAnalysisThread(observed);
  const agent = startProcess(command, args, { stdio: ["pipe", "pipe", "inherit"], graceMs: options.exitGraceMs ?? Infinity });
  const child = agent.child as typeof agent.child & { stdin: Writable; stdout: Readable };
  /** Notes for the summary from this side (a signal, how the agent ended), in order. */
  const notes: string[] = [];

  // The editor's EOF goes on to the agent; one that lingers after it is ended (grace → SIGTERM → SIGKILL).
  pipe(
    io.stdin,
    child.stdin,
    (chunk) => analysis.push("client", chunk, now()),
    () => {
      analysis.end("client");
      void agent.close();
    },
  );
  pipe(
    child.stdout,
    io.stdout,
    (chunk) => {
      agent.heard();
      analysis.push("agent", chunk, now());
    },
    () => analysis.end("agent"),
  );
  io.stdout.on("error", () => undefined); // the editor went away: the agent still gets end of input

  let finished = false;
  const wrapUp = (exit: number) => {
    finished = true;
    io.stdin.pause();
    analysis.finish(now(), exit, notes, { client: 0, agent: 0 });
  };
  // Everything here is synchronous: a SIGKILL that follows (as acp-factory's close() and check send) finds the files complete.
  const onSignal = (signal: NodeJS.Signals) => {
    if (finished) return;
    const status = 128 + (constants.signals[signal] ?? 0);
    notes.push(`inspect received ${signal} while the agent was running; the agent's process group was ended`);
    wrapUp(status);
    agent.killSync();
    process.exit(status);
  };
  for (const s of STOP_SIGNALS) process.on(s, onSignal);
  const ended = await agent.exited;
  for (const s of STOP_SIGNALS) process.off(s, onSignal);
  if (ended.error) process.stderr.write(`acp-router inspect: cannot start ${command}: ${ended.error.message}\n`);
  if (ended.note) notes.push(`the agent ${ended.note}`);
  const exit = ended.lingered ? 0 : exitStatus(ended);
  wrapUp(exit);
  return exit;
}

/** Copies `from` to `to`, writing each chunk as it arrives and only then queueing it for analysis, pausing while `to` is full. */
function pipe(from: Readable, to: Writable, queue: (chunk: Uint8Array) => void, end: () => void): void {
  const resume = () => from.resume();
  from.on("data", (chunk: Uint8Array) => {
    if (!to.write(chunk)) {
      from.pause();
      to.once("drain", resume);
    }
    queue(chunk);
  });
  from.once("end", () => {
    to.end();
    end();
  });
}
