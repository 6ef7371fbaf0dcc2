/**
 * The invariants of the method table (DESIGN §2) and its cross-check against
 * the pinned schema. Every violation is reported with the row and the field.
 */
import type { MethodRow, RowSide as Side } from "../method-table.ts";
import { checkColumns } from "./check-columns.ts";
import { checkShape } from "./check-shape.ts";
import { branches, isNode, refName, type AcpSchema, type SchemaNode } from "./schema.ts";

/** One wire method as the schema itself describes it. */
export interface SchemaMethod {
  readonly wire: string;
  readonly side: Side;
  readonly kind: "request" | "notification";
  readonly params: string;
  readonly result?: string;
}

/** Thrown when the table breaks an invariant; `problems` lists every violation. */
export class TableError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`method table is invalid:\n  - ${problems.join("\n  - ")}`);
    this.name = "TableError";
    this.problems = problems;
  }
}

/** Names a row the way every message does: `row "session/prompt" (agent)`. */
export function rowLabel(row: Pick<MethodRow, "wire" | "side">): string {
  return `row "${row.wire}" (${row.side})`;
}

/**
 * Derives the stable method set from the schema: request and notification
 * definitions carry `x-method`/`x-side`, and the `*Request`/`*Notification`
 * envelope unions say which kind each one is.
 */
export function stableMethodsFromSchema(schema: AcpSchema): SchemaMethod[] {
  const defs = schema.$defs;
  const kindOf = new Map<string, "request" | "notification">();
  for (const [union, kind] of [
    ["ClientRequest", "request"],
    ["AgentRequest", "request"],
    ["ClientNotification", "notification"],
    ["AgentNotification", "notification"],
  ] as const) {
    const envelope = defs[union];
    if (!envelope) throw new TableError([`schema has no $defs/${union}`]);
    for (const name of refsBelow(envelope)) kindOf.set(name, kind);
  }
  const results = new Map<string, string>();
  for (const union of ["ClientResponse", "AgentResponse"]) {
    const envelope = defs[union];
    if (!envelope) throw new TableError([`schema has no $defs/${union}`]);
    for (const name of refsBelow(envelope)) {
      const def = defs[name];
      if (def && typeof def["x-method"] === "string") results.set(`${String(def["x-side"])} ${def["x-method"]}`, name);
    }
  }
  const out: SchemaMethod[] = [];
  for (const [name, def] of Object.entries(defs)) {
    const wire = def["x-method"];
    const xSide = def["x-side"];
    if (typeof wire !== "string" || typeof xSide !== "string") continue;
    const side: Side = xSide === "protocol" ? "both" : (xSide as Side);
    const kind = kindOf.get(name) ?? (xSide === "protocol" ? "notification" : undefined);
    if (!kind) continue; // a response definition
    const result = kind === "request" ? results.get(`${xSide} ${wire}`) : undefined;
    out.push(result === undefined ? { wire, side, kind, params: name } : { wire, side, kind, params: name, result });
  }
  return out.sort((a, b) => a.wire.localeCompare(b.wire));
}

/**
 * The methods a conductor and its proxies speak (`x-side: "proxy"`):
 * `proxy/initialize` and `proxy/successor`, from the `ProxyRequest`,
 * `ProxyNotification` and `ProxyResponse` unions; none when the schema has no
 * such unions (v2, v1 stable). They sit outside the client/agent unions, so
 * no table must have them; a table that does (the proxy table) gives each a
 * row on the side that handles it: the proxy is the agent side of its
 * conductor's connection, the conductor the client side.
 */
export function proxyMethodsFromSchema(schema: AcpSchema): SchemaMethod[] {
  const defs = schema.$defs;
  const out: SchemaMethod[] = [];
  const results = new Map<string, string>();
  for (const name of refsBelow(defs.ProxyResponse ?? {})) {
    const wire = defs[name]?.["x-method"];
    if (typeof wire === "string") results.set(wire, name);
  }
  for (const [union, kind] of [
    ["ProxyRequest", "request"],
    ["ProxyNotification", "notification"],
  ] as const) {
    for (const name of refsBelow(defs[union] ?? {})) {
      const def = defs[name];
      const wire = def?.["x-method"];
      if (typeof wire !== "string") continue;
      const result = kind === "request" ? results.get(wire) : undefined;
      out.push(result === undefined ? { wire, side: "agent", kind, params: name } : { wire, side: "agent", kind, params: name, result });
    }
  }
  return out;
}

function refsBelow(node: unknown, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(node)) for (const n of node) refsBelow(n, out);
  else if (isNode(node)) {
    const name = refName(node.$ref);
    if (name) out.add(name);
    for (const [k, v] of Object.entries(node)) if (k !== "$ref") refsBelow(v, out);
  }
  return out;
}

/** Checks every invariant; throws a {@link TableError} listing all violations. */
export function checkTable(rows: readonly MethodRow[], schema: AcpSchema): void {
  const problems: string[] = [];
  const report = (row: MethodRow, field: string, what: string) => problems.push(`${rowLabel(row)}: field "${field}": ${what}`);
  const seenWire = new Map<string, MethodRow>();
  const seenCallback = new Map<string, MethodRow>();
  // 0. Shape first: the invariants below assume known keys and values.
  if (!checkShape(rows, report)) throw new TableError(problems);

  for (const row of rows) {
    // 1. (side, kind, wire) unique; callbacks unique per side ("both" counts for each). One wire may be
    // a request and a notification on one side (`proxy/successor`): the router looks rows up by kind.
    for (const side of handlingSides(row.side)) {
      const wireKey = `${side} ${row.kind} ${row.wire}`;
      if (seenWire.has(wireKey)) report(row, "wire", `duplicate: "${row.wire}" is already handled by the ${side} side as a ${row.kind}`);
      seenWire.set(wireKey, row);
      if (row.callback !== undefined) {
        const cbKey = `${side} ${row.callback}`;
        const other = seenCallback.get(cbKey);
        if (other) report(row, "callback", `duplicate callback "${row.callback}" on the ${side} side (also ${rowLabel(other)})`);
        seenCallback.set(cbKey, row);
      }
    }
    // 2. notification ⇔ no result.
    if (row.kind === "notification" && row.result !== undefined) report(row, "result", "a notification has no result");
    if (row.kind === "request" && row.result === undefined) report(row, "result", "a request needs a result type");
    if (row.kind === "notification" && row.onCancel !== undefined) report(row, "onCancel", "a notification cannot be cancelled");
    // 3. layer != app ⇔ no callback.
    if (row.layer === "app" && row.callback === undefined) report(row, "callback", 'an "app" row needs a callback');
    if (row.layer !== "app" && row.callback !== undefined) report(row, "callback", `a "${row.layer}" row is handled by the connection and has no callback`);
    if (row.callback !== undefined && !/^[A-Za-z_$][\w$]*$/.test(row.callback)) report(row, "callback", `"${row.callback}" is not an identifier`);
    if (row.callback === "extMethod" || row.callback === "extNotification") report(row, "callback", `"${row.callback}" is reserved for unregistered extension methods`);
    // 4. prefixes.
    if (row.wire.startsWith("_") !== (row.extension === true)) {
      report(row, "wire", row.extension ? 'an extension row\'s wire must start with "_"' : '"_"-prefixed wires are only allowed on registered extension rows (extension: true)');
    }
    if (row.wire.startsWith("$/") !== (row.layer === "protocol")) report(row, "wire", '"$/" wires and protocol rows go together');
    if (row.wire.startsWith("rpc.")) report(row, "wire", '"rpc." is reserved by JSON-RPC 2.0');
    if (row.wire.length === 0) report(row, "wire", "empty wire method");
    if (row.side === "both" && row.layer !== "protocol") report(row, "side", 'only protocol rows are handled by "both" sides');
    if (row.auth && row.side !== "agent") report(row, "auth", "only agent rows can require authentication");
    if (row.cancelsSession && (row.side !== "agent" || row.kind !== "request")) report(row, "cancelsSession", "only agent requests can cancel a session");
    if (row.lifecycle !== undefined && (row.side !== "agent" || row.kind !== "request")) report(row, "lifecycle", "only agent requests change the connection's lifecycle");
    if (row.optional) {
      if (row.callback === undefined) report(row, "optional", "only rows with a callback can be optional");
      else if (row.capability !== undefined) report(row, "optional", "a row gated by a capability is optional already");
      else if (row.lifecycle === "initialize") report(row, "optional", "the initialize row cannot be optional: every agent answers it");
    }
    // params / result exist (or are inline on extension rows).
    for (const field of ["params", "result"] as const) {
      const ref = row[field];
      if (ref === undefined) continue;
      if (typeof ref === "string") {
        if (!schema.$defs[ref]) report(row, field, `"${ref}" is not a $defs name in the schema`);
      } else if (!row.extension) {
        report(row, field, "inline schemas are only allowed on registered extension rows");
      }
    }
    // 5. capability paths exist in the handling side's capability type.
    if (row.capability !== undefined) {
      if (row.side === "both") report(row, "capability", "protocol rows are never gated");
      else {
        const missing = missingCapability(schema, row.side, row.capability);
        if (missing !== undefined) report(row, "capability", missing);
      }
    }
  }

  const initializers = rows.filter((r) => r.lifecycle === "initialize");
  if (initializers.length !== 1) problems.push(`table: field "lifecycle": exactly one row must be "initialize" (found ${initializers.length})`);

  // 6. Cross-check with the schema, both ways.
  const stable = stableMethodsFromSchema(schema);
  for (const m of stable) {
    const row = rows.find((r) => r.wire === m.wire && r.side === m.side);
    if (!row) {
      problems.push(`row "${m.wire}" (${m.side}): missing: the schema defines this ${m.kind} (${m.params}) but the table has no row for it`);
      continue;
    }
    if (row.kind !== m.kind) report(row, "kind", `the schema says "${m.kind}"`);
    if (row.params !== m.params) report(row, "params", `the schema's definition is "${m.params}"`);
    if (m.result !== undefined && row.result !== m.result) report(row, "result", `the schema's definition is "${m.result}"`);
  }
  const proxy = proxyMethodsFromSchema(schema);
  for (const row of rows) {
    if (row.extension) continue;
    const spoken = proxy.find((m) => m.wire === row.wire && m.kind === row.kind);
    if (spoken !== undefined && row.side !== "both") {
      if (row.params !== spoken.params) report(row, "params", `the schema's definition is "${spoken.params}"`);
      if (spoken.result !== undefined && row.result !== spoken.result) report(row, "result", `the schema's definition is "${spoken.result}"`);
      continue;
    }
    if (!stable.some((m) => m.wire === row.wire && m.side === row.side)) report(row, "wire", "the schema defines no such method for this side");
  }
  checkColumns(rows, schema, report, (side, path) => missingCapability(schema, side, path));
  if (problems.length > 0) throw new TableError(problems);
}

function handlingSides(side: Side): readonly ("agent" | "client")[] {
  return side === "both" ? ["agent", "client"] : [side];
}

/** Describes why `path` is not a property path of the side's capability type, or undefined when it is. */
function missingCapability(schema: AcpSchema, side: "agent" | "client", path: readonly string[]): string | undefined {
  const typeName = side === "agent" ? "AgentCapabilities" : "ClientCapabilities";
  if (path.length === 0) return "empty capability path";
  let node: SchemaNode | undefined = schema.$defs[typeName];
  for (let i = 0; i < path.length; i++) {
    const key = path[i] as string;
    const prop = node ? findProperty(schema, node, key) : undefined;
    if (!prop) return `"${path.slice(0, i + 1).join(".")}" is not a property of ${typeName}`;
    node = prop;
  }
  return undefined;
}

function findProperty(schema: AcpSchema, node: SchemaNode, key: string, depth = 0): SchemaNode | undefined {
  if (depth > 8) return undefined;
  const props = node.properties;
  if (isNode(props) && isNode(props[key])) return props[key];
  const target = refName(node.$ref);
  if (target) {
    const def = schema.$defs[target];
    if (def) return findProperty(schema, def, key, depth + 1);
  }
  for (const kw of ["allOf", "anyOf", "oneOf"] as const) {
    for (const b of branches(node, kw)) {
      const found = findProperty(schema, b, key, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}
