/** Single-message checks: the JSON-RPC envelope and schema validation with a generated validator. */
import type { MessageKind } from "../../src/jsonrpc/classify.ts";
import type { Row } from "../../src/row.ts";
import { check } from "../../src/validation/check.ts";
import { requirementForSchema, type RuleName, type Sender } from "./rules.ts";
import type { Table } from "./tables.ts";

/** Reports one violation; `by` defaults to the sender of the message being observed. */
export type Found = (rule: RuleName, message: string, by?: Sender, requirement?: string) => void;

/**
 * Checks `jsonrpc: "2.0"` on every message and, on requests and
 * notifications, that `params` is absent or an object. Returns true when the
 * envelope is well formed.
 */
export function checkEnvelope(m: Record<string, unknown>, kind: MessageKind, report: Found): boolean {
  if (kind === "unknown") return true;
  let ok = true;
  const what = typeof m.method === "string" ? `${m.method}` : `the answer to #${JSON.stringify(m.id)}`;
  if (m.jsonrpc !== "2.0") {
    ok = false;
    report("envelope", `${what}: jsonrpc is ${m.jsonrpc === undefined ? "missing" : JSON.stringify(m.jsonrpc)}, not "2.0"`);
  }
  if (kind !== "response" && m.params !== undefined && (typeof m.params !== "object" || m.params === null || Array.isArray(m.params))) {
    ok = false;
    report("envelope", `${what}: params is ${Array.isArray(m.params) ? "an array" : JSON.stringify(m.params)}, not an object`);
  }
  return ok;
}

/**
 * Validates `data` strictly against `row`'s params or result validator (a
 * row of `table`) and reports one violation listing every failing location.
 * Strict, not repaired: the schema's leniency is for receivers; a sender
 * should still write valid data.
 */
export function checkSchema(table: Table, row: Row<never, never>, part: "params" | "result", data: unknown, report: Found, by?: Sender): void {
  const validator = part === "params" ? row.params : row.result;
  const root = part === "params" ? row.paramsType : row.resultType;
  if (validator === undefined || root === undefined) return;
  const outcome = check(validator, data, root, table.router.leniency, "strict");
  if (outcome === undefined || outcome.ok) return;
  const where = outcome.errors.map((e) => `${e.path === "" ? "(root)" : e.path}: ${e.message}`).join("; ");
  report("schema", `${row.wire} ${part} do not match ${table.name} ${root}: ${where}`, by, requirementForSchema(row.wire, part, table.version));
}
