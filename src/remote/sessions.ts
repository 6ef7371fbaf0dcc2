/**
 * Open sessions, counted from the method table's `lifecycle` column: a
 * request whose row `opens_session` adds its session once answered with a
 * result, one that `closes_session` removes it. No wire names here.
 */
import type { RequestId } from "../context.ts";
import type { Row } from "../row.ts";
import { sessionIdOfResultLine } from "../jsonrpc/session-id.ts";
import type { Peeked } from "./peek.ts";

/** The server-wide count against `maxSessions`. */
export interface SessionCounter {
  count: number;
  readonly max: number;
}

/** One connection's open sessions and the lifecycle requests still waiting for their answer. */
export class ConnectionSessions {
  readonly open = new Set<string>();
  private readonly pending = new Map<RequestId, { readonly opens: boolean; readonly sessionId: string | undefined }>();
  private readonly counter: SessionCounter;

  constructor(counter: SessionCounter) {
    this.counter = counter;
  }

  /** Notes an inbound request; false when it would open a session beyond the server's limit (it must be refused). */
  request(id: RequestId, row: Row<never, never> | undefined, sessionId: string | undefined): boolean {
    const lifecycle = row?.lifecycle;
    if (lifecycle !== "opens_session" && lifecycle !== "closes_session") return true;
    const opens = lifecycle === "opens_session";
    if (opens && (sessionId === undefined || !this.open.has(sessionId)) && this.counter.count >= this.counter.max) return false;
    // A bounded map: ids are only kept until their answer goes out.
    this.pending.set(id, { opens, sessionId });
    return true;
  }

  /** True while some lifecycle request waits for its answer (only then do answers need a look). */
  get waiting(): boolean {
    return this.pending.size > 0;
  }

  /** True while a lifecycle request naming `sessionId` (`session/load`, `session/delete`, …) waits for its answer. */
  isPending(sessionId: string): boolean {
    for (const entry of this.pending.values()) if (entry.sessionId === sessionId) return true;
    return false;
  }

  /** Notes an outbound line that may answer a lifecycle request. */
  answer(peeked: Peeked, line: string): void {
    if (peeked.id === undefined || peeked.id === null || (peeked.kind !== "result" && peeked.kind !== "error")) return;
    const entry = this.pending.get(peeked.id);
    if (!entry) return;
    this.pending.delete(peeked.id);
    if (peeked.kind === "error") return;
    const sessionId = entry.sessionId ?? sessionIdOfResultLine(line);
    if (sessionId === undefined) return;
    if (entry.opens) {
      if (!this.open.has(sessionId)) {
        this.open.add(sessionId);
        this.counter.count++;
      }
    } else if (this.open.delete(sessionId)) this.counter.count--;
  }

  /** Gives this connection's sessions back to the server's count (connection closed). */
  release(): void {
    this.counter.count -= this.open.size;
    this.open.clear();
    this.pending.clear();
  }
}
