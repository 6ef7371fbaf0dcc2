/**
 * The interfaces of an extension's generated folder: `handlers.ts` (the base
 * handler interfaces extended by the delta rows' methods, the base methods'
 * context retyped with `WithContext`) and `peers.ts` (the base peers and
 * method maps extended by the rows the extension adds or retypes). Part of
 * `emit-extension.ts`'s folder.
 */
import type { MethodRow } from "../method-table.ts";
import { lit, paramsTypeName, peerMethodName, resultTypeName } from "./names.ts";
import { capabilityFields } from "./protocol-info.ts";
import { SIDES, cap, contextType, handledBy, handlerType, isOptional, typeNames } from "./sides.ts";
import { localImport, runtimeImport, type Printer } from "./symbols.ts";
import { baseImport, type ExtensionBase } from "./extension-delta.ts";

export function extensionHandlers(rows: readonly MethodRow[], delta: readonly MethodRow[], changed: readonly MethodRow[], base: ExtensionBase, p: Printer): string {
  const init = rows.find((r) => r.lifecycle === "initialize" && r.side === "agent" && r.kind === "request");
  const initResult = init === undefined ? undefined : resultTypeName(init);
  const paramsField = init?.capabilityFields?.params ?? "clientCapabilities";
  const resultField = init?.capabilityFields?.result ?? "agentCapabilities";
  const names = typeNames([...delta.filter((r) => r.callback !== undefined), ...(init === undefined ? [] : [init])]);
  const out: string[] = [p.header];
  out.push(runtimeImport(p, ["AgentConnectionOf", "ClientConnectionOf", "HandlerContext", "ProtocolTypes", "RequiredMethods", "WithContext"]));
  out.push(baseImport(p, base, "handlers", "* as B", true));
  out.push(localImport(p, "peers", ["AgentMethods", "AgentNotifications", "AgentPeer", "ClientMethods", "ClientNotifications", "ClientPeer"], true));
  if (names.length > 0) out.push(localImport(p, "types", names, true));
  out.push("");
  out.push("/** A value or a promise of it: handlers may answer synchronously (the base table's). */");
  out.push("export type Awaitable<T> = B.Awaitable<T>;");
  out.push("");
  out.push(`/** The agent's capabilities, as \`${init?.wire ?? "initialize"}\` answers them. */`);
  out.push(`export type AgentCaps = ${init && initResult ? `NonNullable<${initResult}[${lit(resultField)}]>` : "Record<string, unknown>"};`);
  out.push(`/** The client's capabilities, as \`${init?.wire ?? "initialize"}\` offers them. */`);
  out.push(`export type ClientCaps = ${init ? `NonNullable<${paramsTypeName(init)}[${lit(paramsField)}]>` : "Record<string, unknown>"};`);
  out.push("");
  out.push("/** Context of an agent handler: its peer proxy calls the client (this table's methods included). */");
  out.push("export type AgentContext = HandlerContext<ClientPeer, AgentCaps, ClientCaps>;");
  out.push("/** Context of a client handler: its peer proxy calls the agent (this table's methods included). */");
  out.push("export type ClientContext = HandlerContext<AgentPeer, AgentCaps, ClientCaps>;");
  for (const side of SIDES) {
    const own = handledBy(delta, side).filter((r) => r.callback !== undefined);
    const redefined = [...own.filter((r) => changed.includes(r)).map((r) => lit(r.callback)), '"extMethod"', '"extNotification"'];
    out.push("");
    out.push(`/** The base table's ${handlerType(side)} with this table's context, and the methods this table adds or redefines. */`);
    out.push(`export interface ${handlerType(side)} extends WithContext<Omit<B.${handlerType(side)}, ${redefined.join(" | ")}>, ${contextType(side)}> {`);
    for (const row of own) {
      const res = resultTypeName(row);
      const gate = row.capability ? ` Gated by \`${row.capability.join(".")}\`.` : row.optional ? ` Optional: without it ${row.kind === "request" ? "the request answers -32601" : "the notification is dropped"}.` : "";
      out.push(`  /** \`${row.wire}\` ${row.kind}.${gate} */`);
      out.push(`  ${row.callback}${isOptional(row) ? "?" : ""}(params: ${paramsTypeName(row)}, ctx: ${contextType(side)}): Awaitable<${res ?? "void"}>;`);
    }
    out.push("  /** Unregistered `_`-prefixed requests; without it they answer -32601. */");
    out.push(`  extMethod?(method: string, params: Record<string, unknown>, ctx: ${contextType(side)}): Awaitable<object>;`);
    out.push("  /** Unregistered `_`-prefixed notifications; without it they are ignored. */");
    out.push(`  extNotification?(method: string, params: Record<string, unknown>, ctx: ${contextType(side)}): Awaitable<void>;`);
    out.push("}");
  }
  for (const side of SIDES) {
    const S = cap(side);
    const own = handledBy(delta, side).filter((r) => r.callback !== undefined);
    const gated = own.filter((r) => r.capability !== undefined);
    const dropped = own.filter((r) => changed.includes(r)).map((r) => lit(r.callback));
    out.push("");
    out.push(`/** The base table's gated ${handlerType(side)} methods, and this table's. */`);
    out.push(`export interface ${S}Gates extends ${dropped.length > 0 ? `Omit<B.${S}Gates, ${dropped.join(" | ")}>` : `B.${S}Gates`} {`);
    for (const r of gated) out.push(`  readonly ${r.callback}: readonly [${(r.capability as readonly string[]).map(lit).join(", ")}];`);
    out.push("}");
    out.push(`/** The ${handlerType(side)} methods ${side} capabilities of type \`C\` require (as the base table's \`Required${S}Methods\`). */`);
    out.push(`export type Required${S}Methods<C> = RequiredMethods<${S}Gates, C>;`);
  }
  out.push("");
  out.push("/** This table's types, as the runtime reads them off its `protocol` value: the base table's, with this table's rows. */");
  out.push("export interface TableTypes extends ProtocolTypes {");
  for (const side of SIDES) out.push(`  readonly ${side}Handler: ${handlerType(side)};`);
  for (const side of SIDES) out.push(`  readonly ${side}Peer: ${cap(side)}Peer;`);
  out.push("  readonly agentCapabilities: AgentCaps;", "  readonly clientCapabilities: ClientCaps;");
  for (const side of SIDES) out.push(`  readonly ${side}Methods: ${cap(side)}Methods;`, `  readonly ${side}Notifications: ${cap(side)}Notifications;`);
  out.push("  readonly agentGates: AgentGates;");
  out.push(`  readonly agentCapabilitiesField: ${lit(resultField)};`);
  out.push("}");
  out.push("");
  out.push("/** An agent's connection: `client` calls the client. */");
  out.push("export type AgentConnection = AgentConnectionOf<TableTypes>;");
  out.push("/** A client's connection: `agent` calls the agent. */");
  out.push("export type ClientConnection = ClientConnectionOf<TableTypes>;");
  out.push("");
  return out.join("\n");
}

export function extensionPeers(added: readonly MethodRow[], retyped: readonly MethodRow[], base: ExtensionBase, p: Printer): string {
  const app = [...added, ...retyped].filter((r) => r.layer !== "protocol");
  const out: string[] = [p.header];
  out.push(runtimeImport(p, ["RequestOptions"]));
  out.push(baseImport(p, base, "peers", "* as B", true));
  if (app.length > 0) out.push(localImport(p, "types", typeNames(app), true));
  for (const side of SIDES) {
    const mine = app.filter((r) => r.side === side);
    const S = cap(side);
    // The base's members this table types otherwise are left out of what the interfaces extend.
    const without = (what: string, names: readonly string[]) => (names.length === 0 ? `B.${what}` : `Omit<B.${what}, ${[...new Set(names)].map(lit).join(" | ")}>`);
    const again = retyped.filter((r) => r.layer !== "protocol" && r.side === side);
    out.push("");
    out.push(`/** Every request the ${side} handles: the base table's, and this table's. */`);
    out.push(
      `export interface ${S}Methods extends ${without(
        `${S}Methods`,
        again.filter((r) => r.kind === "request").map((r) => r.wire),
      )} {`,
    );
    for (const r of mine.filter((r) => r.kind === "request")) out.push(`  ${lit(r.wire)}: { params: ${paramsTypeName(r)}; result: ${resultTypeName(r)} };`);
    out.push("}");
    out.push(`/** Every notification the ${side} handles: the base table's, and this table's. */`);
    out.push(
      `export interface ${S}Notifications extends ${without(
        `${S}Notifications`,
        again.filter((r) => r.kind === "notification").map((r) => r.wire),
      )} {`,
    );
    for (const r of mine.filter((r) => r.kind === "notification")) out.push(`  ${lit(r.wire)}: ${paramsTypeName(r)};`);
    out.push("}");
    out.push(`/** Typed proxy for calling the ${side}: the base table's methods, and this table's. */`);
    out.push(`export interface ${S}Peer extends ${without(`${S}Peer`, again.map(peerMethodName))} {`);
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
