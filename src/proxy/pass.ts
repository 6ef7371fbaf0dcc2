/**
 * The pass-through path of a proxy: a message that passes verbatim
 * (`verbatim.ts`) goes on as a line (its text reused, `splice.ts`), without
 * the connection's per-call machinery (handler context, abort signal, params
 * validation); the relay (`relay.ts`) keeps what it forwarded, what it owes
 * and its cancels. What it still checks, when it applies and how it cancels:
 * docs/proxy.md, "What a pass-through proxy checks". Anything else goes to
 * the connection as before. This file only wires the stream to the relay.
 */
import { ParseFailure } from "../jsonrpc/parse.ts";
import { ErrorCode, RpcError } from "../errors.ts";
import { kindOf, readerLimits, readLines } from "../transport/reader.ts";
import { deliverMessage, type Transport, type TransportReceiver } from "../transport/transport.ts";
import type { ConnectionOptions } from "../connection/options.ts";
import { lineWriter } from "./hop.ts";
import type { ProxyHooks } from "./hooks.ts";
import { createRelay, type Forwarded, type Id } from "./relay.ts";
import { protocol } from "./generated/protocol.ts";
import { proxyRows } from "./rows.ts";
import { fromValue, Inbound, notificationLine, readLine, sessionOf, sessionOfWrapped, unwrap, unwrappedLine, withId, wrappedLine, type Read } from "./splice.ts";
import { passesVerbatim, passPolicy } from "./verbatim.ts";

/** How a request forwarded here is marked: which way it went, and for a turn its cancelled result. */
interface Mark {
  /** It went to the predecessor (it came from the successor). */
  readonly upstream: boolean;
  /** A turn (a row with a cancelled result): what `session/cancel` ends and what a `-32800` answer becomes. */
  readonly onCancel: unknown;
}

/** The path: `wrap` gives the transport as the proxy's connection reads it (without what the path forwards); `opened` once the proxy's initialize answered. */
export interface PassThrough {
  wrap(transport: Transport): Transport;
  opened(): void;
}

const UPSTREAM: Mark = { upstream: true, onCancel: undefined };
const DOWNSTREAM: Mark = { upstream: false, onCancel: undefined };
/** The mark of a turn the predecessor starts (a row with a cancelled result: `session/prompt`), by its wire. */
const turnMarks: ReadonlyMap<string, Mark> = new Map(protocol.rows.agent.filter((r) => r.onCancel !== undefined).map((r): [string, Mark] => [r.wire, { upstream: false, onCancel: r.onCancel }]));
const markOf = (f: Forwarded): Mark => f.mark as Mark;

/** The pass-through path of a proxy built from `hooks` and served with `options`; undefined when it never applies. */
export function passThrough(hooks: ProxyHooks, options: ConnectionOptions): PassThrough | undefined {
  const policy = passPolicy(hooks, options);
  if (policy === undefined) return undefined;
  const limits = readerLimits({ maxMessageBytes: options.maxMessageBytes, maxDepth: options.maxDepth });
  let open = false;

  return {
    opened: () => void (open = true),
    wrap(transport) {
      const relay = createRelay();
      // One stream carries both directions: the conductor, as predecessor and (in the envelope) as successor.
      const conductor = relay.link("the conductor", lineWriter(transport), (n) => `p${n}`);

      /** An answer to a request forwarded here: to where it came from, under its own id (a cancelled turn's -32800 as its cancelled result). */
      const answer = (m: Inbound, f: Forwarded): void => {
        const { onCancel } = markOf(f);
        const code = (m.body.error as { code?: unknown } | undefined)?.code;
        if (f.cancelled && onCancel !== undefined && code === ErrorCode.RequestCancelled) relay.send(conductor, JSON.stringify({ jsonrpc: "2.0", id: f.originId, result: onCancel }));
        else relay.send(conductor, withId(m, f.originId));
      };
      /** `session/cancel` from the predecessor: once to the successor per running turn, and a cancel for each request of the session sent up. */
      const cancelSession = (sessionId: string): void => {
        relay.cancelSession(
          conductor,
          sessionId,
          (f) => markOf(f).upstream || markOf(f).onCancel !== undefined,
          // What went up was the successor's envelope: its session is the wrapped message's.
          (f) => (f.message === undefined ? undefined : markOf(f).upstream ? sessionOfWrapped(f.message) : sessionOf(f.message)),
          (id, f) => relay.send(conductor, markOf(f).upstream ? notificationLine(proxyRows.cancel, { requestId: id }) : notificationLine(proxyRows.envelope, { method: proxyRows.sessionCancel, params: { sessionId } })),
        );
      };

      /** True when this path took the message; false hands it to the connection. */
      const take = (m: Inbound): boolean => {
        if (m.kind === "response") {
          const owed = relay.answer(conductor, m.id as Id);
          if (owed === undefined || typeof owed === "function") return false;
          answer(m, owed);
          return true;
        }
        if (!open) return false;
        const method = m.method;
        if (method === proxyRows.envelope) {
          const inner = unwrap(m, method);
          if (typeof inner === "string" || !passesVerbatim(policy, "fromSuccessor", inner.method)) return false;
          // What the successor sends without params goes on with empty ones.
          const to = { method: inner.method, paramsText: inner.paramsText ?? "{}" };
          if (m.kind === "notification") relay.send(conductor, unwrappedLine(undefined, inner.method, to));
          else relay.send(conductor, unwrappedLine(relay.request(conductor, m.id as Id, conductor, m, UPSTREAM), inner.method, to));
          return true;
        }
        if (method === proxyRows.cancel) {
          const requestId = (m.params() as { requestId?: unknown } | null | undefined)?.requestId;
          if (typeof requestId !== "string" && typeof requestId !== "number") return false;
          const where = relay.cancel(conductor, requestId);
          if (where === undefined) return false;
          relay.send(conductor, notificationLine(proxyRows.cancel, { requestId: where.id }));
          return true;
        }
        if (!policy.fromPredecessor) return false;
        if (method === proxyRows.sessionCancel) {
          // The connection still sees it: it cancels what runs on its own path.
          const sessionId = sessionOf(m);
          if (sessionId !== undefined) cancelSession(sessionId);
          return false;
        }
        if (!passesVerbatim(policy, "fromPredecessor", method)) return false;
        if (m.kind === "notification") relay.send(conductor, wrappedLine(undefined, proxyRows.envelope, m));
        else relay.send(conductor, wrappedLine(relay.request(conductor, m.id as Id, conductor, m, turnMarks.get(method) ?? DOWNSTREAM), proxyRows.envelope, m));
        return true;
      };

      /** The stream ended: what waits on it is answered as the connection answers its own calls then. */
      const ended = () =>
        relay.end(conductor, (f) => {
          if (typeof f === "function") return;
          const { upstream, onCancel } = markOf(f);
          if (upstream) return;
          // The link has ended for reading; what it still writes is the connection's last words.
          transport.write(`${JSON.stringify(onCancel !== undefined ? { jsonrpc: "2.0", id: f.originId, result: onCancel } : { jsonrpc: "2.0", id: f.originId, error: RpcError.requestCancelled().toJSON() })}\n`);
        });

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
