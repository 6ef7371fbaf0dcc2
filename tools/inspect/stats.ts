/** Counters the summary prints: messages per method and sender, answer latencies per request method. */
import type { Sender } from "./rules.ts";

/** Counts for one method. */
export interface MethodCounts {
  requests: number;
  notifications: number;
  results: number;
  errors: number;
  /** Who sent the requests or notifications (`client`, `agent`, or both). */
  readonly senders: Set<Sender>;
  /** Answer latencies in ms, in arrival order. */
  readonly latencies: number[];
}

export interface Stats {
  readonly methods: Map<string, MethodCounts>;
  /** Messages per sender. */
  readonly messages: { client: number; agent: number };
  nonJson: number;
  /** Requests never answered, named (`session/prompt #3 from client`): not violations by themselves. */
  readonly unanswered: string[];
  count(from: Sender, kind: string, method: string | undefined, answer: { readonly ms: number; readonly error: number | undefined } | undefined): void;
}

export function createStats(): Stats {
  const methods = new Map<string, MethodCounts>();
  const stats: Stats = {
    methods,
    messages: { client: 0, agent: 0 },
    nonJson: 0,
    unanswered: [],
    count(from, kind, method, answer) {
      stats.messages[from]++;
      if (method === undefined) return;
      let c = methods.get(method);
      if (c === undefined) {
        c = { requests: 0, notifications: 0, results: 0, errors: 0, senders: new Set(), latencies: [] };
        methods.set(method, c);
      }
      if (kind === "request") {
        c.requests++;
        c.senders.add(from);
      } else if (kind === "notification") {
        c.notifications++;
        c.senders.add(from);
      } else if (answer) {
        if (answer.error === undefined) c.results++;
        else c.errors++;
        c.latencies.push(answer.ms);
      }
    },
  };
  return stats;
}

/** The `q` quantile (0..1) of `values` by nearest rank; undefined when empty. */
export function quantile(values: readonly number[], q: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}
