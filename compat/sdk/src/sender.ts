/** The sender a compatibility context calls the core through, and the SDK's request options in the core's terms. */
import type { RequestOptions } from "acp-router";
import type { SendRequestOptions, JsonRpcId } from "./wire-types.ts";

/** Sends requests and notifications for any wire. */
export interface Sender {
  request(wire: string, params: unknown, options?: RequestOptions): Promise<unknown>;
  notify(wire: string, params: unknown): Promise<void>;
}

/** The SDK's request options in the core's terms. */
export function requestOptions(options: SendRequestOptions | undefined): RequestOptions | undefined {
  if (options === undefined) return undefined;
  const out: { signal?: AbortSignal; stopWaitingOnCancel?: boolean } = {};
  if (options.cancellationSignal !== undefined) out.signal = options.cancellationSignal;
  if (options.stopWaitingOnCancel !== undefined) out.stopWaitingOnCancel = options.stopWaitingOnCancel;
  return out;
}
