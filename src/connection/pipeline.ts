/**
 * The inbound pipeline (DESIGN §4, §11 "Pipeline"), in order: parse →
 * classify → envelope → row lookup → connection-routed rows →
 * initialization gate → capability gate (the one `gate`) → auth gate →
 * decode (with leniency) → dispatch → exactly one answer. Each message is
 * classified once and its row looked up once; every later step reads those.
 * The steps are modules of their own (`receive.ts`, `admit.ts`,
 * `deliver.ts`, `run-handler.ts`, `answer.ts`) over one state
 * (`pipeline-state.ts`); this module is their face: {@link Inbound}.
 *
 * `Inbound` owns what answering needs (requests in flight, notification
 * lanes, the handler); the negotiated facts it learns go to the connection's
 * `ConnectionState`, their one writer. It knows its connection only through
 * `InboundHost`, so the pipeline imports no other connection module that
 * imports it back.
 */
import type { MessageKind } from "../jsonrpc/classify.ts";
import { answerCancelledAtEnd, answerOwnSessionCancelled } from "./answer.ts";
import type { ExtensionSender } from "./call.ts";
import type { HandlerRun } from "./lanes.ts";
import type { ConnectionOptions, Diagnostic } from "./options.ts";
import { Pipeline, type InboundHost } from "./pipeline-state.ts";
import { processValue, rejectOversized } from "./receive.ts";
import { report } from "./report.ts";
import type { ConnectionState } from "./state.ts";

export type { InboundHost } from "./pipeline-state.ts";
export { describeError } from "./report.ts";

/**
 * The inbound half of one connection, as the rest of the connection sees it:
 * what arrives goes in (`processLine`, `processValue`, `rejectOversized`);
 * the outbound half says when a response settled a call and settles its
 * calls in their session's lane order; close and stats. Its state is
 * {@link Pipeline}'s, private to this module: nothing outside this file
 * reads or writes a field of it.
 */
export class Inbound<Peer> {
  private readonly pipeline: Pipeline<Peer>;

  constructor(host: InboundHost<Peer>, state: ConnectionState, handler: object, sender: ExtensionSender, options: ConnectionOptions) {
    this.pipeline = new Pipeline(host, state, handler, sender, options);
  }

  /** One message as the reader (`transport/reader.ts`) delivers it: parsed (a `ParseFailure` included), with its kind when it is one object. */
  processValue(value: unknown, kind?: MessageKind): void {
    processValue(this.pipeline, value, kind);
  }

  /** A line longer than `maxBytes`, skipped: answered `-32700`. */
  rejectOversized(length: number, maxBytes: number): void {
    rejectOversized(this.pipeline, length, maxBytes);
  }

  /** Tells the `onDiagnostic` hook, if any. */
  report(kind: Diagnostic["kind"], message: string, data?: unknown): void {
    report(this.pipeline, kind, message, data);
  }

  /** A response settled one of our calls: the next line waits one microtask, so the caller's continuation runs first. */
  responseSettled(): void {
    this.pipeline.settledResponse = true;
  }

  /** True (once) when a response settled a call since the last ask. */
  takeSettledResponse(): boolean {
    const settled = this.pipeline.settledResponse;
    this.pipeline.settledResponse = false;
    return settled;
  }

  /** The handler served (read-only: the client's `initialize` checks what it lacks). */
  get handler(): object {
    return this.pipeline.handler;
  }

  /** The handlers running now, for a call about to be sent (see `Lanes.sent`). */
  lanesSent(): HandlerRun[] | undefined {
    return this.pipeline.lanes.sent();
  }

  /** Settles an answer to a call of session `sessionId` after that session's earlier notifications (see `Lanes.answer`); at once when no lane is busy. */
  settleInLane(sessionId: string | undefined, sentDuring: readonly HandlerRun[] | undefined, settle: () => void): void {
    if (sessionId === undefined || this.pipeline.lanes.size === 0) settle();
    else this.pipeline.lanes.answer(sessionId, sentDuring, settle);
  }

  /** Outbound `session/cancel` (client side): the calls of that session with a cancelled result are answered with it now (`answer.ts`). */
  cancelOwnSession(sessionId: string): void {
    answerOwnSessionCancelled(this.pipeline, sessionId);
  }

  /** A clean close: requests still running are answered as cancelled. */
  answerCancelledAtEnd(): void {
    answerCancelledAtEnd(this.pipeline);
  }

  /** Close: every call in flight is over and its signal aborted. */
  close(): void {
    this.pipeline.close();
  }

  /** Requests in flight and busy lanes, for `stats()`. */
  counts(): { readonly inFlight: number; readonly busyLanes: number } {
    return { inFlight: this.pipeline.inFlight.size, busyLanes: this.pipeline.lanes.size };
  }
}
