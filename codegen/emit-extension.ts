/**
 * The generated folder of a table that extends another table (the proxy
 * table extends the unstable one): only the delta is printed, and every
 * file imports the rest from the base table's folder.
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
import { emitTypes, typeDefinitions } from "./emit-types.ts";
import { lit, paramsTypeName, peerMethodName, resultTypeName } from "./names.ts";
import { capabilityFields, type ProtocolInfo } from "./protocol-info.ts";
import { refName, stripDocs, isNode, type AcpSchema, type SchemaNode } from "./schema.ts";
import { SIDES, cap, contextType, handledBy, handlerType, isOptional, typeNames, type HandlingSide } from "./sides.ts";
import { localImport, runtimeImport, type Printer, type RuntimeSymbol } from "./symbols.ts";

/**
 * The base table of an extension: its rows, where its generated folder is (an
 * import specifier from the extension's folder), and its schema when that is
 * another file than the extension's (a subset of it: every definition of the
 * base's is in the extension's; default: the extension's own).
 */
export interface ExtensionBase {
  readonly rows: readonly MethodRow[];
  readonly folder: string;
  readonly schema?: AcpSchema;
  /** The base folder's `validators.ts` as it is on disk, whose compiled functions this folder imports rather than prints (none when absent). */
  readonly validators?: string;
}

/**
 * The types of an extension (schema definitions and inline row schemas) that
 * its base folder does not declare as they are here: new ones, ones whose
 * definition differs (compared without the keywords that only document), and,
 * transitively, every one that refers to such a type. Throws, naming them,
 * when the base has definitions the extension's schema lacks.
 */
export function changedTypes(rows: readonly MethodRow[], schema: AcpSchema, base: readonly MethodRow[], baseSchema: AcpSchema): Set<string> {
  const mine = typeDefinitions(rows, schema);
  const theirs = typeDefinitions(base, baseSchema);
  const missing = Object.keys(theirs).filter((n) => !(n in mine));
  if (missing.length > 0) throw new Error(`codegen: the extension's schema is not a superset of its base's: it lacks ${missing.join(", ")}`);
  const changed = new Set(Object.keys(mine).filter((n) => !(n in theirs) || stable(stripDocs(mine[n])) !== stable(stripDocs(theirs[n]))));
  const refs = new Map(Object.entries(mine).map(([n, def]) => [n, referencedDefs(def)]));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [n, to] of refs) if (!changed.has(n) && [...to].some((r) => changed.has(r))) (changed.add(n), (grew = true));
  }
  return changed;
}

/** The `$defs` names a schema node refers to (`$ref`), at any depth. */
function referencedDefs(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const v of node) referencedDefs(v, into);
  else if (isNode(node)) {
    for (const [k, v] of Object.entries(node)) {
      const name = k === "$ref" ? refName(v) : undefined;
      if (name !== undefined) into.add(name);
      else referencedDefs(v, into);
    }
  }
  return into;
}

const key = (r: MethodRow) => `${r.side} ${r.kind} ${r.wire}`;
const stable = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (isNode(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x));

/**
 * The rows an extension adds or changes, in table order; throws, naming the
 * row, when it drops a base row or changes what the base's types print.
 * `retyped` are the base rows whose params or result type is in `types` (the
 * extension's schema defines it otherwise): printed again, with the
 * extension's validators and types; they are also in `changed`.
 */
export function tableDelta(rows: readonly MethodRow[], base: readonly MethodRow[], types: ReadonlySet<string> = new Set()): { delta: MethodRow[]; added: MethodRow[]; changed: MethodRow[]; retyped: MethodRow[] } {
  const byKey = new Map(base.map((r) => [key(r), r]));
  const mine = new Set(rows.map(key));
  const problems: string[] = [];
  for (const r of base) if (!mine.has(key(r))) problems.push(`the extension drops the base row ${key(r)}; an extension may add rows and change columns only`);
  const added: MethodRow[] = [];
  const changed: MethodRow[] = [];
  const retyped: MethodRow[] = [];
  const typeChanged = (r: MethodRow) => [paramsTypeName(r), resultTypeName(r)].some((n) => n !== undefined && types.has(n));
  for (const r of rows) {
    const b = byKey.get(key(r));
    if (b === undefined) added.push(r);
    else if (stable(b) !== stable(r) || typeChanged(r)) {
      for (const f of ["callback", "params", "result"] as const) if (stable(b[f]) !== stable(r[f])) problems.push(`the extension changes ${f} of the base row ${key(r)}; only other columns may change`);
      changed.push(r);
      if (typeChanged(r)) retyped.push(r);
    }
    if (b === undefined && (isNode(r.params) || isNode(r.result))) problems.push(`the extension row ${key(r)} has an inline schema; an extension's types are its base's (one schema)`);
  }
  if (problems.length > 0) throw new Error(`codegen: ${problems.join("; ")}`);
  const delta = rows.filter((r) => added.includes(r) || changed.includes(r));
  return { delta, added, changed, retyped };
}

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

/** An import from the base folder's file `file`. */
function baseImport(p: Printer, base: ExtensionBase, file: string, what: readonly string[] | string, typeOnly: boolean): string {
  const clause = typeof what === "string" ? what : `{ ${what.join(", ")} }`;
  return `import ${typeOnly ? "type " : ""}${clause} from "${base.folder}/${file}${p.ext}";`;
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

function extensionHandlers(rows: readonly MethodRow[], delta: readonly MethodRow[], changed: readonly MethodRow[], base: ExtensionBase, p: Printer): string {
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

function extensionPeers(added: readonly MethodRow[], retyped: readonly MethodRow[], base: ExtensionBase, p: Printer): string {
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
    out.push(`export interface ${S}Methods extends ${without(`${S}Methods`, again.filter((r) => r.kind === "request").map((r) => r.wire))} {`);
    for (const r of mine.filter((r) => r.kind === "request")) out.push(`  ${lit(r.wire)}: { params: ${paramsTypeName(r)}; result: ${resultTypeName(r)} };`);
    out.push("}");
    out.push(`/** Every notification the ${side} handles: the base table's, and this table's. */`);
    out.push(`export interface ${S}Notifications extends ${without(`${S}Notifications`, again.filter((r) => r.kind === "notification").map((r) => r.wire))} {`);
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
