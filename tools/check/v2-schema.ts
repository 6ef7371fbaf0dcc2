/**
 * What the v2 schema says of one message, for `check`'s v2 rows that depend
 * on the shape of what the agent sent: the initialize answer of an agent that
 * claims protocol 2 (ACP-INIT-382 when it is not a v2 `InitializeResponse`)
 * and the `authMethods` entries ACP-AUTH-301's condition names ("Returning
 * one or more valid entries…"). Validated with the generated validators of
 * the v2 unstable table (a superset of stable v2, so an unstable field is
 * no finding), first strictly and then with the schema's own leniency
 * (`x-deserialize-*`): a message the leniency repairs is a note, never a fail.
 */
import { check, type FieldError } from "../../src/validation/check.ts";
import type { Protocol } from "../../src/protocol.ts";
import { protocol as v2Unstable } from "../../src/v2/unstable/generated/protocol.ts";

/** The v2 schema's verdict on one result: its errors as sent, and whether the schema's leniency repairs them all. */
export interface V2Shape {
  readonly errors: readonly FieldError[];
  /** True when every error is at a location the schema marks lenient (a receiver repairs it): not a breach of the schema. */
  readonly repairable: boolean;
  /** The schema type the result was checked against (`InitializeResponse`). */
  readonly type: string;
}

const table = v2Unstable as Protocol;

/** Validates the result of the agent-handled request `wire` against the v2 schema; undefined when the schema has no such result. */
export function v2ResultShape(wire: string, result: unknown): V2Shape | undefined {
  const row = table.inboundRow("agent", "request", wire);
  if (row?.result === undefined || row.resultType === undefined) return undefined;
  const strict = check(row.result, structuredClone(result), row.resultType, table.leniency, "strict");
  if (strict === undefined || strict.ok) return { errors: [], repairable: true, type: row.resultType };
  const repaired = check(row.result, structuredClone(result), row.resultType, table.leniency, "repair", "keep");
  return { errors: strict.errors, repairable: repaired?.ok !== false, type: row.resultType };
}

/** Validates the params of `wire`, a request or notification the agent sent to the client, against the v2 schema. */
export function v2ParamsShape(wire: string, kind: "request" | "notification", params: unknown): V2Shape | undefined {
  const row = table.inboundRow("client", kind, wire);
  if (row === undefined) return undefined;
  const strict = check(row.params, structuredClone(params ?? {}), row.paramsType, table.leniency, "strict");
  if (strict === undefined || strict.ok) return { errors: [], repairable: true, type: row.paramsType };
  const repaired = check(row.params, structuredClone(params ?? {}), row.paramsType, table.leniency, "repair", "keep");
  return { errors: strict.errors, repairable: repaired?.ok !== false, type: row.paramsType };
}

/** "/info: is required; /authMethods/0/methodId: is required", for evidence. */
export const describeErrors = (errors: readonly FieldError[]): string => errors.map((e) => `${e.path === "" ? "(root)" : e.path}: ${e.message}`).join("; ");

/** The indices of `authMethods` entries the schema finds no error in (the "valid entries" of ACP-AUTH-301). */
export function validAuthEntries(count: number, errors: readonly FieldError[]): number[] {
  const bad = new Set(errors.flatMap((e) => {
    const m = /^\/authMethods\/(\d+)(?:\/|$)/.exec(e.path);
    return m === null ? [] : [Number(m[1])];
  }));
  const whole = errors.some((e) => e.path === "/authMethods");
  return whole ? [] : Array.from({ length: count }, (_, i) => i).filter((i) => !bad.has(i));
}
