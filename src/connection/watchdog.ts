/**
 * The watchdog of one connection (`ConnectionOptions.watchdog`, or the
 * transport's own `watchdog`, which `spawnAgent(cmd, args, { watchdog })`
 * sets): while a request this side sent is in flight, the peer must send
 * something — any message: an update, a request of its own, an answer — at
 * least every `silenceMs`. A call that waited `silenceMs` with no sign of
 * life is given up on, and the app is told first and decides:
 *
 * - `"reject"` (the default, and what no `onUnresponsive` means): each such
 *   call is rejected with an {@link UnresponsiveError} and `$/cancel_request`
 *   is sent for it; the connection stays open, so a peer that was only slow
 *   can still serve the next call;
 * - `"wait"`: nothing is rejected; the watchdog looks again after another
 *   `silenceMs` (an app showing a "keep waiting?" prompt answers this, and
 *   later calls `kill` or a supervisor's `restart` itself if the user asks);
 * - `"kill"`: each such call is rejected as above, the connection closes
 *   with the same error as its cause (every other pending call rejects with
 *   a `ConnectionClosedError` naming it) and the transport's `kill` ends the
 *   peer (a spawned agent's process group: SIGTERM, then SIGKILL);
 * - `"restart"`: as `"kill"` here; a supervised client (src/supervision)
 *   then starts the agent again.
 *
 * While the peer waits on this side (one of its requests is being handled
 * here: a permission prompt, a terminal), its silence is not counted; it
 * counts again from the moment this side answered. Silence is measured per
 * call, from the later of its sending and the peer's last message, so a call
 * sent a moment ago is never given up on for an older silence. A peer that
 * has sent nothing at all yet is still starting (an `npx` download, a slow
 * runtime: real agents take up to 35 s): the watchdog judges from its first
 * message on, and a start is bounded by `initialize`'s own `timeoutMs` or
 * `requestTimeoutMs` instead. The clock is `performance.now()`; a connection
 * without a watchdog pays for none of it.
 */
import { UnresponsiveError } from "../errors.ts";
import type { PendingCall } from "./pending.ts";
import type { UnresponsiveEvent, WatchdogDecision, WatchdogOptions } from "./watchdog-options.ts";

/** What the watchdog needs from its connection. */
export interface WatchdogHost {
  /** Which side the peer is, for the error's words. */
  readonly peerSide: "agent" | "client";
  /** The calls in flight, oldest first. */
  pendingCalls(): PendingCall[];
  /** True while one of the peer's requests is being handled here: the peer is waiting on us. */
  peerWaiting(): boolean;
  /** Rejects `call` with `error` and sends `$/cancel_request` for it (as a timeout does). */
  giveUp(call: PendingCall, error: UnresponsiveError): void;
  /** Closes the connection with `error` as its cause and ends the peer (the transport's `kill`). */
  kill(error: UnresponsiveError): void;
  /** A diagnostic (the decision taken; a failing `onUnresponsive`). */
  report(message: string, data?: unknown): void;
}

/** The connection's `watchdog`, checked: a TypeError naming the option otherwise. */
export function checkWatchdog(where: string, options: WatchdogOptions | undefined): WatchdogOptions | undefined {
  if (options === undefined) return undefined;
  const silenceMs = (options as Partial<WatchdogOptions> | null)?.silenceMs;
  if (typeof silenceMs !== "number" || !(silenceMs > 0) || silenceMs > MAX_TIMER_MS) throw new TypeError(`${where}: watchdog.silenceMs must be a number of milliseconds from 1 to ${MAX_TIMER_MS}; got ${String(silenceMs)}. e.g. { watchdog: { silenceMs: 30_000 } }.`);
  if (options.onUnresponsive !== undefined && typeof options.onUnresponsive !== "function") throw new TypeError(`${where}: watchdog.onUnresponsive must be a function; got ${typeof options.onUnresponsive}.`);
  return options;
}

/** The largest `since(call)` over `calls` (a loop: thousands of calls would overflow a spread's arguments). */
function longest(calls: readonly PendingCall[], since: (call: PendingCall) => number): number {
  let most = 0;
  for (const call of calls) most = Math.max(most, since(call));
  return most;
}

/** The longest delay a timer holds (2^31 - 1 ms). */
const MAX_TIMER_MS = 2_147_483_647;

/** One connection's watchdog; the connection calls `sent`, `heard`, `answered` and `close`. */
export class Watchdog {
  private readonly host: WatchdogHost;
  private readonly silenceMs: number;
  private readonly onUnresponsive: WatchdogOptions["onUnresponsive"];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the peer last sent something (or, while it waited on us, when we answered it). */
  private lastHeard = performance.now();
  /** The peer sent its first message: it has started, and its silence counts. */
  private started = false;
  private closed = false;

  constructor(host: WatchdogHost, options: WatchdogOptions) {
    this.host = host;
    this.silenceMs = options.silenceMs;
    this.onUnresponsive = options.onUnresponsive;
  }

  /** A request was sent: its clock starts now. */
  sent(call: PendingCall): void {
    call.sentAt = performance.now();
    if (this.timer === undefined && !this.closed) this.arm(this.silenceMs);
  }

  /** A message arrived from the peer. */
  heard(): void {
    this.lastHeard = performance.now();
    this.started = true;
  }

  /** This side answered one of the peer's requests: the peer's silence counts from now. */
  answered(): void {
    this.lastHeard = performance.now();
  }

  /** The connection closed: no more looks. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.look(), Math.max(1, Math.ceil(ms)));
  }

  /** The timer ran out: find the calls that waited `silenceMs` in silence, and ask the app. */
  private look(): void {
    this.timer = undefined;
    if (this.closed) return;
    const calls = this.host.pendingCalls();
    if (calls.length === 0) return; // idle: the next request arms it again
    const now = performance.now();
    if (!this.started || this.host.peerWaiting()) {
      this.lastHeard = now;
      return this.arm(this.silenceMs);
    }
    const since = (call: PendingCall) => now - Math.max(call.sentAt, this.lastHeard);
    const silent = calls.filter((call) => since(call) >= this.silenceMs);
    if (silent.length === 0) return this.arm(this.silenceMs - longest(calls, since));
    const silentMs = now - this.lastHeard;
    const decision = this.decide({ silenceMs: this.silenceMs, silentMs, requests: silent.map((c) => ({ id: c.id, method: c.wire, sessionId: c.sessionId, waitedMs: now - c.sentAt })) });
    if (this.closed) return; // the app closed the connection from its callback
    if (decision === "wait") {
      this.lastHeard = now;
      return this.arm(this.silenceMs);
    }
    const error = (call: PendingCall) => new UnresponsiveError(call.wire, this.silenceMs, now - Math.max(call.sentAt, this.lastHeard), this.host.peerSide);
    for (const call of silent) this.host.giveUp(call, error(call));
    if (decision === "kill" || decision === "restart") return this.host.kill(error(silent[0] as PendingCall));
    const left = this.host.pendingCalls();
    if (left.length > 0) this.arm(this.silenceMs - longest(left, since));
  }

  private decide(event: UnresponsiveEvent): WatchdogDecision {
    let decision: WatchdogDecision | undefined | void;
    try {
      decision = this.onUnresponsive?.(event);
    } catch (error) {
      this.host.report(`watchdog: onUnresponsive threw; the silent calls are rejected: ${error instanceof Error ? error.message : String(error)}`);
    }
    const chosen = decision === "wait" || decision === "kill" || decision === "restart" ? decision : "reject";
    this.host.report(`watchdog: no message from the ${this.host.peerSide} for ${Math.round(event.silentMs)} ms with ${event.requests.length} call(s) in flight (${event.requests.map((r) => r.method).join(", ")}); ${chosen}`, { ...event, decision: chosen });
    return chosen;
  }
}
