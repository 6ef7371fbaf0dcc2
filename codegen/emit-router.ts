/**
 * Emits the rows of a table, split by side (see `src/protocol.ts`):
 *
 * - `routes.ts` ({@link emitRoutes}): every row's routing data, printed once.
 * - `agent.ts` / `client.ts` ({@link emitHalf}): one side's half. The rows
 *   the side handles in full (its route, params validator, a one-line
 *   `invoke`; the result of a request is `notDecodedHere`, the peer decodes
 *   it), the peer's rows as routing data (its route, params `notDecodedHere`,
 *   `invoke` undefined; the result validator of each request the side sends), the row
 *   lookups (a `switch` per side and kind), the factory of the peer this side
 *   calls, and the half as a value (`agentProtocol` / `clientProtocol`). It
 *   imports only the validators its side decodes, so a bundle reaching one
 *   half leaves the other side's validators out.
 * - `router.ts` ({@link emitRouter}): the whole table's rows, each the
 *   handling half's row with the result validator added, its lookups and
 *   the rows in table order, for the whole `protocol`.
 *
 * Data only: the logic that uses them is the runtime's (`src/protocol.ts`, `src/decode.ts`).
 */
import type { MethodRow } from "../method-table.ts";
import { lit, paramsTypeName, resultTypeName } from "./names.ts";
import { SIDES, cap, contextType, handledBy, handlerType, isOptional, type HandlingSide } from "./sides.ts";
import { DEFAULT_PRINTER, localImport, runtimeImport, type Printer, type RuntimeSymbol } from "./symbols.ts";
import { validatorName } from "./emit-validators.ts";
import { rowColumns } from "./emit-columns.ts";
import { emitPeerFactories, peerResultTypes } from "./emit-handlers.ts";
import { capabilityFields, type ProtocolInfo } from "./protocol-info.ts";

/**
 * The constant naming `row` in the generated files: side letter and wire; a
 * notification whose wire the same side also handles as a request
 * (`proxy/successor`) gets `_notification` after it.
 */
export const rowConst = (side: HandlingSide, row: MethodRow, rows: readonly MethodRow[]) => {
  const shared = row.kind === "notification" && rows.some((r) => r.wire === row.wire && r.side === row.side && r.kind === "request");
  return `${side === "agent" ? "A" : "C"}_${row.wire.replace(/[^A-Za-z0-9]/g, "_")}${shared ? "_notification" : ""}`;
};
export const other = (side: HandlingSide): HandlingSide => (side === "agent" ? "client" : "agent");
const rowsType = "{ readonly agent: readonly Row<never, never>[]; readonly client: readonly Row<never, never>[] }";

/** `agentProtocol` / `clientProtocol`. */
export const halfName = (side: HandlingSide): string => `${side}Protocol`;

/** The type names whose validators `side` calls: the params of the rows it handles, the results of the requests it sends. */
export function decodedBy(rows: readonly MethodRow[], side: HandlingSide): string[] {
  const names = new Set<string>();
  for (const r of handledBy(rows, side)) names.add(paramsTypeName(r));
  for (const r of handledBy(rows, other(side))) {
    const res = resultTypeName(r);
    if (res !== undefined) names.add(res);
  }
  return [...names];
}

/** One routing row of `routes.ts`: the table row's fields that both halves share. */
function routeLines(side: HandlingSide, row: MethodRow, rows: readonly MethodRow[]): string[] {
  const res = resultTypeName(row);
  const columns = rowColumns(row);
  return [
    `export const ${rowConst(side, row, rows)}: Route = {`,
    `  wire: ${lit(row.wire)}, kind: ${lit(row.kind)}, layer: ${lit(row.layer)},${row.callback === undefined ? "" : ` callback: ${lit(row.callback)},`}`,
    `  capability: ${row.capability ? lit(row.capability) : "undefined"}, auth: ${row.auth === true}, onCancel: ${row.onCancel === undefined ? "undefined" : lit(row.onCancel)}, cancelsSession: ${row.cancelsSession === true}, lifecycle: ${row.lifecycle === undefined ? "undefined" : lit(row.lifecycle)},`,
    ...(columns === "" ? [] : [`  ${columns},`]),
    `  paramsType: ${lit(paramsTypeName(row))}, resultType: ${res ? lit(res) : "undefined"},`,
    "};",
  ];
}

/** One row constant of `half`'s half: a row `side` handles, its route plus what `half` decodes and calls. */
export function rowLine(side: HandlingSide, half: HandlingSide, row: MethodRow, rows: readonly MethodRow[]): string {
  const own = side === half;
  const res = resultTypeName(row);
  const invoke = !own || row.callback === undefined ? "undefined" : invokeText(row);
  const params = own ? `V.${validatorName(paramsTypeName(row))}` : "notDecodedHere";
  const result = res === undefined ? "undefined" : own ? "notDecodedHere" : `V.${validatorName(res)}`;
  const type = own ? `${handlerType(side)}, ${contextType(side)}` : "never, never";
  return `${own ? "export " : ""}const ${rowConst(side, row, rows)}: Row<${type}> = { ...R.${rowConst(side, row, rows)}, params: ${params}, result: ${result}, invoke: ${invoke} };`;
}

/**
 * Emits `routes.ts`: every row of the table as routing data (wire, kind,
 * layer, gates, lifecycle, columns, type names) in table order, one constant
 * per row that reads like the table row; both halves spread these and add
 * their validators and handler call, so the routing data is printed once.
 */
export function emitRoutes(rows: readonly MethodRow[], p: Printer = DEFAULT_PRINTER, only: readonly MethodRow[] = rows): string {
  const out: string[] = [p.header, runtimeImport(p, ["Row"]), ""];
  out.push("/**");
  out.push(" * A row's routing data: everything but its validators and its handler call.");
  out.push(" * @internal");
  out.push(" */");
  out.push('export type Route = Omit<Row<never, never>, "params" | "result" | "invoke">;');
  out.push("");
  for (const side of SIDES) {
    out.push(`// ── rows handled by the ${side} ──`);
    for (const row of handledBy(only, side)) out.push(...routeLines(side, row, rows));
    out.push("");
  }
  return out.join("\n");
}

/** The four lookups (a `switch` per handling side and kind), typed by `rowType(side)`, exported or not. */
export function lookupLines(rows: readonly MethodRow[], rowType: (side: HandlingSide) => string, exported: boolean, only: readonly MethodRow[] = rows): string[] {
  const out: string[] = [];
  for (const side of SIDES) {
    for (const kind of ["request", "notification"] as const) {
      out.push(`/**`);
      out.push(` * The ${kind} row the ${side} handles for \`wire\`, or undefined. A switch: "__proto__" is just unknown.`);
      out.push(" * @internal");
      out.push(" */");
      out.push(`${exported ? "export " : ""}function ${side}${cap(kind)}Row(wire: string): ${rowType(side)} | undefined {`);
      out.push("  switch (wire) {");
      for (const row of handledBy(only, side).filter((r) => r.kind === kind)) out.push(`    case ${lit(row.wire)}: return ${rowConst(side, row, rows)};`);
      out.push("    default: return undefined;");
      out.push("  }");
      out.push("}");
      out.push("");
    }
  }
  return out;
}

export function rowsLines(rows: readonly MethodRow[], only: readonly MethodRow[] = rows): string[] {
  return SIDES.map(
    (side) =>
      `  ${side}: [${handledBy(only, side)
        .map((r) => rowConst(side, r, rows))
        .join(", ")}],`,
  );
}

/** Emits `agent.ts` or `client.ts`: `half`'s side of the table (see the module comment). */
export function emitHalf(rows: readonly MethodRow[], half: HandlingSide, info: ProtocolInfo, p: Printer = DEFAULT_PRINTER): string {
  const peer = other(half);
  const ownRows = handledBy(rows, half);
  const peerRows = handledBy(rows, peer);
  const symbols: RuntimeSymbol[] = ["defineProtocol", "Row"];
  if (ownRows.some((r) => r.callback !== undefined && r.kind === "request" && isOptional(r))) symbols.push("notImplemented");
  if (peerRows.length > 0 || ownRows.some((r) => resultTypeName(r) !== undefined)) symbols.push("notDecodedHere");
  const app = rows.filter((r) => r.layer !== "protocol");
  if (app.some((r) => r.side === peer)) symbols.push("PeerCaller");
  const used = [...new Set(ownRows.filter((r) => r.callback !== undefined).map(paramsTypeName))];
  const types = [...new Set([...used, ...peerResultTypes(rows, [peer])])].sort();
  const fields = capabilityFields(rows);
  const out: string[] = [p.header];
  out.push(runtimeImport(p, symbols));
  if (decodedBy(rows, half).length > 0) out.push(localImport(p, "validators", "* as V", false));
  out.push(localImport(p, "errors", ["ErrorCode"], false));
  out.push(localImport(p, "handlers", [contextType(half), handlerType(half), "TableTypes"], true));
  out.push(localImport(p, "leniency", [`${half}Leniency`], false));
  out.push(localImport(p, "peers", [`${cap(peer)}Peer`], true));
  out.push(localImport(p, "routes", "* as R", false));
  if (types.length > 0) out.push(localImport(p, "types", types, true));
  out.push("");
  out.push(`// ── rows the ${half} handles: decoded here, answered by the ${half}'s handler (the ${peer} decodes the results) ──`);
  for (const row of ownRows) out.push(rowLine(half, half, row, rows));
  out.push("");
  out.push(`// ── rows the ${peer} handles: routing data, and the result validator of each request the ${half} sends ──`);
  for (const row of peerRows) out.push(rowLine(peer, half, row, rows));
  out.push("");
  out.push(...lookupLines(rows, (side) => (side === half ? `Row<${handlerType(half)}, ${contextType(half)}>` : "Row<never, never>"), false));
  out.push(...emitPeerFactories(rows, [peer], true));
  out.push("/**");
  out.push(` * The ${half}'s half of this table (ACP ${info.name}): everything an ${half}'s connection`);
  out.push(` * needs and nothing the ${peer} decodes. Pass it where a protocol is taken on the`);
  out.push(` * ${half} side (\`${half === "agent" ? "serveStdio(agentProtocol, handler)" : "createClientConnection(clientProtocol, handler, transport)"}\`), so a bundle leaves the`);
  out.push(` * ${peer}'s validators out; \`protocol\` is the whole table.`);
  out.push(" */");
  out.push(`export const ${halfName(half)} = /* @__PURE__ */ defineProtocol<TableTypes>({`);
  out.push(`  version: ${info.version},`);
  out.push(`  name: ${lit(info.name)},`);
  out.push(`  side: ${lit(half)},`);
  out.push(`  rows: {`);
  out.push(...rowsLines(rows).map((l) => `  ${l}`));
  out.push("  },");
  out.push("  lookup: {");
  for (const side of SIDES) out.push(`    ${side}: { request: ${side}RequestRow, notification: ${side}NotificationRow },`);
  out.push("  },");
  out.push(`  leniency: ${half}Leniency,`);
  out.push(`  capabilityFields: { params: ${lit(fields.params)}, result: ${lit(fields.result)} },`);
  out.push("  errorCodes: ErrorCode,");
  out.push(`  peers: { ${peer}: create${cap(peer)}Peer },`);
  out.push("});");
  out.push("");
  return out.join("\n");
}

/** Emits `router.ts`: the whole table's rows (each half's own row with its result validator), lookups and rows in table order. */
export function emitRouter(rows: readonly MethodRow[], p: Printer = DEFAULT_PRINTER): string {
  const out: string[] = [p.header];
  out.push(runtimeImport(p, ["Row"]));
  if (rows.some((r) => resultTypeName(r) !== undefined)) out.push(localImport(p, "validators", "* as V", false));
  for (const side of SIDES) if (handledBy(rows, side).length > 0) out.push(localImport(p, side, `* as ${side === "agent" ? "A" : "C"}`, false));
  out.push(localImport(p, "handlers", ["AgentContext", "AgentHandler", "ClientContext", "ClientHandler"], true));
  out.push("");
  for (const side of SIDES) {
    out.push(`// ── rows handled by the ${side}: the ${side} half's row, with the result validator the ${other(side)} half decodes ──`);
    for (const row of handledBy(rows, side)) {
      const name = rowConst(side, row, rows);
      const res = resultTypeName(row);
      const half = `${side === "agent" ? "A" : "C"}.${name}`;
      out.push(`const ${name}: Row<${handlerType(side)}, ${contextType(side)}> = ${res === undefined ? `${half};` : `{ ...${half}, result: V.${validatorName(res)} };`}`);
    }
    out.push("");
  }
  out.push(...lookupLines(rows, (side) => `Row<${handlerType(side)}, ${contextType(side)}>`, true));
  out.push("/**");
  out.push(" * Every row each side handles, in table order.");
  out.push(" * @internal");
  out.push(" */");
  out.push(`export const rows: ${rowsType} = {`);
  out.push(...rowsLines(rows));
  out.push("};");
  out.push("");
  return out.join("\n");
}

function invokeText(row: MethodRow): string {
  const p = paramsTypeName(row);
  const call = `h.${row.callback}(p as ${p}, c)`;
  if (!isOptional(row)) return `(h, p, c) => ${call}`;
  // A notification nobody handles is dropped, as JSON-RPC 2.0 drops unknown notifications; a request answers -32601.
  return row.kind === "notification" ? `(h, p, c) => (h.${row.callback} ? ${call} : undefined)` : `(h, p, c) => (h.${row.callback} ? ${call} : notImplemented(${lit(row.wire)}))`;
}
