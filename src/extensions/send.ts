/**
 * Sending runtime-defined extensions: `conn.request(ext, params)` and
 * `conn.notify(ext, params)`. The outbound capability gate and result
 * validation of table rows, applied with the definition's own validators;
 * the message itself goes through the connection's one outbound path.
 */
import { gate as theGate } from "../connection/gate.ts";
import type { ConnectionCore } from "../connection/core.ts";
import { RpcError } from "../errors.ts";
import type { RequestOptions } from "../peer-caller.ts";
import type { ExtensionNotification, ExtensionRequest } from "./define.ts";
import { afterCheck, runCheck } from "./validate.ts";

/**
 * Sends an extension request and settles with its result as the result
 * validator produced it. Rejects without sending when the peer did not
 * advertise the extension's capability (`-32601`, as for table rows), and
 * with `-32603` "Invalid result …" (`data.errors` per location) when the
 * answer fails validation.
 */
export function requestExtension<P>(core: ConnectionCore<P>, ext: ExtensionRequest<unknown, unknown>, params: unknown, options: RequestOptions | undefined): Promise<unknown> {
  if (ext.kind !== "request") return Promise.reject(new TypeError(`"${ext.wire}" is an extension notification: send it with notify`));
  const refused = gate(core, ext);
  if (refused) return Promise.reject(refused);
  return core.outbound.request(ext.wire, params, options).then((result) =>
    afterCheck(runCheck(ext.result, result), (checked) => {
      if (checked.ok) return checked.value;
      core.report("invalid_result", `invalid result for "${ext.wire}"`, { errors: checked.errors });
      throw RpcError.invalidResult(ext.wire, core.peerSide, checked.errors);
    }),
  );
}

/** Sends an extension notification; rejects without sending when the peer did not advertise its capability. */
export function notifyExtension<P>(core: ConnectionCore<P>, ext: ExtensionNotification<unknown>, params: unknown): Promise<void> {
  if (ext.kind !== "notification") return Promise.reject(new TypeError(`"${ext.wire}" is an extension request: send it with request`));
  const refused = gate(core, ext);
  return refused ? Promise.reject(refused) : core.outbound.notify(ext.wire, params);
}

/** The one gate, outbound to the peer: the error to reject with, or undefined to send. */
function gate<P>(core: ConnectionCore<P>, ext: { readonly wire: string; readonly capability: readonly string[] | undefined }): RpcError | undefined {
  const refusal = theGate(core.protocol, core.state, ext, core.peerSide);
  return refusal === undefined ? undefined : RpcError.methodNotFound(ext.wire, `${refusal.message}; not sent`);
}
