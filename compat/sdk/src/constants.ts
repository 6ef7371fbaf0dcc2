/**
 * The SDK's flat method maps (`AGENT_METHODS.session_prompt` is
 * `"session/prompt"`) and `PROTOCOL_VERSION`, read off a table's rows, so a
 * table that gains a row gains its constant.
 */
import type { Protocol } from "acp-router/runtime";

/** `"session/set_mode"` → `"session_set_mode"`: the SDK's key for a wire name. */
export type KeyOf<W extends string> = W extends `${infer Head}/${infer Tail}` ? `${Head}_${KeyOf<Tail>}` : W;

/** A flat map from each wire's key to the wire. */
export type FlatMethods<Wires extends string> = { readonly [W in Wires as KeyOf<W>]: W };

/** The wires one side handles (minus `$/` protocol rows), keyed the SDK's way. */
export function flatMethods<Wires extends string>(protocol: Protocol, side: "agent" | "client"): FlatMethods<Wires> {
  const out: Record<string, string> = {};
  for (const row of protocol.rows[side]) if (!row.wire.startsWith("$/")) out[row.wire.replaceAll("/", "_")] = row.wire;
  return out as FlatMethods<Wires>;
}

/** The `$/` rows (`cancel_request`), keyed without their prefix. */
export function protocolMethods(protocol: Protocol): { readonly cancel_request: "$/cancel_request" } {
  const out: Record<string, string> = {};
  for (const row of protocol.rows.agent) if (row.wire.startsWith("$/")) out[row.wire.slice(2).replaceAll("/", "_")] = row.wire;
  return out as { readonly cancel_request: "$/cancel_request" };
}
