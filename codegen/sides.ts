/** Per-side helpers shared by the router, handler and peer emitters. */
import type { MethodRow } from "../method-table.ts";
import { paramsTypeName, resultTypeName } from "./names.ts";

/** A side that handles rows (a `both` row is handled by each). */
export type HandlingSide = "agent" | "client";

/** Both handling sides, agent first (the order of every generated listing). */
export const SIDES: readonly HandlingSide[] = ["agent", "client"];

/** The rows `side` handles, in table order. */
export function handledBy(rows: readonly MethodRow[], side: HandlingSide): MethodRow[] {
  return rows.filter((r) => r.side === side || r.side === "both");
}

/** `agent` → `Agent`. */
export const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
/** `AgentContext` / `ClientContext`. */
export const contextType = (side: HandlingSide): string => `${cap(side)}Context`;
/** `AgentHandler` / `ClientHandler`. */
export const handlerType = (side: HandlingSide): string => `${cap(side)}Handler`;

/** The params and result type names of `rows`, sorted and unique. */
export function typeNames(rows: readonly MethodRow[]): string[] {
  const names = new Set<string>();
  for (const r of rows) {
    names.add(paramsTypeName(r));
    const res = resultTypeName(r);
    if (res) names.add(res);
  }
  return [...names].sort();
}

/** The handler may leave the row's method out: the table says so, or a capability gates it. */
export function isOptional(row: MethodRow): boolean {
  return row.optional === true || row.capability !== undefined || row.callerCapability !== undefined;
}
