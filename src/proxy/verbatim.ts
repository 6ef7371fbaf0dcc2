/**
 * Whether a proxy passes a message on verbatim: a pure function of the
 * proxy's hooks, the options it is served with and the message's method and
 * direction. The proxy's own pass-through path (`pass.ts`) asks it for each
 * message on its stream; a conductor hosting the proxy in its own process
 * asks it too, and carries such a message past the proxy to the next
 * component without handing it to the proxy at all (`chain.ts`).
 *
 * What passes (docs/proxy.md, "What a pass-through proxy checks"): after the
 * proxy's own initialize answered, from the successor every method of the
 * client's side of the table (or an unlisted `_` one) when `fromAgent` has no
 * hooks; from the predecessor every method of the agent's side (or an
 * unlisted `_` one) when `fromClient` has no hooks but `initialize` and the
 * successor's side passes too, so an answer never overtakes what the
 * successor sent before it. The proxy's own rows (both initializes, the
 * envelope) never pass, nor does anything when the connection applies
 * options per message (`authRequired`, `extensions`, `requestTimeoutMs`) or
 * spans each message it forwards (`tracing`).
 */
import type { ConnectionOptions } from "../connection/options.ts";
import { isExtensionWire, type Row } from "../row.ts";
import { protocol } from "./generated/protocol.ts";
import type { ProxyHooks } from "./hooks.ts";
import { proxyRows } from "./rows.ts";

/** The two directions through a proxy: from its predecessor (the client's side) and from its successor (the agent's side). */
export type Direction = "fromPredecessor" | "fromSuccessor";

/** What passes through one proxy: per direction, whether anything does. Undefined from {@link passPolicy}: nothing ever does. */
export interface PassPolicy {
  readonly fromPredecessor: boolean;
  readonly fromSuccessor: boolean;
}

const hooked = (set: object | undefined, except?: string) => Object.entries(set ?? {}).some(([name, hook]) => hook !== undefined && name !== except);
const callbackWires = (rows: readonly Row<never, never>[]) => new Set(rows.filter((r) => r.callback !== undefined).map((r) => r.wire));
/** The proxy's own rows: they meet its connection always. */
const OWN: ReadonlySet<string> = new Set([proxyRows.proxyInitialize, proxyRows.initialize, proxyRows.envelope]);
/** What the predecessor may send (the agent side's rows with a handler method), and the successor (the client side's). */
const FROM_PREDECESSOR = callbackWires(protocol.rows.agent);
const FROM_SUCCESSOR = callbackWires(protocol.rows.client);

/** What passes through a proxy built from `hooks` and served with `options`; undefined when nothing ever does. */
export function passPolicy(hooks: ProxyHooks, options: Pick<ConnectionOptions, "authRequired" | "extensions" | "requestTimeoutMs" | "tracing">): PassPolicy | undefined {
  // A traced proxy is a participant: each message it forwards gets its own span and context (docs/tracing.md).
  if (options.authRequired === true || options.extensions !== undefined || options.requestTimeoutMs !== undefined || options.tracing !== undefined) return undefined;
  const fromSuccessor = !hooked(hooks.fromAgent);
  if (!fromSuccessor) return undefined;
  return { fromSuccessor, fromPredecessor: !hooked(hooks.fromClient, "initialize") };
}

/**
 * Whether a message with `method` coming `direction` passes verbatim under `policy` (once the
 * proxy's initialize answered): a table row with a handler method that is not the proxy's own, or
 * an unlisted `_` method. The cancels are not asked about: they are the relay's (`relay.ts`).
 */
export function passesVerbatim(policy: PassPolicy, direction: Direction, method: string): boolean {
  if (!policy[direction]) return false;
  const rows = direction === "fromPredecessor" ? FROM_PREDECESSOR : FROM_SUCCESSOR;
  return rows.has(method) ? !OWN.has(method) : isExtensionWire(method);
}
