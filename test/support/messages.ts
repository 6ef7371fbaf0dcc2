/** JSON-RPC bodies for raw-line tests, and the RpcError a call rejected with. */
import { expect } from "vitest";
import { RpcError } from "../../src/index.ts";

/** A JSON-RPC request body (params left out when undefined). */
export function request(id: unknown, method: string, params?: unknown): Record<string, unknown> {
  return params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
}

/** A JSON-RPC notification body. */
export function notification(method: string, params?: unknown): Record<string, unknown> {
  return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
}

/** The RpcError a promise rejected with; fails the test if it resolved or rejected with something else. */
export async function rpcError(promise: Promise<unknown>): Promise<RpcError> {
  const error = await promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RpcError);
  return error as RpcError;
}
