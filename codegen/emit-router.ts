/**
 * Emits `router.ts`, `handlers.ts`, `peers.ts` and `index.ts`: small line
 * printers whose output reads like the table.
 */
import type { MethodRow } from "../method-table.ts";
import { HEADER, RUNTIME, lit, paramsTypeName, peerMethodName, resultTypeName } from "./names.ts";
import { validatorName } from "./emit-validators.ts";
import { rowColumns } from "./emit-columns.ts";

type HandlingSide = "agent" | "client";
const SIDES: readonly HandlingSide[] = ["agent", "client"];

function handledBy(rows: readonly MethodRow[], side: HandlingSide): MethodRow[] {
  return rows.filter((r) => r.side === side || r.side === "both");
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const rowConst = (side: HandlingSide, row: MethodRow) => `${side === "agent" ? "A" : "C"}_${row.wire.replace(/[^A-Za-z0-9]/g, "_")}`;
const contextType = (side: HandlingSide) => `${cap(side)}Context`;
const handlerType = (side: HandlingSide) => `${cap(side)}Handler`;

function typeNames(rows: readonly MethodRow[]): string[] {
  const names = new Set<string>();
  for (const r of rows) {
    names.add(paramsTypeName(r));
    const res = resultTypeName(r);
    if (res) names.add(res);
  }
  return [...names].sort();
}

export function emitRouter(rows: readonly MethodRow[]): string {
  const out: string[] = [HEADER];
  out.push(`import { check, isExtensionWire, notImplemented, type Decoded, type Leniency, type Row, type Router } from "${RUNTIME}";`);
  out.push('import { leniency } from "./leniency.ts";');
  out.push('import * as V from "./validators.ts";');
  out.push(`import type { AgentContext, AgentHandler, ClientContext, ClientHandler } from "./handlers.ts";`);
  const used = [...new Set(rows.filter((r) => r.callback !== undefined).map(paramsTypeName))].sort();
  out.push(`import type { ${used.join(", ")} } from "./types.ts";`);
  out.push("");
  for (const side of SIDES) {
    out.push(`// ── rows handled by the ${side} ──`);
    for (const row of handledBy(rows, side)) {
      const res = resultTypeName(row);
      const invoke = row.callback === undefined ? "undefined" : invokeText(side, row);
      out.push(`const ${rowConst(side, row)}: Row<${handlerType(side)}, ${contextType(side)}> = {`);
      out.push(`  wire: ${lit(row.wire)}, kind: ${lit(row.kind)}, layer: ${lit(row.layer)},${row.callback === undefined ? "" : ` callback: ${lit(row.callback)},`}`);
      out.push(`  capability: ${row.capability ? lit(row.capability) : "undefined"}, auth: ${row.auth === true}, onCancel: ${row.onCancel === undefined ? "undefined" : lit(row.onCancel)}, cancelsSession: ${row.cancelsSession === true}, lifecycle: ${row.lifecycle === undefined ? "undefined" : lit(row.lifecycle)},`);
      const columns = rowColumns(row);
      if (columns !== "") out.push(`  ${columns},`);
      out.push(`  params: V.${validatorName(paramsTypeName(row))}, paramsType: ${lit(paramsTypeName(row))},`);
      out.push(`  result: ${res ? `V.${validatorName(res)}` : "undefined"}, resultType: ${res ? lit(res) : "undefined"},`);
      out.push(`  invoke: ${invoke},`);
      out.push("};");
    }
    out.push("");
  }
  for (const side of SIDES) {
    for (const kind of ["request", "notification"] as const) {
      const fn = `${side}${cap(kind)}Row`;
      out.push(`/**`);
      out.push(` * The ${kind} row the ${side} handles for \`wire\`, or undefined. A switch: "__proto__" is just unknown.`);
      out.push(" * @internal");
      out.push(" */");
      out.push(`export function ${fn}(wire: string): Row<${handlerType(side)}, ${contextType(side)}> | undefined {`);
      out.push("  switch (wire) {");
      for (const row of handledBy(rows, side).filter((r) => r.kind === kind)) out.push(`    case ${lit(row.wire)}: return ${rowConst(side, row)};`);
      out.push("    default: return undefined;");
      out.push("  }");
      out.push("}");
      out.push("");
    }
  }
  out.push("/** Every row each side handles, in table order. */");
  out.push("const rows: Router[\"rows\"] = {");
  for (const side of SIDES) out.push(`  ${side}: [${handledBy(rows, side).map((r) => rowConst(side, r)).join(", ")}],`);
  out.push("};");
  out.push("");
  out.push(ROUTER_TAIL);
  return out.join("\n");
}

function invokeText(side: HandlingSide, row: MethodRow): string {
  const p = paramsTypeName(row);
  const call = `h.${row.callback}(p as ${p}, c)`;
  return isOptional(row) ? `(h, p, c) => (h.${row.callback} ? ${call} : notImplemented(${lit(row.wire)}))` : `(h, p, c) => ${call}`;
}

/** The handler may leave the row's method out: the table says so, or a capability gates it. */
function isOptional(row: MethodRow): boolean {
  return row.optional === true || row.capability !== undefined || row.callerCapability !== undefined;
}

const ROUTER_TAIL = `/**
 * The row \`side\` handles for an inbound message, or undefined for an unknown method.
 * @internal
 */
export function inboundRow(side: "agent" | "client", kind: "request" | "notification", wire: string): Row<never, never> | undefined {
  if (side === "agent") return (kind === "request" ? agentRequestRow(wire) : agentNotificationRow(wire)) as Row<never, never> | undefined;
  return (kind === "request" ? clientRequestRow(wire) : clientNotificationRow(wire)) as Row<never, never> | undefined;
}

/**
 * How the sender decodes the answer to \`wire\` sent to a peer that handles
 * it on \`peerSide\`: the row whose result validator applies. Computed once
 * when the request is sent.
 * @internal
 */
export function resultMarker(peerSide: "agent" | "client", wire: string): Row<never, never> | undefined {
  return inboundRow(peerSide, "request", wire);
}

/**
 * Decodes inbound params for \`wire\`: the row and (possibly repaired) params,
 * \`ext\` for an unregistered \`_\` method, \`method_not_found\`, or
 * \`invalid_params\` with one error per location.
 * @internal
 */
export function decode(side: "agent" | "client", kind: "request" | "notification", wire: string, params: unknown, mode: Leniency = "repair"): Decoded<never, never> {
  const row = inboundRow(side, kind, wire);
  if (row === undefined || row.invoke === undefined) {
    if (row === undefined && isExtensionWire(wire)) return { tag: "ext", wire, params };
    return { tag: "method_not_found", wire };
  }
  const value = params === undefined ? {} : params;
  const outcome = check(row.params, value, row.paramsType, leniency, mode);
  if (outcome === undefined) return { tag: "ok", row, params: value, repairs: undefined };
  if (outcome.ok) return { tag: "ok", row, params: value, repairs: outcome.repairs };
  return { tag: "invalid_params", row, errors: outcome.errors };
}

export { isExtensionWire };

/**
 * This table's router, as connections take it.
 * @internal
 */
export const router: Router = { inboundRow, resultMarker, leniency, rows };

/**
 * Calls the handler for a decoded message; unregistered extension methods go to \`extMethod\`/\`extNotification\`.
 * @internal
 */
export function dispatch(side: "agent", handler: AgentHandler, decoded: Decoded<never, never>, ctx: AgentContext): unknown;
export function dispatch(side: "client", handler: ClientHandler, decoded: Decoded<never, never>, ctx: ClientContext): unknown;
export function dispatch(_side: "agent" | "client", handler: AgentHandler | ClientHandler, decoded: Decoded<never, never>, ctx: AgentContext | ClientContext): unknown {
  switch (decoded.tag) {
    case "ok":
      return (decoded.row.invoke as (h: unknown, p: unknown, c: unknown) => unknown)(handler, decoded.params, ctx);
    case "ext": {
      const params = decoded.params as Record<string, unknown>;
      if (ctx.requestId === undefined) return handler.extNotification?.(decoded.wire, params, ctx as never);
      return handler.extMethod ? handler.extMethod(decoded.wire, params, ctx as never) : notImplemented(decoded.wire);
    }
    default:
      return notImplemented(decoded.tag === "method_not_found" ? decoded.wire : decoded.row.wire);
  }
}
`;

export function emitHandlers(rows: readonly MethodRow[]): string {
  const out: string[] = [HEADER];
  out.push(`import type { HandlerContext } from "${RUNTIME}";`);
  out.push('import type { AgentPeer, ClientPeer } from "./peers.ts";');
  out.push(`import type { ${typeNames(rows.filter((r) => r.callback !== undefined)).join(", ")} } from "./types.ts";`);
  out.push("");
  out.push("/** A value or a promise of it: handlers may answer synchronously. */");
  out.push("export type Awaitable<T> = T | Promise<T>;");
  out.push("");
  out.push("/** Context of an agent handler: its peer proxy calls the client. */");
  out.push("export type AgentContext = HandlerContext<ClientPeer>;");
  out.push("/** Context of a client handler: its peer proxy calls the agent. */");
  out.push("export type ClientContext = HandlerContext<AgentPeer>;");
  for (const side of SIDES) {
    out.push("");
    out.push(`/** Implement this to handle what the ${side === "agent" ? "client sends an agent" : "agent sends a client"}. Optional and capability-gated methods may be left out: their requests answer -32601. */`);
    out.push(`export interface ${handlerType(side)} {`);
    for (const row of handledBy(rows, side)) {
      if (row.callback === undefined) continue;
      const res = resultTypeName(row);
      const gate = row.capability ? ` Gated by \`${row.capability.join(".")}\`.` : row.optional ? " Optional: without it the request answers -32601." : "";
      out.push(`  /** \`${row.wire}\` ${row.kind}.${gate} */`);
      out.push(`  ${row.callback}${isOptional(row) ? "?" : ""}(params: ${paramsTypeName(row)}, ctx: ${contextType(side)}): Awaitable<${res ?? "void"}>;`);
    }
    out.push("  /** Unregistered `_`-prefixed requests; without it they answer -32601. The wire name is passed unchanged, `_` included. */");
    out.push(`  extMethod?(method: string, params: Record<string, unknown>, ctx: ${contextType(side)}): Awaitable<object>;`);
    out.push("  /** Unregistered `_`-prefixed notifications; without it they are ignored. */");
    out.push(`  extNotification?(method: string, params: Record<string, unknown>, ctx: ${contextType(side)}): Awaitable<void>;`);
    out.push("}");
  }
  out.push(...emitRequiredMethods(rows));
  out.push("");
  return out.join("\n");
}

/**
 * The type-level half of "advertised ⇒ handled": per side, the handler
 * methods a capabilities type requires, and `defineAgent`, which checks the
 * capabilities an agent's `initialize` returns against its methods.
 */
function emitRequiredMethods(rows: readonly MethodRow[]): string[] {
  const out: string[] = [""];
  for (const side of SIDES) {
    const S = cap(side);
    const gated = handledBy(rows, side).filter((r) => r.capability !== undefined && r.callback !== undefined);
    out.push("");
    out.push(`/**`);
    out.push(` * The ${handlerType(side)} methods that ${side} capabilities of type \`C\` require: one per`);
    out.push(` * capability-gated row whose capability \`C\` certainly advertises (a literal`);
    out.push(" * `true` or an object, never possibly `false`, `null` or absent). A wide type");
    out.push(" * (`boolean`, an optional member) requires nothing: only the answer can tell.");
    out.push(" * (`[Extract<V, false | null | undefined>] extends [never]` reads: V admits none of them.)");
    out.push(" */");
    out.push(`export type Required${S}Methods<C> =`);
    if (gated.length === 0) out.push("  never;");
    gated.forEach((r, i) => {
      const path = (r.capability as readonly string[]).reduceRight((inner, key) => `{ readonly ${key}: ${inner} }`, "infer V");
      out.push(`  | (C extends ${path} ? ([Extract<V, false | null | undefined>] extends [never] ? ${lit(r.callback)} : never) : never)${i === gated.length - 1 ? ";" : ""}`);
    });
  }
  out.push("");
  out.push("/** The agent capabilities an agent handler's `initialize` answers with, as precisely as its return type states them. */");
  out.push("export type AgentCapabilitiesOf<H extends Pick<AgentHandler, \"initialize\">> = Awaited<ReturnType<H[\"initialize\"]>> extends { readonly agentCapabilities?: infer C } ? C : never;");
  out.push("");
  out.push("/**");
  out.push(" * Returns `handler` unchanged, and fails to compile when its `initialize`");
  out.push(" * advertises a capability whose method the handler lacks (`loadSession: true`");
  out.push(" * without `loadSession`): the error names the missing method. Only what the");
  out.push(" * return type states is checked — write the capabilities as literals in");
  out.push(" * `initialize`; a value typed `boolean` is checked at run time instead (the");
  out.push(" * connection reports a `missing_handler` diagnostic at `initialize`).");
  out.push(" */");
  out.push("export function defineAgent<const H extends AgentHandler>(handler: H & { [K in RequiredAgentMethods<AgentCapabilitiesOf<H>>]-?: NonNullable<AgentHandler[K]> }): H {");
  out.push("  return handler;");
  out.push("}");
  return out;
}

export function emitPeers(rows: readonly MethodRow[]): string {
  const out: string[] = [HEADER];
  out.push(`import type { PeerCaller, RequestOptions } from "${RUNTIME}";`);
  const app = rows.filter((r) => r.layer !== "protocol");
  out.push(`import type { ${typeNames(app).join(", ")} } from "./types.ts";`);
  for (const side of SIDES) {
    const mine = app.filter((r) => r.side === side);
    const S = cap(side);
    out.push("");
    out.push(`/** Every request the ${side} handles: wire → params and result types. */`);
    out.push(`export interface ${S}Methods {`);
    for (const r of mine.filter((r) => r.kind === "request")) out.push(`  ${lit(r.wire)}: { params: ${paramsTypeName(r)}; result: ${resultTypeName(r)} };`);
    out.push("}");
    out.push(`/** Every notification the ${side} handles: wire → params type. */`);
    out.push(`export interface ${S}Notifications {`);
    for (const r of mine.filter((r) => r.kind === "notification")) out.push(`  ${lit(r.wire)}: ${paramsTypeName(r)};`);
    out.push("}");
    out.push("");
    out.push(`/** Typed proxy for calling the ${side}. */`);
    out.push(`export interface ${S}Peer {`);
    for (const r of mine) {
      out.push(`  /** Sends \`${r.wire}\`.${r.capability ? ` Rejects locally, without sending, unless the ${side} advertised \`${r.capability.join(".")}\`.` : ""} */`);
      if (r.kind === "request") out.push(`  ${peerMethodName(r)}(params: ${paramsTypeName(r)}, options?: RequestOptions): Promise<${resultTypeName(r)}>;`);
      else out.push(`  ${peerMethodName(r)}(params: ${paramsTypeName(r)}): Promise<void>;`);
    }
    out.push("}");
    out.push("");
    out.push(`/**`);
    out.push(` * Builds the ${side} proxy over a connection's outbound side.`);
    out.push(" * @internal");
    out.push(" */");
    out.push(`export function create${S}Peer(caller: PeerCaller): ${S}Peer {`);
    out.push("  return {");
    for (const r of mine) {
      if (r.kind === "request") out.push(`    ${peerMethodName(r)}: (params, options) => caller.request(${lit(r.wire)}, params, options) as Promise<${resultTypeName(r)}>,`);
      else out.push(`    ${peerMethodName(r)}: (params) => caller.notify(${lit(r.wire)}, params),`);
    }
    out.push("  };");
    out.push("}");
  }
  out.push("");
  return out.join("\n");
}

export function emitConnect(): string {
  return [
    HEADER,
    `import { openConnection, type Connection, type ConnectionOptions, type Transport } from "${RUNTIME}";`,
    'import type { AgentHandler, ClientHandler } from "./handlers.ts";',
    'import { createAgentPeer, createClientPeer, type AgentMethods, type AgentNotifications, type AgentPeer, type ClientMethods, type ClientNotifications, type ClientPeer } from "./peers.ts";',
    'import { router } from "./router.ts";',
    "",
    "/** An agent's connection: `client` calls the client. */",
    "export interface AgentConnection extends Connection<ClientMethods, ClientNotifications> {",
    "  readonly client: ClientPeer;",
    "}",
    "",
    "/** A client's connection: `agent` calls the agent. */",
    "export interface ClientConnection extends Connection<AgentMethods, AgentNotifications> {",
    "  readonly agent: AgentPeer;",
    "}",
    "",
    "/** Serves `handler` as an ACP agent over `transport`, routed by this table. */",
    "export function connectAgent(handler: AgentHandler, transport: Transport, options: ConnectionOptions = {}): AgentConnection {",
    '  const { connection, peer } = openConnection<ClientPeer, ClientMethods, ClientNotifications>(router, "agent", handler, transport, createClientPeer, options);',
    "  return Object.assign(connection, { client: peer });",
    "}",
    "",
    "/** Serves `handler` as an ACP client over `transport`, routed by this table; call the agent through `.agent`. */",
    "export function connectClient(handler: ClientHandler, transport: Transport, options: ConnectionOptions = {}): ClientConnection {",
    '  const { connection, peer } = openConnection<AgentPeer, AgentMethods, AgentNotifications>(router, "client", handler, transport, createAgentPeer, options);',
    "  return Object.assign(connection, { agent: peer });",
    "}",
    "",
  ].join("\n");
}

export function emitIndex(): string {
  return [
    HEADER,
    'export type * from "./types.ts";',
    'export * from "./handlers.ts";',
    'export * from "./peers.ts";',
    'export * from "./router.ts";',
    'export * from "./connect.ts";',
    'export { leniency } from "./leniency.ts";',
    "",
  ].join("\n");
}
