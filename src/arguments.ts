/**
 * Argument checks of the public entry points (DESIGN §11): every function
 * that takes a protocol, a handler, a transport or options checks them at
 * the call and throws a `TypeError` in one format —
 *
 *   `<signature>: <parameter> must be <what>; got <what it got>. <what to pass>`
 *
 * so a wrong argument fails where it was passed, never deep inside the
 * connection or later as an unhandled rejection. Imports no table.
 */
import type { Protocol } from "./protocol.ts";
import type { Transport } from "./transport/transport.ts";

/** A short description of `value` for an error message: `undefined`, `a string "x"`, `an object with keys a, b`, `the v2 protocol`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (isProtocol(value)) return value.side === undefined ? `the ${value.name} protocol (version ${value.version})` : `the ${value.name} table's ${value.side}Protocol (its ${value.side} half)`;
  switch (typeof value) {
    case "string":
      return `a string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case "number":
    case "bigint":
    case "boolean":
      return `${typeof value} ${String(value)}`;
    case "function":
      return `a function${value.name ? ` (${value.name})` : ""}`;
    case "symbol":
      return "a symbol";
    default:
      break;
  }
  if (Array.isArray(value)) return `an array of ${value.length}`;
  const keys = Object.keys(value as object);
  if (keys.length === 0) return "an object with no keys";
  return `an object with keys ${keys.slice(0, 6).join(", ")}${keys.length > 6 ? ", …" : ""}`;
}

/** The `TypeError` every check throws, in the one format. */
export function argumentError(signature: string, parameter: string, expected: string, got: unknown, hint = ""): TypeError {
  return new TypeError(`${signature}: ${parameter} must be ${expected}; got ${describeValue(got)}.${hint === "" ? "" : ` ${hint}`}`);
}

/** Whether `value` is a table's `protocol` value (what a generated folder exports). */
export function isProtocol(value: unknown): value is Protocol {
  if (typeof value !== "object" || value === null) return false;
  const p = value as Partial<Protocol>;
  return typeof p.version === "number" && typeof p.name === "string" && typeof p.inboundRow === "function" && typeof p.peers === "object" && p.peers !== null && typeof p.rows === "object";
}

/** Whether `value` is a `Transport` (`start` and `write`). */
export function isTransport(value: unknown): value is Transport {
  if (typeof value !== "object" || value === null) return false;
  const t = value as Partial<Transport>;
  return typeof t.start === "function" && typeof t.write === "function";
}

const PASS_PROTOCOL = 'Pass a table\'s `protocol` value: `import { protocol } from "acp-router"` (v1), "acp-router/v2" or "acp-router/unstable".';

/** Throws unless `value` is a protocol value. */
export function checkProtocol(signature: string, parameter: string, value: unknown, hint = PASS_PROTOCOL): asserts value is Protocol {
  if (!isProtocol(value)) throw argumentError(signature, parameter, "a protocol", value, hint);
}

/** Throws unless `value` is a handler object (a protocol or a transport is not one). */
export function checkHandler(signature: string, parameter: string, side: "agent" | "client", value: unknown, hint?: string): void {
  const kind = side === "agent" ? "AgentHandler" : "ClientHandler";
  const expected = `an object implementing the ${side}'s methods (${kind})`;
  const pass = hint ?? `Pass your ${kind}, e.g. { initialize, ${side === "agent" ? "newSession, prompt" : "requestPermission, sessionUpdate"} }.`;
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw argumentError(signature, parameter, expected, value, pass);
  if (isProtocol(value)) throw argumentError(signature, parameter, expected, value, `A protocol goes in the protocol parameter. ${pass}`);
  if (isTransport(value)) throw argumentError(signature, parameter, expected, value, `This looks like a transport, which goes after the handler. ${pass}`);
}

/** Throws unless `value` is a transport. */
export function checkTransport(signature: string, parameter: string, value: unknown): asserts value is Transport {
  if (!isTransport(value)) throw argumentError(signature, parameter, "a Transport (an object with start and write)", value, "Pass one from memoryPair(), webStreamTransport(), nodeStreamTransport() or spawnAgent().transport.");
}

/** Throws unless `value` is undefined or an options object. */
export function checkOptions(signature: string, parameter: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== "object" || value === null || Array.isArray(value) || isProtocol(value) || isTransport(value)) throw argumentError(signature, parameter, "an options object or undefined", value);
}

/** Throws unless `value` is what `createRemoteServer` returns (the Node adapters take it, not its options). */
export function checkRemoteServer(signature: string, parameter: string, value: unknown): void {
  if (typeof value !== "object" || value === null || typeof (value as { handle?: unknown }).handle !== "function") {
    throw argumentError(signature, parameter, "a RemoteServer", value, "Pass what createRemoteServer({ protocol, agent }) returns.");
  }
}
