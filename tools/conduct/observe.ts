/**
 * What `acp-router conduct` sees of each hop of its chain, through the
 * conductor's tap (`ConductOptions.tap`): a trace in the Rust conductor's
 * format (`--trace FILE`: components `Client`, `Proxy(0)`, …, `Agent`, each
 * message once per hop it crosses, unwrapped from `proxy/successor`), and one
 * monitor per hop (`--summary FILE`: inspect's rules, as `acp-router inspect`
 * judges one connection, each hop a connection between a client and an agent
 * side). A proxy hosted in the conductor's process and one in a process of
 * its own get the same: the tap sees the chain's hops, not how a component
 * runs.
 */
import { closeSync, openSync, writeFileSync, writeSync } from "node:fs";
import { createMonitor, type Monitor } from "../inspect/monitor.ts";
import { rustTraceLines } from "../inspect/rust-trace.ts";
import { buildSummary, formatSummary, type Summary } from "../inspect/summary.ts";

/** The chain's component names in the Rust format: every component but the last is a proxy; the last is the agent (or, nested, a proxy too). */
export function componentName(index: number, last: number, nested: boolean): string {
  if (index < 0) return "Client";
  return index === last && !nested ? "Agent" : `Proxy(${index})`;
}

/** What the observer was asked for. */
export interface ObserveOptions {
  readonly trace?: string | undefined;
  readonly summary?: string | undefined;
  /** The index of the last component, and whether the chain is nested (`--proxy-mode`: no agent of its own). */
  readonly last: number;
  readonly nested: boolean;
}

/** A hop's monitor, made when the hop's first message is seen. */
interface HopWatch {
  readonly name: string;
  readonly monitor: Monitor;
}

/** The tap and its end: `end` writes the summary (to its file, or stderr) and closes the trace. */
export function observeChain(options: ObserveOptions): { tap: (hop: number, toAgent: boolean, line: string) => void; end(): void } | undefined {
  if (options.trace === undefined && options.summary === undefined) return undefined;
  const started = performance.now();
  const trace = options.trace === undefined ? undefined : openSync(options.trace, "w");
  const hops = new Map<number, HopWatch>();
  const names = (hop: number) => ({ client: componentName(hop - 1, options.last, options.nested), agent: componentName(hop, options.last, options.nested) });
  return {
    tap(hop, toAgent, line) {
      const t = performance.now() - started;
      const { client, agent } = names(hop);
      const from = toAgent ? "client" : "agent";
      if (trace !== undefined) {
        const text = rustTraceLines(from, line, t, toAgent ? { from: client, to: agent } : { from: agent, to: client });
        if (text !== "") writeSync(trace, text);
      }
      if (options.summary !== undefined) {
        let watch = hops.get(hop);
        if (watch === undefined) hops.set(hop, (watch = { name: `${client} ↔ ${agent}`, monitor: createMonitor() }));
        watch.monitor.observe(from, line, t);
      }
    },
    end() {
      if (trace !== undefined) closeSync(trace);
      if (options.summary === undefined) return;
      const t = performance.now() - started;
      const summaries: { hop: string; summary: Summary }[] = [...hops]
        .sort(([a], [b]) => a - b)
        .map(([, w]) => {
          w.monitor.end(t);
          return { hop: w.name, summary: buildSummary(w.monitor.state, w.monitor.violations, [], 0) };
        });
      if (options.summary === "-") process.stderr.write(summaries.map((s) => `${s.hop}\n${formatSummary(s.summary)}`).join("\n"));
      else if (options.summary.endsWith(".json")) writeFileSync(options.summary, `${JSON.stringify({ hops: summaries }, null, 2)}\n`);
      else writeFileSync(options.summary, summaries.map((s) => `${s.hop}\n${formatSummary(s.summary)}`).join("\n"));
    },
  };
}
