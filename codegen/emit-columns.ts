/**
 * Prints the newer, optional routing columns of a generated row (see
 * method-table.ts: `counterpart`, `callerCapability`, `objectCapability`,
 * `turnEnd`, `capabilityFields`, `repeatable`, `unbatched`). Only columns a
 * row sets are printed, so tables without them generate exactly as before.
 */
import type { MethodRow } from "../method-table.ts";
import { lit } from "./names.ts";

const COLUMNS = ["counterpart", "callerCapability", "objectCapability", "turnEnd", "capabilityFields", "repeatable", "unbatched", "envelope"] as const;

/** `callerCapability: [...], turnEnd: {...}` for the columns `row` sets, or "" when it sets none. */
export function rowColumns(row: MethodRow): string {
  const parts: string[] = [];
  for (const column of COLUMNS) {
    const value = row[column];
    if (value !== undefined && value !== false) parts.push(`${column}: ${lit(value)}`);
  }
  return parts.join(", ");
}
