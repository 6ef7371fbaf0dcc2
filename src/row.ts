/**
 * What the generated router knows about one wire method: the table row's
 * routing fields plus its validators and a typed call into the handler.
 * Rows are created once by generated code; the connection reads them.
 */
import type { Validator } from "./validation/validator.ts";
import { RpcError } from "./errors.ts";

/**
 * One generated routing row (see method-table.ts): routing fields, validators and the typed handler call.
 * @internal
 */
export interface Row<Handler = unknown, Context = unknown> {
  readonly wire: string;
  readonly kind: "request" | "notification";
  readonly layer: "app" | "protocol" | "session_control";
  /** The handler method `invoke` calls; absent for connection-routed rows and runtime-registered extensions. */
  readonly callback?: string;
  /** Path into the handling side's advertised capabilities; undefined when ungated. */
  readonly capability: readonly string[] | undefined;
  /** Needs a completed `authenticate` when the agent requires authentication. */
  readonly auth: boolean;
  /** Result answered for a cancelled call instead of `-32800`; undefined when none. */
  readonly onCancel: unknown;
  /** Before the handler runs, cancel the session named by `params.sessionId` (as `session/cancel` does). */
  readonly cancelsSession: boolean;
  /** What a successful answer changes in the connection's state (see method-table.ts). */
  readonly lifecycle: "initialize" | "authenticate" | "logout" | "opens_session" | "closes_session" | undefined;
  /**
   * Decodes the params. In one side's half of a table (see `src/protocol.ts`)
   * the rows of the other side carry {@link notDecodedHere}: that side decodes them.
   */
  readonly params: Validator;
  /** `$defs` name (or extension type name) of the params, the root for leniency. */
  readonly paramsType: string;
  /**
   * Decodes the answer to a request; undefined for a notification. In one
   * side's half of a table its own requests carry {@link notDecodedHere}: the
   * side that sent the request decodes the answer.
   */
  readonly result: Validator | undefined;
  readonly resultType: string | undefined;
  /** Calls the handler's method for this row; undefined for connection-routed rows. */
  readonly invoke: ((handler: Handler, params: unknown, ctx: Context) => unknown) | undefined;
  // The columns below are printed only for rows that set them (method-table.ts documents each).
  /** The kind the other side handles this same wire as. */
  readonly counterpart?: "request" | "notification";
  /** Path into the CALLING side's advertised capabilities; only a peer that advertised it may send this. */
  readonly callerCapability?: readonly string[];
  /** A gate per object, learnt from `session/update`s. */
  readonly objectCapability?: { readonly update: string; readonly id: string; readonly path: readonly string[] };
  /** The answer acknowledges; the turn ends with this notification (dotted paths into its params → values). */
  readonly turnEnd?: { readonly notification: string; readonly match: Readonly<Record<string, string>> };
  /** `initialize` only: the params and result fields carrying the capabilities (default `clientCapabilities` / `agentCapabilities`). */
  readonly capabilityFields?: { readonly params: string; readonly result: string };
  /** `initialize` only: may repeat until the first other request. */
  readonly repeatable?: "until_first_request";
  /** Never inside a JSON-RPC batch. */
  readonly unbatched?: boolean;
  /** The params wrap another message's `method` and `params` (`proxy/successor`). */
  readonly envelope?: boolean;
}

/**
 * True for an extension method name: `_`-prefixed, and never `__proto__`.
 * @internal
 */
export function isExtensionWire(wire: string): boolean {
  return wire.charCodeAt(0) === 95 /* _ */ && wire !== "__proto__";
}

/**
 * The validator a half of a table (`agentProtocol`, `clientProtocol`) puts
 * where the other side decodes: the params of the rows the peer handles, and
 * the result of the side's own requests. A connection of that side never
 * calls it (it decodes only the params it receives and the answers to the
 * requests it sends); anything else that does has the wrong half and gets a
 * `TypeError` rather than a verdict. One shared function, so a half names no
 * validator of the other side and a bundler drops them.
 * @internal
 */
export const notDecodedHere: Validator = () => {
  throw new TypeError("this row is decoded by the other side: use the table's whole `protocol` (or the other side's half) to decode it");
};

/**
 * Thrown by `invoke` when the handler does not implement an optional method.
 * @internal
 */
export function notImplemented(wire: string): never {
  throw RpcError.methodNotFound(wire);
}
