/**
 * The v1 rows of `check` that the whole traffic of both runs decides: UTF-8,
 * request ids, error messages, the version kept, extensions advertised, W3C
 * trace context in `_meta`, and custom root fields (a field an earlier
 * published schema defined is drift, a note).
 */
import type { AgentLine } from "./driver.ts";
import { isResponse, quote, type Run, show } from "./kit.ts";
import { describeErrors, resultShape } from "./schema-shape.ts";
import { fail, na, pass } from "./score.ts";
import { withdrawn } from "./withdrawn-fields.ts";
import { traceContextUses } from "./trace-context.ts";
import { isObj, type Obj } from "./depth-kit.ts";
import { SCHEMA_DEFS } from "./schema-defs.ts";

/** The properties of the v1 schema's (stable and unstable) response and notification types, by name; null when the schema is not installed. */
export function properties(): Map<string, Set<string>> | null {
  const files = [SCHEMA_DEFS[1].stable, SCHEMA_DEFS[1].unstable];
  if (files.some((defs) => defs === undefined)) return null;
  const out = new Map<string, Set<string>>();
  for (const defs of files) {
    for (const name of ["InitializeResponse", "NewSessionResponse", "LoadSessionResponse", "PromptResponse", "SessionNotification"]) {
      const set = out.get(name) ?? new Set<string>();
      for (const k of Object.keys(defs?.[name]?.properties ?? {})) set.add(k);
      out.set(name, set);
    }
  }
  return out;
}

/** Rows the whole traffic decides: UTF-8, ids, error messages, the version kept, custom root fields. */
export function trafficRows(run: Run, init: Obj, lines: readonly AgentLine[], twoRuns: boolean): void {
  const { card } = run;
  // Bytes that are not UTF-8 break it; a U+FFFD character the agent sent as such (valid UTF-8, EF BF BD) does not.
  const bad = run.d.utf8.invalid;
  card.score("ACP-TRANSPORT-002", bad === undefined ? pass : fail(`the agent's stdout holds bytes that are not UTF-8 at byte ${bad.offset}: ${bad.hex}`));
  const requests = lines.filter((l) => typeof l.body?.method === "string" && l.body.id !== undefined);
  // The id of a request the agent sent is a string, a number or null; any other type breaks ACP-JSONRPC-102.
  const badId = requests.find((l) => !(typeof l.body?.id === "string" || typeof l.body?.id === "number" || l.body?.id === null));
  if (badId !== undefined) card.score("ACP-JSONRPC-102", fail(`the agent sent a request whose id is not a string, a number or null: ${quote(run.d, badId)}`));
  else if (lines.some((l) => l.body?.id !== undefined)) card.score("ACP-JSONRPC-102", pass);
  if (requests.length === 0) card.score("ACP-JSONRPC-103", na(`the agent sent no request${twoRuns ? " in either run" : ""}`));
  else {
    const odd = requests.find((l) => l.body?.id === null || (typeof l.body?.id === "number" && !Number.isInteger(l.body.id)));
    card.score("ACP-JSONRPC-103", odd === undefined ? pass : fail(`the agent sent a request with id ${show(odd.body?.id)}: ${quote(run.d, odd)}`));
  }
  const errors = lines.filter((l) => isResponse(l) && isObj(l.body?.error)).map((l) => ({ l, message: (l.body!.error as Obj).message }));
  const wordy = errors.find((e) => typeof e.message !== "string" || e.message.trim() === "" || e.message.includes("\n") || e.message.length > 300);
  card.score("ACP-ERROR-001", errors.length === 0 ? na("the agent sent no error") : wordy === undefined ? pass : fail(`an error message that is not one concise sentence: ${show(wordy.message)}`));
  // The initialize answer is the agent's v1 conduct check can hold against the v1 schema; inspect's schema findings on the rest fail their own rows.
  const shape = resultShape(1, "initialize", init);
  if (shape === undefined || shape.errors.length === 0 || shape.repairable) card.score("ACP-INIT-103", pass);
  else {
    const answer = run.d.lines.find((l) => isResponse(l) && isObj(l.body?.result) && "protocolVersion" in (l.body.result as Obj));
    card.score("ACP-INIT-103", fail(`${answer === undefined ? "the initialize answer" : `the agent answered ${quote(run.d, answer)}`}: not a v1 InitializeResponse (${describeErrors(shape.errors)})`));
    card.link("ACP-INIT-103", "ACP-INIT-001", "the same initialize answer, which inspect's schema check also holds against ACP-INIT-001");
  }
  // Extensions: a custom `_` request check sent that got a result shows an extension, which should be advertised in a capability's _meta.
  const served = run.d.lines.filter((l) => isResponse(l) && l.body?.result !== undefined && typeof l.body.id === "number" && run.d.sent.get(l.body.id)?.startsWith("_") === true && run.d.sent.get(l.body.id) !== "_acp-router.check/sentinel");
  const caps = isObj(init.agentCapabilities) ? init.agentCapabilities : {};
  const advertised = isObj(caps._meta) && Object.keys(caps._meta).length > 0;
  card.all(["ACP-EXT-103", "ACP-EXT-202"], served.length === 0 ? na("the agent served none of check's custom `_` requests: no extension seen") : advertised ? pass : fail("the agent served a custom `_` request with a result, but advertises nothing under agentCapabilities._meta"));
  // ACP-META-101, the part on the wire: the reserved _meta keys, wherever the agent writes them, hold W3C trace context.
  const traces = lines.flatMap((l) => traceContextUses(l.body).map((u) => ({ ...u, l })));
  const badTrace = traces.find((u) => u.problem !== undefined);
  card.score(
    "ACP-META-101",
    traces.length === 0 ? na("the agent wrote none of the _meta keys reserved for W3C trace context (traceparent, tracestate, baggage)") : badTrace === undefined ? pass : fail(`in the agent's _meta, ${badTrace.problem!}; the key is reserved for W3C trace context: ${quote(run.d, badTrace.l)}`),
  );
  const props = properties();
  if (props === null) return card.score("ACP-SCHEMA-002", na("the v1 schema (@agentclientprotocol/sdk) is not installed: no list of fields to compare with"));
  const extra: string[] = [];
  const drift = new Set<string>();
  const check = (name: string, value: unknown, where: string) => {
    if (!isObj(value)) return;
    const known = props.get(name)!;
    for (const k of Object.keys(value)) {
      if (known.has(k)) continue;
      // A field an earlier published schema defined is protocol data of that version (schema drift), not a custom field.
      const w = withdrawn(name, k);
      if (w !== undefined) drift.add(`ACP-SCHEMA-002: ${where} has the field ${JSON.stringify(k)}, which ${name} had in ${w.definedIn} and the schema withdrew in ${w.withdrawnIn}; schema drift, not a custom field`);
      else extra.push(`${where} has the field ${JSON.stringify(k)}`);
    }
  };
  for (const l of lines) {
    if (l.body?.method === "session/update") check("SessionNotification", l.body.params, "a session/update's params");
    else if (isResponse(l) && isObj(l.body?.result)) {
      const r = l.body.result;
      if ("protocolVersion" in r) check("InitializeResponse", r, "the initialize answer");
      else if ("stopReason" in r) check("PromptResponse", r, "a session/prompt answer");
      else if ("sessionId" in r) check("NewSessionResponse", r, "a session/new answer");
      else if (run.d.sent.get(l.body.id as number) === "session/load") check("LoadSessionResponse", r, "a session/load answer");
    }
  }
  card.notes.push(...drift);
  card.score("ACP-SCHEMA-002", extra.length === 0 ? pass : fail(`custom fields at the root of spec types, which no published ACP schema defines (custom data goes in _meta): ${[...new Set(extra)].slice(0, 3).join("; ")}`));
}
