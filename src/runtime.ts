/**
 * The runtime entry for generated code (`acp-router/runtime`).
 *
 * Files written by `acp-router codegen` import everything they need from this
 * one module — never library files by path — so a user's generated router
 * compiles with plain `tsc` and shares the single copy of the library that
 * `acp-router` itself loads (an `RpcError` thrown by a handler keeps its
 * code). It exports exactly the symbols the generator's list names
 * (`codegen/symbols.ts`, checked by a test), plus the generic entry points
 * over a protocol value (`createAgentConnection`, `decode`, `dispatch`, …)
 * for code that works with any table. Plumbing, not an API to call by hand:
 * its exports may change between minor versions together with the generator.
 *
 * @module
 */
export { bindAgent, bindClient, bindProtocol, createAgentConnection, createClientConnection, type AgentConnection as AgentConnectionOf, type BoundProtocol, type ClientConnection as ClientConnectionOf, type RequiredMethods } from "./bind.ts";
export { defineProtocol, extendProtocol, type Protocol, type ProtocolSpec, type ProtocolTypes, type RowLookups, type TypesOf, type WithContext } from "./protocol.ts";
export { openConnection, type Connection } from "./connection/connect.ts";
export type { ConnectionOptions } from "./connection/options.ts";
export type { Transport } from "./transport/transport.ts";
export type { HandlerContext } from "./context.ts";
export type { PeerCaller, RequestOptions } from "./peer-caller.ts";
export { check, type Leniency } from "./validation/check.ts";
export { isExtensionWire, notDecodedHere, notImplemented, type Row } from "./row.ts";
export { decode, decodeParams, dispatch, dispatchDecoded, type Decoded } from "./decode.ts";
export type { LeniencyGraph } from "./validation/leniency.ts";
export type { Validator } from "./validation/validator.ts";
export { addError, addErrors, addPlaceholder, errorKinds, isObject, ucs2length, type ErrorEntry, type ErrorKind } from "./validation/runtime.ts";
