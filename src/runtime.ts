/**
 * The runtime entry for generated code (`acp-router/runtime`).
 *
 * Files written by `acp-router codegen` import everything they need from this
 * one module — never library files by path — so a user's generated router
 * compiles with plain `tsc` and shares the single copy of the library that
 * `acp-router` itself loads (an `RpcError` thrown by a handler keeps its
 * code). It is plumbing for generated code, not an API to call by hand: its
 * exports may change between minor versions together with the generator.
 *
 * @module
 */
export { openConnection, type Connection } from "./connection/connect.ts";
export type { ConnectionOptions } from "./connection/options.ts";
export type { Transport } from "./transport/transport.ts";
export type { HandlerContext } from "./context.ts";
export type { PeerCaller, RequestOptions } from "./peer-caller.ts";
export { check, type Leniency } from "./validation/check.ts";
export { isExtensionWire, notImplemented, type Row, type Router } from "./row.ts";
export type { Decoded } from "./decode.ts";
export type { LeniencyGraph } from "./validation/leniency.ts";
export type { Validator } from "./validation/validator.ts";
export { ucs2length } from "./validation/runtime.ts";
