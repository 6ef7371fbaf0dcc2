/**
 * Emits `router.ts`: one row constant per table row (routing fields,
 * validators, a one-line `invoke`), the row lookups (a `switch` per side and
 * kind) and the rows in table order. Data only: the logic that uses them is
 * the runtime's (`src/protocol.ts`, `src/decode.ts`).
 */
import type { MethodRow } from "../method-table.ts";
import { lit, paramsTypeName, resultTypeName } from "./names.ts";
import { SIDES, cap, contextType, handledBy, handlerType, isOptional, type HandlingSide } from "./sides.ts";
import { DEFAULT_PRINTER, localImport, runtimeImport, type Printer } from "./symbols.ts";
import { validatorName } from "./emit-validators.ts";
import { rowColumns } from "./emit-columns.ts";

const rowConst = (side: HandlingSide, row: MethodRow) => `${side === "agent" ? "A" : "C"}_${row.wire.replace(/[^A-Za-z0-9]/g, "_")}`;

export function emitRouter(rows: readonly MethodRow[], p: Printer = DEFAULT_PRINTER): string {
  const out: string[] = [p.header];
  const optional = rows.some((r) => r.callback !== undefined && isOptional(r));
  out.push(runtimeImport(p, optional ? ["notImplemented", "Row"] : ["Row"]));
  out.push(localImport(p, "validators", "* as V", false));
  out.push(localImport(p, "handlers", ["AgentContext", "AgentHandler", "ClientContext", "ClientHandler"], true));
  const used = [...new Set(rows.filter((r) => r.callback !== undefined).map(paramsTypeName))].sort();
  if (used.length > 0) out.push(localImport(p, "types", used, true));
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
  out.push("/**");
  out.push(" * Every row each side handles, in table order.");
  out.push(" * @internal");
  out.push(" */");
  out.push("export const rows: { readonly agent: readonly Row<never, never>[]; readonly client: readonly Row<never, never>[] } = {");
  for (const side of SIDES) out.push(`  ${side}: [${handledBy(rows, side).map((r) => rowConst(side, r)).join(", ")}],`);
  out.push("};");
  out.push("");
  return out.join("\n");
}

function invokeText(side: HandlingSide, row: MethodRow): string {
  const p = paramsTypeName(row);
  const call = `h.${row.callback}(p as ${p}, c)`;
  return isOptional(row) ? `(h, p, c) => (h.${row.callback} ? ${call} : notImplemented(${lit(row.wire)}))` : `(h, p, c) => ${call}`;
}
