/**
 * The requirements a `check` scorecard lists: every entry of the catalogue of
 * the negotiated protocol (docs/conformance-catalogue.json for v1,
 * docs/conformance-catalogue-v2.json for v2; v1 adds the unstable entries
 * of docs/conformance-catalogue-unstable.json, v2 those of
 * docs/conformance-catalogue-v2-unstable.json) that binds an agent (side
 * `agent` or `both`). Client-only entries are left out: an agent cannot
 * break them. The catalogues are read from the package's docs folder, so a
 * scorecard always matches the catalogue it names.
 */
import v1Entries from "../../docs/conformance-catalogue.json" with { type: "json" };
import v2Entries from "../../docs/conformance-catalogue-v2.json" with { type: "json" };
import unstableEntries from "../../docs/conformance-catalogue-unstable.json" with { type: "json" };
import v2UnstableEntries from "../../docs/conformance-catalogue-v2-unstable.json" with { type: "json" };

/** One catalogue entry as check uses it. */
export interface Entry {
  readonly id: string;
  readonly tier: string;
  readonly statement: string;
  readonly side: string;
  /** False when no traffic can decide the requirement; `unobservable` says why. Absent: observable. */
  readonly observable?: boolean | undefined;
  readonly unobservable?: string | undefined;
}

/** The requirements of one protocol version. */
export interface Checklist {
  readonly version: 1 | 2;
  /** Shown in the scorecard: which catalogue the rows come from. */
  readonly catalogue: string;
  readonly entries: readonly Entry[];
  tier(id: string): string;
}

const make = (version: 1 | 2, catalogue: string, all: readonly Entry[]): Checklist => {
  const entries = all.filter((e) => e.side !== "client");
  const tiers = new Map(all.map((e) => [e.id, e.tier]));
  return { version, catalogue, entries, tier: (id) => tiers.get(id) ?? "?" };
};

/** v1: the 123 agent-side entries of docs/conformance-catalogue.json, then the agent-side entries of docs/conformance-catalogue-unstable.json (unstable v1 features, judged when advertised). */
export const V1_CHECKLIST: Checklist = make(1, "docs/conformance-catalogue.json (ACP v1) and docs/conformance-catalogue-unstable.json", [...v1Entries, ...unstableEntries]);
/** v2: the agent-side entries of docs/conformance-catalogue-v2.json, then those of docs/conformance-catalogue-v2-unstable.json (unstable v2 features, judged when advertised). */
export const V2_CHECKLIST: Checklist = make(2, "docs/conformance-catalogue-v2.json (ACP v2) and docs/conformance-catalogue-v2-unstable.json", [...v2Entries, ...v2UnstableEntries]);
