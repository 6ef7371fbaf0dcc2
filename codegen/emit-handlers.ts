/**
 * Emits `handlers.ts` (handler interfaces, the table's capability gates and
 * its `TableTypes` bundle) and `peers.ts` (typed peer proxies and method
 * maps): types, plus one factory per peer whose lines are one-line calls
 * into the connection's outbound side.
 */
import type { MethodRow } from "../method-table.ts";
import { lit, paramsTypeName, peerMethodName, resultTypeName } from "./names.ts";
import { SIDES, cap, contextType, handledBy, handlerType, isOptional, typeNames, type HandlingSide } from "./sides.ts";
import { DEFAULT_PRINTER, localImport, runtimeImport, type Printer } from "./symbols.ts";

/** Where `initialize` carries the capabilities: its params/result types and fields (defaults as in method-table.ts). */
function initializeShape(rows: readonly MethodRow[]): { params: string; result: string; paramsField: string; resultField: string } | undefined {
  const row = rows.find((r) => r.lifecycle === "initialize" && r.side === "agent" && r.kind === "request");
  const result = row === undefined ? undefined : resultTypeName(row);
  if (row === undefined || result === undefined) return undefined;
  return { params: paramsTypeName(row), result, paramsField: row.capabilityFields?.params ?? "clientCapabilities", resultField: row.capabilityFields?.result ?? "agentCapabilities" };
}

export function emitHandlers(rows: readonly MethodRow[], p: Printer = DEFAULT_PRINTER): string {
  const out: string[] = [p.header];
  out.push(runtimeImport(p, ["AgentConnectionOf", "ClientConnectionOf", "HandlerContext", "ProtocolTypes", "RequiredMethods"]));
  out.push(localImport(p, "peers", ["AgentMethods", "AgentNotifications", "AgentPeer", "ClientMethods", "ClientNotifications", "ClientPeer"], true));
  const init = initializeShape(rows);
  const names = typeNames(rows.filter((r) => r.callback !== undefined));
  if (names.length > 0) out.push(localImport(p, "types", names, true));
  out.push("");
  out.push("/** A value or a promise of it: handlers may answer synchronously. */");
  out.push("export type Awaitable<T> = T | Promise<T>;");
  out.push("");
  out.push(`/** The agent's capabilities, as \`initialize\` answers them${init ? ` (\`${init.resultField}\`)` : ""}. */`);
  out.push(`export type AgentCaps = ${init ? `NonNullable<${init.result}[${lit(init.resultField)}]>` : "Record<string, unknown>"};`);
  out.push(`/** The client's capabilities, as \`initialize\` offers them${init ? ` (\`${init.paramsField}\`)` : ""}. */`);
  out.push(`export type ClientCaps = ${init ? `NonNullable<${init.params}[${lit(init.paramsField)}]>` : "Record<string, unknown>"};`);
  out.push("");
  out.push("/** Context of an agent handler: its peer proxy calls the client. */");
  out.push("export type AgentContext = HandlerContext<ClientPeer, AgentCaps, ClientCaps>;");
  out.push("/** Context of a client handler: its peer proxy calls the agent. */");
  out.push("export type ClientContext = HandlerContext<AgentPeer, AgentCaps, ClientCaps>;");
  for (const side of SIDES) {
    out.push("");
    out.push(`/** Implement this to handle what the ${side === "agent" ? "client sends an agent" : "agent sends a client"}. Optional and capability-gated methods may be left out: their requests answer -32601. */`);
    out.push(`export interface ${handlerType(side)} {`);
    for (const row of handledBy(rows, side)) {
      if (row.callback === undefined) continue;
      const res = resultTypeName(row);
      const gate = row.capability ? ` Gated by \`${row.capability.join(".")}\`.` : row.optional ? ` Optional: without it ${row.kind === "request" ? "the request answers -32601" : "the notification is dropped"}.` : "";
      out.push(`  /** \`${row.wire}\` ${row.kind}.${gate} */`);
      out.push(`  ${row.callback}${isOptional(row) ? "?" : ""}(params: ${paramsTypeName(row)}, ctx: ${contextType(side)}): Awaitable<${res ?? "void"}>;`);
    }
    out.push("  /** Unregistered `_`-prefixed requests; without it they answer -32601. The wire name is passed unchanged, `_` included. */");
    out.push(`  extMethod?(method: string, params: Record<string, unknown>, ctx: ${contextType(side)}): Awaitable<object>;`);
    out.push("  /** Unregistered `_`-prefixed notifications; without it they are ignored. */");
    out.push(`  extNotification?(method: string, params: Record<string, unknown>, ctx: ${contextType(side)}): Awaitable<void>;`);
    out.push("}");
  }
  out.push(...emitGates(rows));
  out.push("");
  out.push("/** This table's types, as the runtime reads them off its `protocol` value. */");
  out.push("export interface TableTypes extends ProtocolTypes {");
  out.push("  readonly agentHandler: AgentHandler;");
  out.push("  readonly clientHandler: ClientHandler;");
  out.push("  readonly agentPeer: AgentPeer;");
  out.push("  readonly clientPeer: ClientPeer;");
  out.push("  readonly agentCapabilities: AgentCaps;");
  out.push("  readonly clientCapabilities: ClientCaps;");
  out.push("  readonly agentMethods: AgentMethods;");
  out.push("  readonly agentNotifications: AgentNotifications;");
  out.push("  readonly clientMethods: ClientMethods;");
  out.push("  readonly clientNotifications: ClientNotifications;");
  out.push("  readonly agentGates: AgentGates;");
  out.push(`  readonly agentCapabilitiesField: ${lit(init?.resultField ?? "agentCapabilities")};`);
  out.push("}");
  out.push("");
  out.push("/** An agent's connection: `client` calls the client. */");
  out.push("export type AgentConnection = AgentConnectionOf<TableTypes>;");
  out.push("/** A client's connection: `agent` calls the agent. */");
  out.push("export type ClientConnection = ClientConnectionOf<TableTypes>;");
  out.push("");
  return out.join("\n");
}

/**
 * The type-level half of "advertised ⇒ handled": per side, each gated
 * method's capability path, and the methods a capabilities type requires
 * (the runtime's `RequiredMethods`, which `defineAgent` applies).
 */
function emitGates(rows: readonly MethodRow[]): string[] {
  const out: string[] = [];
  for (const side of SIDES) {
    const S = cap(side);
    const gated = handledBy(rows, side).filter((r) => r.capability !== undefined && r.callback !== undefined);
    out.push("");
    out.push(`/** Each capability-gated ${handlerType(side)} method and the path of the ${side} capability that gates it. */`);
    out.push(`export interface ${S}Gates {`);
    for (const r of gated) out.push(`  readonly ${r.callback}: readonly [${(r.capability as readonly string[]).map(lit).join(", ")}];`);
    out.push("}");
    out.push(`/**`);
    out.push(` * The ${handlerType(side)} methods that ${side} capabilities of type \`C\` require: one per`);
    out.push(" * gated method whose capability `C` certainly advertises (a literal `true` or an");
    out.push(" * object, never possibly `false`, `null` or absent). A wide type (`boolean`, an");
    out.push(" * optional member) requires nothing: only the answer can tell.");
    out.push(" */");
    out.push(`export type Required${S}Methods<C> = RequiredMethods<${S}Gates, C>;`);
  }
  return out;
}

export function emitPeers(rows: readonly MethodRow[], p: Printer = DEFAULT_PRINTER): string {
  const out: string[] = [p.header];
  out.push(runtimeImport(p, ["RequestOptions"]));
  const app = rows.filter((r) => r.layer !== "protocol");
  out.push(localImport(p, "types", typeNames(app), true));
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
  }
  out.push("");
  return out.join("\n");
}

/**
 * The peer factories, printed into the half of the side that calls each peer
 * (`createClientPeer` in `agent.ts`), so `peers.ts` holds types only: one
 * one-line call into the connection's outbound side per method.
 */
export function emitPeerFactories(rows: readonly MethodRow[], sides: readonly HandlingSide[] = SIDES, exported = false, base?: (side: HandlingSide) => string): string[] {
  const out: string[] = [];
  const app = rows.filter((r) => r.layer !== "protocol");
  for (const side of sides) {
    const S = cap(side);
    out.push(`/**`);
    out.push(` * Builds the ${side} proxy over a connection's outbound side.`);
    if (exported) out.push(" * @internal");
    out.push(" */");
    out.push(`${exported ? "export " : ""}function create${S}Peer(caller: PeerCaller): ${S}Peer {`);
    out.push("  return {");
    if (base !== undefined) out.push(`    ...${base(side)}(caller),`);
    for (const r of app.filter((r) => r.side === side)) {
      if (r.kind === "request") out.push(`    ${peerMethodName(r)}: (params, options) => caller.request(${lit(r.wire)}, params, options) as Promise<${resultTypeName(r)}>,`);
      else out.push(`    ${peerMethodName(r)}: (params) => caller.notify(${lit(r.wire)}, params),`);
    }
    out.push("  };");
    out.push("}");
    out.push("");
  }
  return out;
}

/** The result types the factories of the peers `sides` name, for the imports of the file that prints them. */
export function peerResultTypes(rows: readonly MethodRow[], sides: readonly HandlingSide[] = SIDES): string[] {
  return [...new Set(rows.filter((r) => r.layer !== "protocol" && r.kind === "request" && sides.includes(r.side as HandlingSide)).map((r) => resultTypeName(r) as string))].sort();
}
