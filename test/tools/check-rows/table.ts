/**
 * The one table of `npm run test:check-rows`: every catalogue row (v1, v1 unstable, v2, v2 unstable; agent
 * and client side) that `check` or `check --client` can mark pass, each with the run that makes it pass and
 * the fault that makes it fail (agent-v1.ts, agent-v2.ts, client.ts), and the rows that can never be failed,
 * each with why (never.ts). The rows check can mark pass are found two ways: every catalogue id the probes'
 * source names (tools/check for the agent side, tools/check-client for the client side), and every row that
 * passes in any run of the table.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import v1 from "../../../docs/conformance-catalogue.json" with { type: "json" };
import v1Unstable from "../../../docs/conformance-catalogue-unstable.json" with { type: "json" };
import v2 from "../../../docs/conformance-catalogue-v2.json" with { type: "json" };
import v2Unstable from "../../../docs/conformance-catalogue-v2-unstable.json" with { type: "json" };
import { V1_TO_V2 } from "../../../tools/check-client/v2.ts";
import { repoRoot } from "../support.ts";
import { V1_FAULTS, V1_PASSES } from "./agent-v1.ts";
import { V2_FAULTS, V2_PASSES } from "./agent-v2.ts";
import { CLIENT_FAULTS, CLIENT_PASSES } from "./client.ts";
import type { FaultCase, PlainPass } from "./modes.ts";
import { NEVER_FAILABLE } from "./never.ts";
import { runKey } from "./run.ts";

type Entry = { readonly id: string; readonly tier: string; readonly side: string };
/** Every catalogue entry, by id, with the version of its catalogue. */
export const CATALOGUE: ReadonlyMap<string, Entry & { readonly version: 1 | 2 }> = new Map<string, Entry & { readonly version: 1 | 2 }>([
  ...[...v1, ...v1Unstable].map((e): [string, Entry & { readonly version: 1 | 2 }] => [e.id, { id: e.id, tier: e.tier, side: e.side, version: 1 }]),
  ...[...v2, ...v2Unstable].map((e): [string, Entry & { readonly version: 1 | 2 }] => [e.id, { id: e.id, tier: e.tier, side: e.side, version: 2 }]),
]);

/** One row of the table: the side check scores it on, the run that passes it, the run and fault that fail it. */
export interface TableRow {
  readonly id: string;
  readonly side: "agent" | "client";
  readonly version: 1 | 2;
  readonly pass: string;
  readonly fail: { readonly run: string; readonly fault: string };
}

/** A side's cases, and the rows they hold, by id. */
function rowsOf(side: "agent" | "client", passes: readonly PlainPass[], faults: readonly FaultCase[]): TableRow[] {
  const passRun = new Map<string, string>();
  for (const p of passes) for (const id of p.rows) if (!passRun.has(id)) passRun.set(id, p.base);
  for (const f of faults) for (const id of f.passes ?? []) if (!passRun.has(id)) passRun.set(id, runKey(f));
  const out: TableRow[] = [];
  for (const f of faults) {
    for (const id of f.fails ?? []) {
      if (out.some((r) => r.id === id && r.side === side)) continue;
      out.push({ id, side, version: CATALOGUE.get(id)?.version ?? 1, pass: passRun.get(id) ?? "", fail: { run: runKey(f), fault: f.fault } });
    }
  }
  // A row with a pass run and no fault is in the table too, with an empty fault: the test names it.
  for (const [id, run] of passRun) if (!out.some((r) => r.id === id && r.side === side)) out.push({ id, side, version: CATALOGUE.get(id)?.version ?? 1, pass: run, fail: { run: "", fault: "" } });
  return out;
}

/** The table. */
export const TABLE: readonly TableRow[] = [...rowsOf("agent", [...V1_PASSES, ...V2_PASSES], [...V1_FAULTS, ...V2_FAULTS]), ...rowsOf("client", CLIENT_PASSES, CLIENT_FAULTS)];

/** Every catalogue id named in the source files of `dir` (a folder of tools/), kept to the rows that bind `side`. */
function named(dir: string, side: "agent" | "client"): Set<string> {
  const out = new Set<string>();
  const folder = join(repoRoot, "tools", dir);
  for (const file of readdirSync(folder).filter((f) => f.endsWith(".ts"))) {
    for (const m of readFileSync(join(folder, file), "utf8").matchAll(/ACP-[A-Z]+(?:-[A-Z]+)*-\d{3}/g)) {
      const e = CATALOGUE.get(m[0]);
      if (e !== undefined && e.side !== (side === "agent" ? "client" : "agent")) out.add(m[0]);
    }
  }
  return out;
}

/** The rows check's probes name, by side: the candidates for "rows check can mark pass". A client's v1 id counts for its v2 row too. */
export function probedRows(): { readonly agent: ReadonlySet<string>; readonly client: ReadonlySet<string> } {
  const client = named("check-client", "client");
  for (const id of [...client]) {
    const v2row = V1_TO_V2[id];
    if (v2row !== undefined) client.add(v2row);
  }
  return { agent: named("check", "agent"), client };
}

/** Why a row is never failed: its tier (MAY grants, tier none has no keyword: score.ts) or the hand-written reason. */
export function neverWhy(id: string, side: "agent" | "client"): string | undefined {
  const e = CATALOGUE.get(id);
  if (e?.tier === "MAY") return "a MAY grants a permission: check turns what would break it into a note, never a fail (tools/check/score.ts)";
  if (e?.tier === "none") return "the cited text has no normative keyword: what breaks it is a note, never a fail (tools/check/score.ts)";
  return NEVER_FAILABLE[side][id];
}
