/**
 * The generated folder of a table that extends another table (the proxy
 * table extends the unstable one): only the delta is printed, and every
 * file imports the rest from the base table's folder.
 *
 * What an extension adds (the rows and the types) is read by
 * `extension-delta.ts`; the handler and peer interfaces are printed by
 * `emit-extension-interfaces.ts`.
 *
 * - The delta is every row the base lacks (added) or has with other columns
 *   (changed: the proxy table's `initialize`, which opens nothing there); a
 *   changed row keeps its wire, side, kind, callback and types, so the
 *   peers and method maps of the base still hold ({@link tableDelta}).
 * - The extension's schema may be another file than the base's, a superset
 *   of it (the unstable tables over the stable ones): the types it defines
 *   otherwise, or newly, and every type referring to them are the extension's
 *   own ({@link changedTypes}); the base rows naming one are re-printed.
 * - `types.ts` re-exports the base's and declares the extension's own types;
 *   `errors.ts` re-exports the base's unless the schema's codes differ.
 * - `validators.ts` compiles only the types the base does not validate as
 *   the extension's schema defines them; a type that is only a reference to
 *   one the base validates (`InitializeProxyRequest` → `InitializeRequest`)
 *   is that validator.
 * - `leniency.ts` holds the nodes the base's graphs lack, merged over them.
 * - `routes.ts`, the halves and `router.ts` print the delta rows, and each
 *   value is `extendProtocol(base value, delta)`: the runtime lays the rows
 *   over the base's and chains the lookups, so no logic is printed.
 * - `handlers.ts` and `peers.ts` extend the base interfaces
 *   (`WithContext` retypes the base handler methods' context).
 */
import type { MethodRow } from "../method-table.ts";
import { buildLeniencyGraph, reachable } from "./emit-leniency.ts";
import { emitPeerFactories } from "./emit-handlers.ts";
import { decodedBy, lookupLines, other, rowConst, rowLine, rowsLines, emitRoutes } from "./emit-router.ts";
import { validatedTypes, validatorName } from "./emit-validators.ts";
import { emitValidators } from "./emit-validators.ts";
import { emitErrors } from "./emit-errors.ts";
import { emitTypes } from "./emit-types.ts";
import { lit, paramsTypeName, resultTypeName } from "./names.ts";
import { capabilityFields, type ProtocolInfo } from "./protocol-info.ts";
import { refName, stripDocs, isNode, type AcpSchema, type SchemaNode } from "./schema.ts";
import { SIDES, cap, contextType, handledBy, handlerType, isOptional, type HandlingSide } from "./sides.ts";
import { localImport, runtimeImport, type Printer, type RuntimeSymbol } from "./symbols.ts";
import { baseImport, changedTypes, stable, tableDelta, type ExtensionBase } from "./extension-delta.ts";
import { extensionHandlers, extensionPeers } from "./emit-extension-interfaces.ts";

/** Every file of an extension's folder, by name. */
export async function emitExtension(rows: readonly MethodRow[], schema: AcpSchema, base: ExtensionBase, info: ProtocolInfo, p: Printer): Promise<Map<string, string>> {
  const baseSchema = base.schema ?? schema;
  const types = baseSchema === schema ? new Set<string>() : changedTypes(rows, schema, base.rows, baseSchema);
  const { delta, added, changed, retyped } = tableDelta(rows, base.rows, types);
  const from = (file: string) => `"${base.folder}/${file}${p.ext}"`;
  const errors = emitErrors(schema, p);
  return new Map<string, string>([
    ["types.ts", types.size === 0 ? `${p.header}\n// The base table's types: its schema defines them as this one does.\nexport type * from ${from("types")};\n` : await emitTypes(rows, schema, p, { own: types, from: `${base.folder}/types${p.ext}` })],
    ["validators.ts", extensionValidators(rows, delta, schema, base, types, p)],
    ["leniency.ts", extensionLeniency(rows, schema, base, p)],
    ["errors.ts", errors === emitErrors(baseSchema, p) ? `${p.header}\nexport { ErrorCode, type ErrorCodeValue } from ${from("errors")};\n` : errors],
    ["routes.ts", emitRoutes(rows, p, delta)],
    ["agent.ts", extensionHalf(rows, delta, [...added, ...retyped], "agent", info, base, p)],
    ["client.ts", extensionHalf(rows, delta, [...added, ...retyped], "client", info, base, p)],
    ["router.ts", extensionRouter(rows, delta, p)],
    ["handlers.ts", extensionHandlers(rows, delta, changed, base, p)],
    ["peers.ts", extensionPeers(added, retyped, base, p)],
    ["protocol.ts", extensionProtocol(rows, info, base, p)],
  ]);
}

/** The base type a definition only refers to (`{ allOf: [{ $ref }] }` or `{ $ref }`, docs aside), or undefined. */
function aliasOf(def: unknown): string | undefined {
  const node = stripDocs(def) as SchemaNode;
  const keys = Object.keys(node);
  if (keys.length === 1 && keys[0] === "$ref") return refName(node.$ref);
  const all = node.allOf;
  if (keys.length === 1 && Array.isArray(all) && all.length === 1 && isNode(all[0]) && Object.keys(all[0]).length === 1) return refName(all[0].$ref);
  return undefined;
}

function extensionValidators(rows: readonly MethodRow[], delta: readonly MethodRow[], schema: AcpSchema, base: ExtensionBase, types: ReadonlySet<string>, p: Printer): string {
  // The base's validators of the types this schema defines as the base's does.
  const baseTypes = new Set(validatedTypes(base.rows).filter((n) => !types.has(n)));
  const aliases: string[] = [];
  const compiled: string[] = [];
  for (const name of validatedTypes(delta)) {
    if (baseTypes.has(name)) continue;
    const target = aliasOf(schema.$defs[name]);
    if (target !== undefined && baseTypes.has(target)) aliases.push(`${validatorName(target)} as ${validatorName(name)}`);
    else compiled.push(name);
  }
  const from = `"${base.folder}/validators${p.ext}"`;
  const reexports = [`export * from ${from};`, ...(aliases.length > 0 ? [`export { ${aliases.join(", ")} } from ${from};`] : [])];
  return emitValidators(rows, schema, p, compiled, reexports, { text: base.validators, from });
}

function extensionLeniency(rows: readonly MethodRow[], schema: AcpSchema, base: ExtensionBase, p: Printer): string {
  const graph = buildLeniencyGraph(rows, schema);
  const baseGraph = buildLeniencyGraph(base.rows, base.schema ?? schema);
  // The nodes a half of the extension reaches that the same half of the base lacks (or has otherwise).
  const fresh = (side: HandlingSide) => {
    const had = new Set(reachable(baseGraph, decodedBy(base.rows, side)));
    return new Set(reachable(graph, decodedBy(rows, side)).filter((n) => !had.has(n) || stable(graph[n]) !== stable(baseGraph[n])));
  };
  const agent = fresh("agent");
  const client = fresh("client");
  const names = [...new Set([...agent, ...client])].sort();
  const group = (name: string, doc: string, keep: (n: string) => boolean) => [`/** ${doc} */`, `const ${name}: LeniencyGraph = {`, ...names.filter(keep).map((n) => `  ${JSON.stringify(n)}: ${JSON.stringify(graph[n])},`), "};"];
  return [
    p.header,
    runtimeImport(p, ["LeniencyGraph"]),
    baseImport(p, base, "leniency", ["agentLeniency as baseAgent", "clientLeniency as baseClient", "leniency as baseAll"], false),
    "",
    ...group("both", "Nodes the base's graphs lack that the types of both sides reach.", (n) => agent.has(n) && client.has(n)),
    ...group("agentOnly", "Nodes the base's agent graph lacks that only the types the agent decodes reach.", (n) => agent.has(n) && !client.has(n)),
    ...group("clientOnly", "Nodes the base's client graph lacks that only the types the client decodes reach.", (n) => !agent.has(n) && client.has(n)),
    "",
    "/**",
    " * Lenient locations of every params/result type: the base table's, and this table's own.",
    " * @internal",
    " */",
    "export const leniency: LeniencyGraph = /* @__PURE__ */ Object.assign({}, baseAll, both, agentOnly, clientOnly);",
    "",
    "/**",
    " * Lenient locations of the types the agent decodes: the base's agent graph, and this table's own.",
    " * @internal",
    " */",
    "export const agentLeniency: LeniencyGraph = /* @__PURE__ */ Object.assign({}, baseAgent, both, agentOnly);",
    "",
    "/**",
    " * Lenient locations of the types the client decodes: the base's client graph, and this table's own.",
    " * @internal",
    " */",
    "export const clientLeniency: LeniencyGraph = /* @__PURE__ */ Object.assign({}, baseClient, both, clientOnly);",
    "",
  ].join("\n");
}

function extensionHalf(rows: readonly MethodRow[], delta: readonly MethodRow[], added: readonly MethodRow[], half: HandlingSide, info: ProtocolInfo, base: ExtensionBase, p: Printer): string {
  const peer = other(half);
  const ownRows = handledBy(delta, half);
  const peerRows = handledBy(delta, peer);
  const peerCalls = added.filter((r) => r.layer !== "protocol" && r.side === peer);
  const symbols: RuntimeSymbol[] = ["extendProtocol", "Row", "PeerCaller"];
  if (ownRows.some((r) => r.callback !== undefined && r.kind === "request" && isOptional(r))) symbols.push("notImplemented");
  if (peerRows.length > 0 || ownRows.some((r) => resultTypeName(r) !== undefined)) symbols.push("notDecodedHere");
  const used = ownRows.filter((r) => r.callback !== undefined).map(paramsTypeName);
  const results = peerCalls.filter((r) => r.kind === "request").map((r) => resultTypeName(r) as string);
  const types = [...new Set([...used, ...results])].sort();
  const out: string[] = [p.header];
  out.push(runtimeImport(p, symbols));
  out.push(baseImport(p, base, half, [halfName(half) + " as base", `create${cap(peer)}Peer as base${cap(peer)}Peer`], false));
  if (decodedBy(delta, half).length > 0) out.push(localImport(p, "validators", "* as V", false));
  out.push(localImport(p, "errors", ["ErrorCode"], false));
  out.push(localImport(p, "handlers", [contextType(half), handlerType(half), "TableTypes"], true));
  out.push(localImport(p, "leniency", [`${half}Leniency`], false));
  out.push(localImport(p, "peers", [`${cap(peer)}Peer`], true));
  out.push(localImport(p, "routes", "* as R", false));
  if (types.length > 0) out.push(localImport(p, "types", types, true));
  out.push("");
  out.push(`// ── rows the ${half} handles that the base table lacks or has otherwise ──`);
  for (const row of ownRows) out.push(rowLine(half, half, row, rows));
  out.push("");
  out.push(`// ── rows the ${peer} handles that the base table lacks or has otherwise: routing data, and the result validator of each request the ${half} sends ──`);
  for (const row of peerRows) out.push(rowLine(peer, half, row, rows));
  out.push("");
  out.push(...lookupLines(rows, (side) => (side === half ? `Row<${handlerType(half)}, ${contextType(half)}>` : "Row<never, never>"), false, delta));
  out.push(...emitPeerFactories(peerCalls, [peer], true, (side) => `base${cap(side)}Peer`));
  out.push("/**");
  out.push(` * The ${half}'s half of this table (ACP ${info.name}): the base table's ${half} half with`);
  out.push(` * this table's rows laid over it. Pass it where a protocol is taken on the ${half} side;`);
  out.push(" * `protocol` is the whole table.");
  out.push(" */");
  out.push(`export const ${halfName(half)} = /* @__PURE__ */ extendProtocol<TableTypes>(base, {`);
  out.push(...specLines(rows, delta, info, half, `${half}Leniency`, `{ ${peer}: create${cap(peer)}Peer }`));
  out.push("});");
  out.push("");
  return out.join("\n");
}

const halfName = (side: HandlingSide): string => `${side}Protocol`;

/** The fields of a delta's spec (rows, lookups and the rest), indented for the object literal. */
function specLines(rows: readonly MethodRow[], delta: readonly MethodRow[], info: ProtocolInfo, side: HandlingSide | undefined, leniency: string, peers: string): string[] {
  const fields = capabilityFields(rows);
  return [
    `  version: ${info.version},`,
    `  name: ${lit(info.name)},`,
    ...(side === undefined ? [] : [`  side: ${lit(side)},`]),
    "  rows: {",
    ...rowsLines(rows, delta).map((l) => `  ${l}`),
    "  },",
    "  lookup: {",
    ...SIDES.map((s) => `    ${s}: { request: ${s}RequestRow, notification: ${s}NotificationRow },`),
    "  },",
    `  leniency: ${leniency},`,
    `  capabilityFields: { params: ${lit(fields.params)}, result: ${lit(fields.result)} },`,
    "  errorCodes: ErrorCode,",
    `  peers: ${peers},`,
  ];
}

function extensionRouter(rows: readonly MethodRow[], delta: readonly MethodRow[], p: Printer): string {
  const out: string[] = [p.header];
  out.push(runtimeImport(p, ["Row"]));
  if (delta.some((r) => resultTypeName(r) !== undefined)) out.push(localImport(p, "validators", "* as V", false));
  for (const side of SIDES) if (handledBy(delta, side).length > 0) out.push(localImport(p, side, `* as ${side === "agent" ? "A" : "C"}`, false));
  out.push(localImport(p, "handlers", ["AgentContext", "AgentHandler", "ClientContext", "ClientHandler"], true));
  out.push("");
  for (const side of SIDES) {
    out.push(`// ── rows the ${side} handles that the base table lacks or has otherwise, with the result validator the ${other(side)} half decodes ──`);
    for (const row of handledBy(delta, side)) {
      const name = rowConst(side, row, rows);
      const res = resultTypeName(row);
      const half = `${side === "agent" ? "A" : "C"}.${name}`;
      out.push(`const ${name}: Row<${handlerType(side)}, ${contextType(side)}> = ${res === undefined ? `${half};` : `{ ...${half}, result: V.${validatorName(res)} };`}`);
    }
    out.push("");
  }
  out.push(...lookupLines(rows, (side) => `Row<${handlerType(side)}, ${contextType(side)}>`, true, delta));
  out.push("/**");
  out.push(" * The rows each side handles that the base table lacks or has otherwise, in table order.");
  out.push(" * @internal");
  out.push(" */");
  out.push("export const rows: { readonly agent: readonly Row<never, never>[]; readonly client: readonly Row<never, never>[] } = {");
  out.push(...rowsLines(rows, delta));
  out.push("};");
  out.push("");
  return out.join("\n");
}

function extensionProtocol(rows: readonly MethodRow[], info: ProtocolInfo, base: ExtensionBase, p: Printer): string {
  return [
    p.header,
    runtimeImport(p, ["extendProtocol"]),
    baseImport(p, base, "protocol", ["protocol as base"], false),
    localImport(p, "agent", ["createClientPeer"], false),
    localImport(p, "client", ["createAgentPeer"], false),
    localImport(p, "errors", ["ErrorCode"], false),
    localImport(p, "handlers", ["TableTypes"], true),
    localImport(p, "leniency", ["leniency"], false),
    localImport(p, "router", ["agentNotificationRow", "agentRequestRow", "clientNotificationRow", "clientRequestRow", "rows"], false),
    "",
    "/**",
    ` * This table as one value (ACP ${info.name}), both sides: the base table's \`protocol\` with this`,
    " * table's rows laid over it. Pass it to whatever serves or speaks it (`serveProtocolStdio`,",
    " * `createRemoteServer`, the tools); a program that is one side only can pass that side's half",
    " * (`agentProtocol`, `clientProtocol`).",
    " */",
    "export const protocol = /* @__PURE__ */ extendProtocol<TableTypes>(base, {",
    `  version: ${info.version},`,
    `  name: ${lit(info.name)},`,
    "  rows,",
    "  lookup: {",
    "    agent: { request: agentRequestRow, notification: agentNotificationRow },",
    "    client: { request: clientRequestRow, notification: clientNotificationRow },",
    "  },",
    "  leniency,",
    `  capabilityFields: { params: ${lit(capabilityFields(rows).params)}, result: ${lit(capabilityFields(rows).result)} },`,
    "  errorCodes: ErrorCode,",
    "  peers: { agent: createAgentPeer, client: createClientPeer },",
    "});",
    "",
  ].join("\n");
}
