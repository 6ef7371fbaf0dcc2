/**
 * Invariants of the columns that the v1-unstable and v2 tables brought in
 * (`counterpart`, `callerCapability`, `objectCapability`, `turnEnd`,
 * `capabilityFields`, `repeatable`, `unbatched`). `checkTable` adds these
 * problems to its own list, so a table learns every violation at once.
 */
import type { MethodRow } from "../method-table.ts";
import { isNode, refName, type AcpSchema, type SchemaNode } from "./schema.ts";

type Report = (row: MethodRow, field: string, what: string) => void;
type CapabilityCheck = (side: "agent" | "client", path: readonly string[]) => string | undefined;

/** Reports every broken invariant of the newer columns through `report`. */
export function checkColumns(rows: readonly MethodRow[], schema: AcpSchema, report: Report, missingCapability: CapabilityCheck): void {
  for (const row of rows) {
    if (row.counterpart !== undefined) checkCounterpart(rows, row, report);
    else if (row.side !== "both" && rows.some((r) => r.wire === row.wire && r.side !== row.side && r.kind !== row.kind) && !rows.some((r) => r.wire === row.wire && r.side !== row.side && r.kind === row.kind)) {
      report(row, "counterpart", `the other side handles "${row.wire}" as another kind; mark both rows with counterpart`);
    }
    if (row.callerCapability !== undefined) {
      if (row.side === "both") report(row, "callerCapability", "protocol rows are never gated");
      else {
        const missing = missingCapability(row.side === "agent" ? "client" : "agent", row.callerCapability);
        if (missing !== undefined) report(row, "callerCapability", missing);
      }
    }
    if (row.objectCapability !== undefined) checkObjectCapability(schema, row, report);
    if (row.turnEnd !== undefined) {
      if (row.side !== "agent" || row.kind !== "request") report(row, "turnEnd", "only agent requests have a turn that outlives the answer");
      if (row.onCancel !== undefined) report(row, "turnEnd", "a turn that ends by notification answers at once, so it has no onCancel result");
      const end = rows.find((r) => r.wire === row.turnEnd?.notification && r.kind === "notification" && r.side === "client");
      if (end === undefined) report(row, "turnEnd", `"${row.turnEnd.notification}" is not a notification the client handles`);
    }
    for (const field of ["capabilityFields", "repeatable"] as const) {
      if (row[field] !== undefined && row.lifecycle !== "initialize") report(row, field, 'only the "initialize" row has this column');
    }
    if (row.capabilityFields !== undefined && typeof row.params === "string" && typeof row.result === "string") {
      if (!hasProperty(schema, row.params, row.capabilityFields.params)) report(row, "capabilityFields", `"${row.capabilityFields.params}" is not a property of ${row.params}`);
      if (!hasProperty(schema, row.result, row.capabilityFields.result)) report(row, "capabilityFields", `"${row.capabilityFields.result}" is not a property of ${row.result}`);
    }
    if (row.unbatched && row.layer !== "app") report(row, "unbatched", "only app rows can be kept out of batches");
    if (row.envelope && typeof row.params === "string" && !(hasProperty(schema, row.params, "method") && hasProperty(schema, row.params, "params"))) report(row, "envelope", `${row.params} has no "method" and "params" to wrap a message in`);
  }
}

function checkCounterpart(rows: readonly MethodRow[], row: MethodRow, report: Report): void {
  if (row.side === "both") return report(row, "counterpart", "protocol rows are handled by both sides already");
  if (row.counterpart === row.kind) return report(row, "counterpart", `the counterpart must be the other kind than "${row.kind}"`);
  const other = rows.find((r) => r.wire === row.wire && r.side === (row.side === "agent" ? "client" : "agent"));
  if (other === undefined) return report(row, "counterpart", `no row handles "${row.wire}" on the other side`);
  if (other.kind !== row.counterpart) report(row, "counterpart", `the other side's row is a ${other.kind}, not a ${row.counterpart}`);
  if (other.counterpart !== row.kind) report(row, "counterpart", `the other side's row must name "${row.kind}" as its counterpart`);
}

function checkObjectCapability(schema: AcpSchema, row: MethodRow, report: Report): void {
  const gate = row.objectCapability;
  if (gate === undefined) return;
  if (row.side !== "agent" || row.kind !== "request") report(row, "objectCapability", "only agent requests are gated per object (the client learns objects from session/update)");
  if (typeof row.params === "string" && !hasProperty(schema, row.params, gate.id)) report(row, "objectCapability", `"${gate.id}" is not a property of ${row.params}`);
  if (!sessionUpdateTags(schema).has(gate.update)) report(row, "objectCapability", `"${gate.update}" is not a sessionUpdate tag in the schema`);
  if (gate.path.length === 0) report(row, "objectCapability", "empty capability path");
}

/** Every `sessionUpdate` const in the schema's `SessionUpdate` union. */
function sessionUpdateTags(schema: AcpSchema): Set<string> {
  const tags = new Set<string>();
  const union = schema.$defs.SessionUpdate;
  for (const kw of ["anyOf", "oneOf"] as const) {
    const list = union?.[kw];
    if (!Array.isArray(list)) continue;
    for (const b of list) {
      const tag = isNode(b) && isNode(b.properties) && isNode(b.properties.sessionUpdate) ? b.properties.sessionUpdate.const : undefined;
      if (typeof tag === "string") tags.add(tag);
    }
  }
  return tags;
}

/** True when the `$defs` type `name` (or a type it refers to through `allOf`) declares `key`. */
function hasProperty(schema: AcpSchema, name: string, key: string, depth = 0): boolean {
  const node: SchemaNode | undefined = schema.$defs[name];
  if (node === undefined || depth > 4) return false;
  if (isNode(node.properties) && key in node.properties) return true;
  const all = node.allOf;
  return Array.isArray(all) && all.some((b) => isNode(b) && typeof refName(b.$ref) === "string" && hasProperty(schema, refName(b.$ref) as string, key, depth + 1));
}
