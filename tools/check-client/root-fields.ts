/**
 * Custom fields at the root of the params a client sends (v1 ACP-SCHEMA-002,
 * v2 ACP-EXT-304: custom data goes in `_meta`), judged against every field a
 * published schema defines for the request's params type (the stable and
 * unstable schemas of @agentclientprotocol/sdk, v1 and v2), so a field of an
 * unstable feature, or of the other version (v1's `clientCapabilities` in a
 * v2 initialize: drift, as check rules on an agent's answers), is no finding. Only the params of the requests and
 * notifications a client sends to an agent are looked at.
 */
import { SCHEMA_DEFS } from "../check/schema-defs.ts";

/** The params fields each client-sent method has in the schemas of `version`, by method name. */
function fieldsByMethod(version: 1 | 2): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const defs of [SCHEMA_DEFS[version].stable, SCHEMA_DEFS[version].unstable]) {
    if (defs === undefined) throw new Error(`check --client needs @agentclientprotocol/sdk's v${version} schemas to judge custom root fields`);
    for (const [name, def] of Object.entries(defs)) {
      const method = def["x-method"];
      // The params types (…Request, …Notification) of the methods an agent handles; their answers share the x-method.
      if (typeof method !== "string" || def["x-side"] !== "agent" || def.properties === undefined || !/(Request|Notification)$/.test(name)) continue;
      const set = out.get(method) ?? new Set<string>();
      for (const k of Object.keys(def.properties)) set.add(k);
      out.set(method, set);
    }
  }
  return out;
}

/** The first root field of a client message's params that no published schema defines for its method: "method: field". */
export function customRootField(version: 1 | 2, bodies: readonly Record<string, unknown>[]): string | undefined {
  const fields = fieldsByMethod(version);
  const other = fieldsByMethod(version === 1 ? 2 : 1);
  for (const b of bodies) {
    if (typeof b.method !== "string" || typeof b.params !== "object" || b.params === null || Array.isArray(b.params)) continue;
    const known = fields.get(b.method);
    if (known === undefined) continue;
    const extra = Object.keys(b.params).find((k) => !known.has(k) && other.get(b.method as string)?.has(k) !== true);
    if (extra !== undefined) return `${b.method}'s params have the field ${JSON.stringify(extra)}`;
  }
  return undefined;
}
