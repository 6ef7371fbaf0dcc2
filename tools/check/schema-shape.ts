/**
 * What the schema of the negotiated version says of one message, for
 * `check`'s rows that depend on the shape of what the agent sent: the
 * initialize answer (v1 ACP-INIT-103, v2 ACP-INIT-382: "agree on a protocol
 * version and act according to its specification"; droid's v1-shaped answer
 * to a v2 initialize), the `authMethods` entries ACP-AUTH-301's condition
 * names ("Returning one or more valid entries…"), and inspect's v2 schema
 * findings. Validated with the generated validators of that version's
 * unstable table (a superset of the stable one, so an unstable field is no
 * finding), first strictly and then with the schema's own leniency
 * (`x-deserialize-*`): a message the leniency repairs is a note, never a fail.
 */
import { check, type FieldError } from "../../src/validation/check.ts";
import type { Protocol } from "../../src/protocol.ts";
import { protocol as v1Unstable } from "../../src/unstable/generated/protocol.ts";
import { protocol as v2Unstable } from "../../src/v2/unstable/generated/protocol.ts";

/** The v2 schema's verdict on one result: its errors as sent, and whether the schema's leniency repairs them all. */
export interface V2Shape {
  readonly errors: readonly FieldError[];
  /** True when every error is at a location the schema marks lenient (a receiver repairs it): not a breach of the schema. */
  readonly repairable: boolean;
  /** The schema type the result was checked against (`InitializeResponse`). */
  readonly type: string;
}

const TABLES = { 1: v1Unstable as Protocol, 2: v2Unstable as Protocol } as const;

/** Validates the result of the agent-handled request `wire` against the v2 schema; undefined when the schema has no such result. */
export function v2ResultShape(wire: string, result: unknown): V2Shape | undefined {
  return resultShape(2, wire, result);
}

/** Validates the result of the agent-handled request `wire` against the schema of `version`; undefined when it has no such result. */
export function resultShape(version: 1 | 2, wire: string, result: unknown): V2Shape | undefined {
  const table = TABLES[version];
  const row = table.inboundRow("agent", "request", wire);
  if (row?.result === undefined || row.resultType === undefined) return undefined;
  const strict = check(row.result, structuredClone(result), row.resultType, table.leniency, "strict");
  if (strict === undefined || strict.ok) return { errors: [], repairable: true, type: row.resultType };
  const repaired = check(row.result, structuredClone(result), row.resultType, table.leniency, "repair", "keep");
  return { errors: strict.errors, repairable: repaired?.ok !== false, type: row.resultType };
}

/** Validates the params of `wire`, a request or notification the agent sent to the client, against the v2 schema. */
export function v2ParamsShape(wire: string, kind: "request" | "notification", params: unknown): V2Shape | undefined {
  return paramsShape(2, wire, kind, params);
}

/** Validates the params of `wire`, a request or notification the agent sent to the client, against the schema of `version`. */
export function paramsShape(version: 1 | 2, wire: string, kind: "request" | "notification", params: unknown): V2Shape | undefined {
  const table = TABLES[version];
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
  const bad = new Set(
    errors.flatMap((e) => {
      const m = /^\/authMethods\/(\d+)(?:\/|$)/.exec(e.path);
      return m === null ? [] : [Number(m[1])];
    }),
  );
  const whole = errors.some((e) => e.path === "/authMethods");
  return whole ? [] : Array.from({ length: count }, (_, i) => i).filter((i) => !bad.has(i));
}
