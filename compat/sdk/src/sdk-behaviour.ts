/**
 * The parts of an app's connection that follow the SDK where the core alone
 * would differ and the spec is silent (its log line for a dropped
 * notification, its v2 `initialize` version check), and the bridge from the
 * core's routing of `session/cancel` to the app's `session/cancel` handler.
 */
import type { Diagnostic } from "acp-router";
import type { HandlerContext } from "acp-router";
import type { Protocol } from "acp-router/runtime";
import { RequestError } from "./request-error.ts";
import { runHandler, type Registered } from "./run-handler.ts";
import type { Sender } from "./sender.ts";

/**
 * Where the SDK logs what it drops without an answer, on stderr: a
 * notification whose params failed validation. The same line the SDK
 * prints, so logs and tests that watch for it keep working; other
 * diagnostics stay silent as in the SDK.
 */
export function logAsSdk(diagnostic: Diagnostic): void {
  if (diagnostic.kind !== "invalid_notification") return;
  const method = /"([^"]*)"/.exec(diagnostic.message)?.[1];
  console.error("Error handling notification", { method, code: -32602, message: "Invalid params" });
}

/**
 * A v2 app answers an `initialize` naming an older version `-32022` with
 * `{ requested, supported }` before its handler runs, as the SDK's v2 apps
 * do (v2 has no older version to negotiate down to; v1 answers its own).
 */
export function refuseOlderVersion(protocol: Protocol, params: unknown): void {
  const requested = (params as { protocolVersion?: unknown } | null)?.protocolVersion;
  if (protocol.version >= 2 && typeof requested === "number" && requested < protocol.version) throw RequestError.unsupportedProtocolVersion(requested, [protocol.version]);
}

/** The sender a handler context offers: `ctx.request` / `ctx.notify` take any wire at run time. */
export function ctxSender(ctx: HandlerContext<unknown>): Sender {
  return ctx as unknown as Sender;
}

/**
 * Calls the SDK's `session/cancel` handler once per `session/cancel`: the
 * core routes that notification itself (it aborts the signals of the
 * session's running handlers and answers the prompt `cancelled`), so the app
 * learns of it from those signals. Several handlers aborted by one cancel
 * call it once.
 */
export function sessionCancelOnce(cancel: Registered, context: (ctx: HandlerContext<unknown>) => object) {
  const told = new Set<string>();
  return {
    watch(ctx: HandlerContext<unknown>) {
      const sessionId = ctx.sessionId as string;
      const onAbort = () => {
        if ((ctx.signal.reason as { cause?: unknown } | undefined)?.cause !== "session_cancel" || told.has(sessionId)) return;
        told.add(sessionId);
        queueMicrotask(() => told.delete(sessionId));
        void runHandler(cancel, "notification", "session/cancel", { sessionId }, { ctx, requestId: undefined, peerKey: "client", peer: () => context(ctx) }).catch(() => {});
      };
      if (ctx.signal.aborted) onAbort();
      else ctx.signal.addEventListener("abort", onAbort, { once: true });
    },
  };
}
