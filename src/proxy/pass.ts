/**
 * The pass-through path of a proxy: a message no hook wants goes on as a
 * line (its text reused, `splice.ts`), without the connection's per-call
 * machinery (handler context, abort signal, params validation). What it
 * still checks, when it applies and how it cancels: docs/proxy.md, "What a
 * pass-through proxy checks". Anything else goes to the connection as before.
 */
import { ParseFailure } from "../jsonrpc/parse.ts";
import { stringMember } from "../jsonrpc/scan.ts";
import { ErrorCode, RpcError } from "../errors.ts";
import { isExtensionWire, type Row } from "../row.ts";
import { kindOf, readerLimits, readLines } from "../transport/reader.ts";
import { deliverMessage, type Transport, type TransportReceiver } from "../transport/transport.ts";
import type { ConnectionOptions } from "../connection/options.ts";
import { protocol } from "./generated/protocol.ts";
import { lineWriter, notificationLine, type Id } from "./hop.ts";
import type { ProxyHooks } from "./hooks.ts";
import { proxyRows } from "./rows.ts";
import { fromValue, Inbound, readLine, unwrap, unwrappedLine, withId, wrappedLine, type Read } from "./splice.ts";

/** A request this path forwarded (by the id it went out with): the id it came with; `upstream` when it went to the predecessor. */
interface Forwarded {
  readonly originId: Id;
  readonly upstream: boolean;
  /** Where its params' text lies (the session it belongs to is read off it only when a `session/cancel` comes). */
  readonly text: string;
  readonly at: number;
  /** A turn (a row with a cancelled result): what `session/cancel` ends and what a `-32800` answer becomes. */
  readonly turn: Row<never, never> | undefined;
  cancelled: boolean;
}

/** The path: `wrap` gives the transport as the proxy's connection reads it (without what the path forwards); `opened` once the proxy's initialize answered. */
export interface PassThrough {
  wrap(transport: Transport): Transport;
  opened(): void;
}

const hooked = (set: object | undefined, except?: string) => Object.entries(set ?? {}).some(([name, hook]) => hook !== undefined && name !== except);
const callbackRows = (rows: readonly Row<never, never>[]) => new Map(rows.filter((r) => r.callback !== undefined).map((r) => [r.wire, r]));

/** The pass-through path of a proxy built from `hooks` and served with `options`; undefined when it never applies. */
export function passThrough(hooks: ProxyHooks, options: ConnectionOptions): PassThrough | undefined {
  // A traced proxy is a participant: each message it forwards gets its own span and context (docs/tracing.md).
  if (options.authRequired === true || options.extensions !== undefined || options.requestTimeoutMs !== undefined || options.tracing !== undefined) return undefined;
  const fromSuccessor = !hooked(hooks.fromAgent);
  const fromPredecessor = fromSuccessor && !hooked(hooks.fromClient, "initialize");
  if (!fromSuccessor) return undefined;
  const own = new Set([proxyRows.proxyInitialize, proxyRows.initialize, proxyRows.envelope]);
  const agentRows = callbackRows(protocol.rows.agent);
  const clientRows = callbackRows(protocol.rows.client);
  // The wire a side forwards here: a table row with a handler method (and not the proxy's own), or an unlisted `_` one.
  const forwards = (rows: Map<string, Row<never, never>>, wire: string) => (rows.has(wire) ? !own.has(wire) : isExtensionWire(wire));
  const limits = readerLimits({ maxMessageBytes: options.maxMessageBytes, maxDepth: options.maxDepth });
  let open = false;

  return {
    opened: () => void (open = true),
    wrap(transport) {
      const forwarded = new Map<Id, Forwarded>();
      /** The predecessor's requests forwarded here, by their id (a Map keeps `1` and `"1"` apart): for its `$/cancel_request`. */
      const byOrigin = new Map<Id, string>();
      let nextId = 0;
      const send = lineWriter(transport);

      const forward = (originId: Id, upstream: boolean, method: string, text: string, at: number, line: (id: string) => string): void => {
        const id = `p${nextId++}`;
        const row = upstream ? undefined : agentRows.get(method);
        forwarded.set(id, { originId, upstream, text, at, turn: row?.onCancel !== undefined ? row : undefined, cancelled: false });
        if (!upstream) byOrigin.set(originId, id);
        send(line(id));
      };
      /** An answer to a request forwarded here: to where it came from, under its own id. */
      const answer = (m: Inbound, entry: Forwarded, id: Id): void => {
        forwarded.delete(id);
        if (!entry.upstream) byOrigin.delete(entry.originId);
        if (entry.cancelled && entry.turn !== undefined && (m.body.error as { code?: unknown } | undefined)?.code === ErrorCode.RequestCancelled) return send(JSON.stringify({ jsonrpc: "2.0", id: entry.originId, result: entry.turn.onCancel }));
        send(withId(m, entry.originId));
      };
      /** `session/cancel` from the predecessor: once to the successor per running turn, and a cancel for each request of the session sent up. */
      const cancelSession = (sessionId: string): void => {
        for (const [id, entry] of forwarded) {
          if (entry.cancelled || entry.at === -1 || stringMember(entry.text, entry.at, "sessionId") !== sessionId) continue;
          if (entry.upstream) {
            entry.cancelled = true;
            send(notificationLine(proxyRows.cancel, { requestId: id }));
          } else if (entry.turn !== undefined) {
            entry.cancelled = true;
            send(notificationLine(proxyRows.envelope, { method: proxyRows.sessionCancel, params: { sessionId } }));
          }
        }
      };

      /** True when this path took the message; false hands it to the connection. */
      const take = (m: Inbound): boolean => {
        if (m.kind === "response") {
          const id = m.id as Id;
          const entry = forwarded.get(id);
          if (entry === undefined) return false;
          answer(m, entry, id);
          return true;
        }
        if (!open) return false;
        const method = m.method;
        if (method === proxyRows.envelope) {
          const inner = unwrap(m, method);
          if (typeof inner === "string" || !forwards(clientRows, inner.method)) return false;
          // What the successor sends without params goes on with empty ones.
          const paramsText = inner.paramsText ?? "{}";
          const to = { method: inner.method, paramsText };
          if (m.kind === "notification") send(unwrappedLine(undefined, inner.method, to));
          else forward(m.id as Id, true, inner.method, paramsText, 0, (id) => unwrappedLine(id, inner.method, to));
          return true;
        }
        if (!fromPredecessor) return false;
        if (method === proxyRows.cancel) {
          const requestId = (m.params() as { requestId?: unknown } | null | undefined)?.requestId;
          const id = typeof requestId === "string" || typeof requestId === "number" ? byOrigin.get(requestId) : undefined;
          const entry = id === undefined ? undefined : forwarded.get(id);
          if (id === undefined || entry === undefined) return false;
          if (!entry.cancelled) {
            entry.cancelled = true;
            send(notificationLine(proxyRows.cancel, { requestId: id }));
          }
          return true;
        }
        if (method === proxyRows.sessionCancel) {
          // The connection still sees it: it cancels what runs on its own path.
          const sessionId = (m.params() as { sessionId?: unknown } | null | undefined)?.sessionId;
          if (typeof sessionId === "string") cancelSession(sessionId);
          return false;
        }
        if (!forwards(agentRows, method)) return false;
        if (m.kind === "notification") send(wrappedLine(undefined, proxyRows.envelope, m));
        else forward(m.id as Id, false, method, m.line, m.head.paramsAt, (id) => wrappedLine(id, proxyRows.envelope, m));
        return true;
      };

      /** The stream ended: what waits on it is answered as the connection answers its own calls then. */
      const ended = () => {
        for (const [id, entry] of forwarded) {
          forwarded.delete(id);
          if (entry.upstream) continue;
          send(JSON.stringify(entry.turn !== undefined ? { jsonrpc: "2.0", id: entry.originId, result: entry.turn.onCancel } : { jsonrpc: "2.0", id: entry.originId, error: RpcError.requestCancelled().toJSON() }));
        }
      };

      return {
        start(receiver: TransportReceiver) {
          const pass = (read: Read, line: string): void => {
            if (read instanceof Inbound) {
              if (!take(read)) deliverMessage(receiver, read.body, line, read.kind);
            } else deliverMessage(receiver, read.value, line, read.kind);
          };
          readLines(
            transport,
            {
              line: (text) => pass(readLine(text, limits.maxDepth, kindOf), text),
              message: (value, line) => pass(fromValue(value, kindOf, line), line),
              // The connection answers it as any line too long (a receiver without `oversized`: as the parse error it is).
              oversized: (length) => (receiver.oversized ? receiver.oversized(length) : deliverMessage(receiver, new ParseFailure(`line longer than maxMessageBytes (${limits.maxMessageBytes})`), "")),
              end(error) {
                ended();
                receiver.end(error);
              },
            },
            limits,
          );
        },
        write: (text) => transport.write(text),
        close: () => transport.close(),
        pause: () => transport.pause?.(),
        resume: () => transport.resume?.(),
      };
    },
  };
}
