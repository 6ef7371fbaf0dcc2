/**
 * Everything `inspect` learns and writes about one proxied connection: the
 * analysis queue (analysis.ts) feeding each direction's framer, the monitor,
 * the live trace and the recording, and at the end the summary. It runs in
 * the analysis thread (analysis-worker.ts) or, with `inlineAnalysis`, in the
 * proxy's own thread; either way it sees the forwarded chunks after they
 * were written on, with the time they arrived.
 */
import { lineReader, readerLimits } from "../../src/transport/reader.ts";
import { ANALYSIS_MAX_BYTES, createAnalysisQueue } from "./analysis.ts";
import { createMonitor, type Monitor } from "./monitor.ts";
import { openOutput, type TextOutput } from "./output.ts";
import { endLine, recordLines, startLine, violationRecord } from "./recording.ts";
import type { Sender } from "./rules.ts";
import { BUILT_IN, type Tables } from "./tables.ts";
import { buildSummary, formatSummary } from "./summary.ts";
import { rustTraceLines } from "./rust-trace.ts";
import { traceLines, violationLine } from "./trace.ts";

/** What the observer writes, and where (the proxy's options of the same names). */
export interface ObserverOptions {
  readonly command: readonly string[];
  readonly log?: string | undefined;
  readonly record?: string | undefined;
  /** `--trace`: a trace in the Rust conductor's format (rust-trace.ts). */
  readonly trace?: string | undefined;
  readonly summary?: string | undefined;
  /** When the proxy started (ms since the epoch), for the recording's start line. */
  readonly startedAt: number;
  /** `--table`: the folder of a user's generated table; the analysis thread loads it itself ({@link loadTables}), as functions do not cross threads. */
  readonly table?: string | undefined;
}

/** Lines left out of analysis, per sender. */
export interface Skipped {
  readonly client: number;
  readonly agent: number;
}

export interface Observer {
  /** A chunk forwarded from `from` at `t` ms; `resync` when chunks of that direction before it were dropped. */
  push(from: Sender, chunk: Uint8Array, t: number, resync?: boolean): void;
  /** End of one direction. */
  end(from: Sender): void;
  /**
   * Analyses what is still queued, adds `notes` (in order) and a note on
   * skipped lines (its own and `skippedBefore`, dropped before they reached
   * it), and writes the trace's and recording's ends and the summary, all
   * synchronously.
   */
  finish(t: number, exit: number, notes: readonly string[], skippedBefore: Skipped): void;
}

/** Opens the outputs (the recording's start line is written at once) and creates the observer, judging with `tables`. `released` as for {@link createAnalysisQueue}. */
export function createObserver(options: ObserverOptions, maxBytes = ANALYSIS_MAX_BYTES, released?: (bytes: number) => void, tables: Tables = BUILT_IN): Observer {
  const monitor = createMonitor(tables);
  const log = options.log !== undefined ? openOutput(options.log) : undefined;
  const record = options.record !== undefined ? openOutput(options.record) : undefined;
  record?.write(startLine(options.command, new Date(options.startedAt)));
  const rust = options.trace !== undefined ? openOutput(options.trace) : undefined;
  // The connection's default limits, resolved once: the monitor judges lines as a connection would read them.
  const limits = readerLimits();
  const framer = (from: Sender, time: () => number) =>
    lineReader(
      {
        line(text, shallow) {
          const o = monitor.observe(from, text, time(), shallow);
          if (log) log.write(traceLines(o, text, log.tty));
          if (record) record.write(recordLines(o, text));
          if (rust) rust.write(rustTraceLines(from, text, o.t));
        },
        oversized: (length) => monitor.oversized(from, length, time()),
        // The reader counts each line's opening brackets up to limits.maxDepth, so the monitor's depth bound scans only lines with many.
      },
      limits,
    );
  const analysis = createAnalysisQueue(framer, maxBytes, undefined, released);
  return {
    push: analysis.push,
    end: analysis.end,
    finish(t, exit, notes, skippedBefore) {
      monitor.state.notes.push(...notes);
      analysis.finish();
      const client = analysis.skipped.client + skippedBefore.client;
      const agent = analysis.skipped.agent + skippedBefore.agent;
      if (client + agent > 0) monitor.state.notes.push(`analysis skipped ${client + agent} messages (${client} from the client, ${agent} from the agent) while it was ${ANALYSIS_MAX_BYTES / 1024 / 1024} MiB behind; every byte was still forwarded, but rules spanning messages may be off after that`);
      writeEnd(monitor, t, exit, options, log, record);
      rust?.close();
    },
  };
}

function writeEnd(monitor: Monitor, t: number, exit: number, options: ObserverOptions, log: TextOutput | undefined, record: TextOutput | undefined): void {
  for (const v of monitor.end(t)) {
    log?.write(violationLine(v, log.tty));
    record?.write(violationRecord(v));
  }
  record?.write(endLine(t, exit));
  const summary = buildSummary(monitor.state, monitor.violations, options.command, exit);
  log?.close();
  record?.close();
  const out = openOutput(options.summary ?? "-");
  out.write(options.summary?.endsWith(".json") ? `${JSON.stringify(summary, null, 2)}\n` : formatSummary(summary));
  out.close();
}
