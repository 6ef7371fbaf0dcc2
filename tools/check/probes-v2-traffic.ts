/**
 * The v2 rows of `check` decided after the session probes (probes-v2.ts): by a second start of the agent (an
 * initialize with a version below every version), and by the whole traffic (UTF-8, request ids, batches of lifecycle
 * messages, capabilities withheld, auth methods, custom root fields); and the v2 rows that restate another row, linked
 * to it so one observation counts once.
 */
import { properties } from "./probes-traffic-v1.ts";
import { exchange, quote, type Run, show } from "./kit.ts";
import { authRow, versionProbes } from "./probes-v2-init.ts";
import { clientOnlySubjects, judgeV2Traffic } from "./judge-v2-traffic.ts";
import { fail, na, pass } from "./score.ts";
import type { Driver } from "./driver.ts";
import { protocol as v2 } from "../../src/v2/generated/protocol.ts";

/** v2 rows that restate another row in other words (a second page, the schema): decided by the same observation, counted once. */
export const V2_RESTATED: readonly (readonly [string, string, string])[] = [
  ["ACP-PROMPT-308", "ACP-PROMPT-301", "the same rule as the migration guide and schema state it"],
  ["ACP-PROMPT-310", "ACP-PROMPT-303", "the same rule as the migration guide states it"],
  ["ACP-PROMPT-311", "ACP-PROMPT-302", "the same rule as the migration guide and schema state it"],
  ["ACP-PROMPT-312", "ACP-PROMPT-302", "the same idle state_update's stop reason"],
  ["ACP-CANCEL-316", "ACP-CANCEL-302", "the same rule as the migration guide states it"],
  ["ACP-AUTH-303", "ACP-AUTH-301", "the same rule as the schema states it"],
  ["ACP-INIT-308", "ACP-INIT-382", "the same initialize answer, judged against the v2 InitializeResponse"],
  ["ACP-CANCEL-309", "ACP-PERM-302", "the same permission request, answered cancelled after session/cancel: the agent stops waiting and does not proceed"],
];

/**
 * The v2 rows decided by a second start of the agent (initialize with a
 * version below every version: -32022 with data {requested, supported}) and
 * by the whole traffic: UTF-8, request ids, batches of lifecycle messages,
 * capabilities withheld, auth methods, custom root fields.
 */
export async function v2TrafficProbes(run: Run, init: Record<string, unknown>, spawn: ((label: string) => Driver) | undefined): Promise<void> {
  const { d, card } = run;
  card.all(["ACP-JSONRPC-304", "ACP-EXT-301"], na("a MAY: a permission, which no behaviour of the agent can break"));
  // check spoke to the agent over stdio throughout, and the agent answered.
  card.score("ACP-TRANSPORT-382", d.lines.length > 0 ? pass : na("the agent wrote nothing"));
  card.score("ACP-INIT-383", na("check's v2 client advertises no capability: one combination only is exercised"));
  await versionProbes(run, spawn);
  const lines = d.lines;
  // Bytes that are not UTF-8 break it; a U+FFFD character the agent sent as such (valid UTF-8, EF BF BD) does not.
  const bad = run.d.utf8.invalid;
  card.score("ACP-TRANSPORT-301", bad === undefined ? pass : fail(`the agent's stdout holds bytes that are not UTF-8 at byte ${bad.offset}: ${bad.hex}`));
  const requests = lines.filter((l) => typeof l.body?.method === "string" && l.body.id !== undefined);
  const badId = requests.find((l) => l.body?.id === null || (typeof l.body?.id === "number" && !Number.isInteger(l.body.id)));
  card.score("ACP-JSONRPC-301", requests.length === 0 ? na("the agent sent no request") : badId === undefined ? pass : fail(`the agent sent a request with id ${show(badId.body?.id)}`));
  const pending = new Set<unknown>();
  let reused: string | undefined;
  for (const l of lines) {
    if (typeof l.body?.method === "string" && l.body.id !== undefined) {
      if (pending.has(l.body.id)) reused ??= quote(d, l);
      pending.add(l.body.id);
    }
  }
  card.score("ACP-JSONRPC-303", requests.length < 2 ? na(requests.length === 0 ? "the agent sent no request" : "the agent sent one request") : reused === undefined ? pass : fail(`the agent reused a request id: ${reused}`));
  const lifecycle = lines.find((l) => l.text.startsWith("[") && /"method"\s*:\s*"(initialize|auth\/login|session\/new|session\/resume|session\/prompt)"/.test(l.text));
  card.score("ACP-JSONRPC-310", lifecycle === undefined ? pass : fail(`the agent batched a lifecycle message: ${quote(d, lifecycle)}`));
  const calls = requests.filter((l) => /^(fs|terminal|elicitation)\//.test(String(l.body?.method)));
  card.score("ACP-INIT-306", calls.length === 0 ? pass : fail(`check's client advertised no capability, yet the agent sent ${quote(d, calls[0]!)}`));
  await authRow(run, init, run.notV2);
  const extra: string[] = [];
  // A field another published ACP schema defines for the same type (v1's agentCapabilities, agentInfo) is protocol data of that
  // version, not a custom field: noted with the schema that has it (the same rule as v1's ACP-SCHEMA-002).
  const v1 = properties();
  const drift = new Set<string>();
  const judge = (type: string, k: string, where: string) => {
    if (v1?.get(type)?.has(k) === true) drift.add(`ACP-EXT-304: ${where} has the field ${JSON.stringify(k)}, which the v1 schema's ${type} defines: protocol data of another published version, not a custom field`);
    else extra.push(`${where} has the field ${JSON.stringify(k)}`);
  };
  for (const l of lines) {
    const r = l.body?.result as Record<string, unknown> | undefined;
    if (typeof r === "object" && r !== null && "protocolVersion" in r) for (const k of Object.keys(r)) if (!["protocolVersion", "capabilities", "authMethods", "info", "_meta"].includes(k)) judge("InitializeResponse", k, "the initialize answer");
    const p = l.body?.method === "session/update" ? (l.body.params as Record<string, unknown> | undefined) : undefined;
    if (p !== undefined) for (const k of Object.keys(p)) if (!["sessionId", "update", "_meta"].includes(k)) judge("SessionNotification", k, "a session/update's params");
  }
  card.notes.push(...drift);
  judgeV2Traffic(run, lines, init);
  clientOnlySubjects(run);
  // Extensions: a custom `_` request check sent that got a result shows an extension, which should be advertised in a capability's _meta.
  const served = d.lines.filter((l) => l.body?.method === undefined && l.body?.result !== undefined && typeof l.body.id === "number" && d.sent.get(l.body.id)?.startsWith("_") === true && d.sent.get(l.body.id) !== "_acp-router.check/sentinel");
  const caps = (init.capabilities ?? {}) as Record<string, unknown>;
  const advertised = typeof caps._meta === "object" && caps._meta !== null && Object.keys(caps._meta).length > 0;
  card.score(
    "ACP-EXT-305",
    served.length === 0
      ? na("the agent served none of check's custom `_` requests: no extension seen")
      : advertised
        ? pass
        : fail(`the agent served a custom \`_\` request with a result (${exchange(d, d.sentLine(served[0]!.body?.id as number), served[0])}), but advertises nothing under capabilities._meta`),
  );
  card.score("ACP-INIT-309", typeof init.capabilities === "object" && init.capabilities !== null ? pass : fail(`the initialize answer states no capabilities object: its result was ${show(init)}`));
  // An answer of v1's shape has v1's agentCapabilities instead: the same fact ACP-INIT-382 shows, counted once there.
  if (run.notV2 !== undefined) card.link("ACP-INIT-309", "ACP-INIT-382", "the agent answered protocol 2 with a v1 InitializeResponse, whose capabilities are v1's agentCapabilities");
  for (const [id, from, why] of V2_RESTATED) card.restate?.(id, from, why);
  card.score("ACP-EXT-304", extra.length === 0 ? pass : fail(`custom fields at the root of spec types, which no published ACP schema defines (custom data goes in _meta): ${[...new Set(extra)].slice(0, 3).join("; ")}`));
}
