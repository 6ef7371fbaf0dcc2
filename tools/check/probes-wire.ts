/**
 * The probes of `check` that need no session, so they run whatever the
 * agent's authentication says: an unparsable line, JSON-RPC 2.0's own
 * example of an invalid Request object (-32600, id null), ids a receiver
 * may serve or refuse (an id-only message, which is response-shaped and
 * needs no answer, and id 1.5: both only noted), the request ids of
 * probes-ids.ts (ids every implementation holds must come back exactly; ids
 * beyond ±(2^53−1) are interoperability findings), an unknown method, a
 * custom `_` request, two
 * unrecognised notifications (an answer to either is a violation, read from
 * the traffic), array params, a request split across writes ending in CRLF,
 * and whether the connection still serves after all of them. Each probe
 * sends exactly what its row is about. The ids each probe scores come from
 * the protocol's catalogue (`WireIds`); a probe whose requirement the
 * catalogue lacks still runs for its evidence on other rows.
 */
import { answerOf, describeError, errorCode, isResponse, quoteText, type Run, show, silent, step, withSentinel, quote } from "./kit.ts";
import { fail, pass } from "./score.ts";
import { ErrorCode } from "../../src/errors.ts";
import { idProbes } from "./probes-ids.ts";

/** Catalogue ids for the wire probes; undefined when the catalogue has none. */
export interface WireIds {
  readonly parse: string | undefined;
  readonly invalid: string | undefined;
  readonly unknownMethod: string | undefined;
  readonly extAnswered: string;
  readonly idEcho: string;
  readonly notificationAnswered: string;
  readonly notificationIgnored: string;
  readonly envelope: string | undefined;
  readonly framing: string;
  readonly serving: string | undefined;
}

export const V1_WIRE: WireIds = {
  parse: "ACP-INFO-PARSE-001",
  invalid: "ACP-INFO-INVALIDREQ-001",
  unknownMethod: "ACP-JSONRPC-004",
  extAnswered: "ACP-EXT-001",
  idEcho: "ACP-JSONRPC-001",
  notificationAnswered: "ACP-JSONRPC-003",
  notificationIgnored: "ACP-EXT-201",
  envelope: "ACP-JSONRPC-101",
  framing: "ACP-TRANSPORT-203",
  serving: "ACP-JSONRPC-005",
};

export const V2_WIRE: WireIds = {
  parse: undefined,
  invalid: undefined,
  unknownMethod: undefined,
  extAnswered: "ACP-EXT-302",
  idEcho: "ACP-JSONRPC-302",
  notificationAnswered: "ACP-JSONRPC-307",
  notificationIgnored: "ACP-EXT-303",
  envelope: undefined,
  framing: "ACP-TRANSPORT-302",
  serving: undefined,
};

/** The ids a set of wire probes scores. */
export const wireRows = (ids: WireIds): string[] => Object.values(ids).filter((v): v is string => v !== undefined);

/** JSON-RPC 2.0 §7's example of an invalid Request object ("rpc call with invalid Request object"): answered -32600 with id null. */
export const INVALID_REQUEST = '{"jsonrpc":"2.0","method":1,"params":"bar"}';
const on = (run: Run, id: string | undefined, v: Parameters<Run["card"]["score"]>[1]) => {
  if (id !== undefined) run.card.score(id, v);
};

export async function wireProbes(run: Run, ids: WireIds): Promise<void> {
  const { d } = run;
  const own = <T>(x: T | undefined): T[] => (x === undefined ? [] : [x]);

  await step(run, "parse error", own(ids.parse), async () => {
    const { found, sentinel } = await withSentinel(
      run,
      () => d.write("this is not json\n"),
      (l) => isResponse(l) && errorCode(l.body) === ErrorCode.ParseError,
    );
    const answer = found[0];
    if (answer !== undefined) on(run, ids.parse, answer.body?.id === null ? pass : fail(`a line that is not JSON was answered ${show(answer.body)} (id should be null)`));
    else on(run, ids.parse, sentinel === undefined ? silent(run, ids.parse ?? "", d.lastRequestId, "no -32700 answer, and no answer to the next request,") : fail(`a line that is not JSON got no -32700 answer (the request sent after it was answered)`));
  });

  await step(run, "invalid request", own(ids.invalid), async () => {
    // JSON-RPC 2.0 §7's own example of an invalid Request object: valid JSON, a method that is not a string, no id.
    const { found, sentinel } = await withSentinel(
      run,
      () => d.write(`${INVALID_REQUEST}\n`),
      (l) => isResponse(l) && (l.body?.id === null || l.body?.id === undefined),
    );
    const answer = found[0];
    const sent = `check sent ${INVALID_REQUEST} (JSON-RPC 2.0 §7's example of an invalid Request object)`;
    if (answer !== undefined) on(run, ids.invalid, answer.body?.id === null && errorCode(answer.body) === ErrorCode.InvalidRequest ? pass : fail(`${sent}; the agent answered ${quote(d, answer)}, not -32600 with id null`));
    else on(run, ids.invalid, sentinel === undefined ? silent(run, ids.invalid ?? "", d.lastRequestId, `${sent}; no answer to it nor to the next request`) : fail(`${sent}; no answer came, and the request check sent after it was answered`));
  });

  await step(run, "id-only message", [], async () => {
    // {"jsonrpc":"2.0","id":77} has no method, no result and no error: the shape of a stray response, which JSON-RPC asks nobody to
    // answer (a server replies to requests; this is none). Whatever the agent does with it is noted, never scored.
    const { found } = await withSentinel(
      run,
      () => d.write('{"jsonrpc":"2.0","id":77}\n'),
      (l) => isResponse(l) && (l.body?.id === 77 || l.body?.id === null),
    );
    run.card.notes.push(`an id-only message {"jsonrpc":"2.0","id":77} (no requirement: it is response-shaped, and JSON-RPC asks no answer to it) was ${found[0] === undefined ? "not answered" : `answered ${quote(d, found[0])}`}`);
  });

  await step(run, "fractional id", [], async () => {
    const line = '{"jsonrpc":"2.0","id":1.5,"method":"_acp-router.check/fractional_id","params":{}}\n';
    const { found } = await withSentinel(
      run,
      () => d.write(line),
      (l) => isResponse(l) && (l.body?.id === 1.5 || (l.body?.id === null && errorCode(l.body) === ErrorCode.InvalidRequest)),
    );
    const answer = found[0];
    // JSON-RPC allows any number as an id; the schema's RequestId prose says fractional parts SHOULD NOT be used (by the sender),
    // not that a receiver must refuse them. Served or refused, it is noted, never scored: neither is evidence of any row.
    if (answer !== undefined) run.card.notes.push(`a request with id 1.5 (fractional ids SHOULD NOT be sent, but JSON-RPC allows them) was ${answer.body?.id === 1.5 ? "served as a request" : "refused with id null"}: ${quote(d, answer)}`);
  });

  await step(run, "unknown method", own(ids.unknownMethod), async () => {
    const unknown = await d.request("session/no_such_method", {});
    if (unknown === undefined) on(run, ids.unknownMethod, silent(run, ids.unknownMethod ?? ids.idEcho));
    else on(run, ids.unknownMethod, errorCode(unknown) === ErrorCode.MethodNotFound ? pass : fail(`session/no_such_method was answered ${show(unknown)}`));
  });

  await step(run, "custom request", [ids.extAnswered, ids.idEcho], async () => {
    const ext = await d.request("_acp-router.check/no_such_method", {});
    run.card.score(ids.extAnswered, ext !== undefined ? pass : silent(run, ids.extAnswered));
    // Ids every implementation holds judge the id-echo MUST; ids beyond ±(2^53−1) are interoperability findings (probes-ids.ts).
    if (ext !== undefined) await idProbes(run, ids.idEcho, run.options.strictIds === true);
    else run.card.notes.push(`${ids.idEcho}: the id probes did not run: the agent answered no custom request`);
  });

  await step(run, "notifications", [ids.notificationAnswered, ids.notificationIgnored], async () => {
    for (const method of ["_acp-router.check/note", "session/no_such_notification"]) {
      const { found, sentinel } = await withSentinel(
        run,
        () => d.notify(method, { n: 1 }),
        (l) => isResponse(l) && (l.body?.id === null || l.body?.id === undefined),
      );
      if (found.length > 0) {
        const evidence = `the notification ${method} was answered: ${quote(d, found[0]!)}`;
        // One observation, two rows (the MUST NOT and the SHOULD): shown once, counted once.
        run.card.all([ids.notificationAnswered, ids.notificationIgnored], fail(evidence));
      } else if (sentinel !== undefined) run.card.all([ids.notificationAnswered, ids.notificationIgnored], pass);
    }
  });

  await step(run, "array params", own(ids.envelope), async () => {
    const envelope = await d.request("session/prompt", [1]);
    if (envelope === undefined) on(run, ids.envelope, silent(run, ids.envelope ?? ""));
    else on(run, ids.envelope, envelope.error !== undefined ? pass : fail(`a request with array params (ACP params are objects) was answered with a result: ${show(envelope)}`));
  });

  await step(run, "framing", [ids.framing, ...own(ids.serving)], async () => {
    // One request split across two writes, ending with CRLF.
    const split = JSON.stringify({ jsonrpc: "2.0", id: 4242, method: "session/no_such_method", params: { framing: true } });
    const at = d.lines.length;
    d.write(split.slice(0, 20));
    await new Promise((r) => setTimeout(r, 50));
    d.write(`${split.slice(20)}\r\n`);
    const framed = await d.waitFor(answerOf(4242), d.timeout, at);
    run.card.score(ids.framing, framed !== undefined ? pass : silent(run, ids.framing, 4242, "a request split across two writes, ending in CRLF, got no answer"));
    // After every hostile line above: does the connection still serve a plain request?
    const after = await d.request("_acp-router.check/still_serving", {});
    on(run, ids.serving, after !== undefined ? pass : silent(run, ids.serving ?? "", d.lastRequestId, "after the hostile inputs, no answer to a plain request"));
    if (after?.error !== undefined && errorCode(after) !== ErrorCode.MethodNotFound) run.card.notes.push(`a plain _ request after the hostile inputs was answered ${describeError(after)}`);
  });
}
