/**
 * When a supervised client may start its agent again, as an Erlang/OTP
 * supervisor decides: at most `intensity` restarts within any `periodMs`;
 * one more and it gives up (the agent is broken, not unlucky). Between
 * tries it waits, doubling from `backoffMs` up to `maxBackoffMs` while the
 * restarts in the period pile up, so an agent that dies at start does not
 * spin the machine. No `node:` imports.
 */

/** The restart settings of `superviseClient`'s `restart` option; every field optional. */
export interface RestartPolicy {
  /**
   * Most restarts within `periodMs`. Default 3: an agent that crashes now
   * and then keeps serving; one that crashes four times a minute is broken,
   * and the user should hear so. (OTP's own default is 1 in 5 s, for
   * processes that restart in microseconds.)
   */
  readonly intensity?: number;
  /** The sliding window of `intensity`, in ms. Default 60000. */
  readonly periodMs?: number;
  /** The wait before the first restart in a period, in ms; doubled for each further one. Default 500: long enough for a port or a lock file to be let go. */
  readonly backoffMs?: number;
  /** The longest wait between tries, in ms. Default 10000. */
  readonly maxBackoffMs?: number;
}

/** The policy with every default filled in. */
export interface ResolvedRestartPolicy {
  readonly intensity: number;
  readonly periodMs: number;
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
}

export const DEFAULT_RESTART_POLICY: ResolvedRestartPolicy = { intensity: 3, periodMs: 60_000, backoffMs: 500, maxBackoffMs: 10_000 };

/** Fills in the defaults and checks the values; throws a `TypeError` naming `where` and the field. */
export function resolveRestartPolicy(where: string, policy: RestartPolicy | undefined): ResolvedRestartPolicy {
  const resolved = { ...DEFAULT_RESTART_POLICY, ...Object.fromEntries(Object.entries(policy ?? {}).filter(([, v]) => v !== undefined)) } as ResolvedRestartPolicy;
  for (const [key, min] of [
    ["intensity", 0],
    ["periodMs", 1],
    ["backoffMs", 0],
    ["maxBackoffMs", 0],
  ] as const) {
    const value = resolved[key];
    if (typeof value !== "number" || !Number.isFinite(value) || value < min) throw new TypeError(`${where}: restart.${key} must be a finite number of at least ${min}; got ${String(value)}.`);
  }
  return resolved;
}

/** The verdict on one more restart: allowed after `delayMs`, or not (`count` restarts within the period already). */
export type RestartVerdict = { readonly allowed: true; readonly attempt: number; readonly delayMs: number } | { readonly allowed: false; readonly count: number };

/** Counts restarts in the sliding period and says whether one more is allowed, and after what wait. */
export class RestartBudget {
  private readonly policy: ResolvedRestartPolicy;
  /** When each restart within the period was granted (`performance.now()`). */
  private recent: number[] = [];
  /** Restarts granted in all, for the `attempt` numbers. */
  private total = 0;

  constructor(policy: ResolvedRestartPolicy) {
    this.policy = policy;
  }

  /** Asks for one more restart now. */
  ask(now = performance.now()): RestartVerdict {
    this.recent = this.recent.filter((t) => now - t < this.policy.periodMs);
    if (this.recent.length >= this.policy.intensity) return { allowed: false, count: this.recent.length };
    this.recent.push(now);
    this.total++;
    const delayMs = Math.min(this.policy.maxBackoffMs, this.policy.backoffMs * 2 ** (this.recent.length - 1));
    return { allowed: true, attempt: this.total, delayMs };
  }
}
