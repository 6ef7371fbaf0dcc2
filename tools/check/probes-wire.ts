/**
 * The probes of `check` that need no session, so they run whatever the
 * agent's authentication says: an unparsable line, JSON-RPC 2.0's own
 * example of an invalid Request object (-32600, id null), ids a receiver
 * may serve or refuse (an id-only message, which is response-shaped and
 * needs no answer, and id 1.5: both only noted), ids around 2^53 (2^53-1
 * must come back digit for digit; 2^53+1, an int64 the schema allows, must
 * come back the same or be refused with id null, never altered: see
 * tools/inspect/ids.ts), an unknown method, a custom `_` request, two
 * unrecognised notifications (an answer to either is a violation, read from
 * the traffic), array params, a request split across writes ending in CRLF,
 * and whether the connection still serves after all of them. Each probe
 * sends exactly what its row is about. The ids each probe scores come from
 * the protocol's catalogue (`WireIds`); a probe whose requirement the
 * catalogue lacks still runs for its evidence on other rows.
 */
import { answerOf, describeError, errorCode, isResponse, show, silent, step, withSentinel, type Run } from "./kit.ts";
import { fail, na, pass } from "./score.ts";
import { ErrorCode } from "../../src/errors.ts";
import { BIG_ID, judgeIdEcho } from "../inspect/ids.ts";

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
  parse: "ACP-INFO-PARSE-001", invalid: "ACP-INFO-INVALIDREQ-001", unknownMethod: "ACP-JSONRPC-004", extAnswered: "ACP-EXT-001", idEcho: "ACP-JSONRPC-001",
  notificationAnswered: "ACP-JSONRPC-003", notificationIgnored: "ACP-EXT-201", envelope: "ACP-JSONRPC-101", framing: "ACP-TRANSPORT-203", serving: "ACP-JSONRPC-005",
};

export const V2_WIRE: WireIds = {
  parse: undefined, invalid: undefined, unknownMethod: undefined, extAnswered: "ACP-EXT-302", idEcho: "ACP-JSONRPC-302",
  notificationAnswered: "ACP-JSONRPC-307", notificationIgnored: "ACP-EXT-303", envelope: undefined, framing: "ACP-TRANSPORT-302", serving: undefined,
};

/** The ids a set of wire probes scores. */
export const wireRows = (ids: WireIds): string[] => Object.values(ids).filter((v): v is string => v !== undefined);

/** JSON-RPC 2.0 §7's example of an invalid Request object ("rpc call with invalid Request object"): answered -32600 with id null. */
export const INVALID_REQUEST = '{"jsonrpc":"2.0","method":1,"params":"bar"}';
/** 2^53 - 1: the largest integer every JSON parser holds exactly (RFC 8259 §6); the answer must repeat these digits. */
const SAFE_ID = "9007199254740991";

const rawId = (text: string): string | undefined => /"id"\s*:\s*(-?[\d.eE+-]+|"(?:[^"\\]|\\.)*"|null)/.exec(text)?.[1];

const on = (run: Run, id: string | undefined, v: Parameters<Run["card"]["score"]>[1]) => {
  if (id !== undefined) run.card.score(id, v);
};

export async function wireProbes(run: Run, ids: WireIds): Promise<void> {
  const { d } = run;
  const own = <T>(x: T | undefined): T[] => (x === undefined ? [] : [x]);

  await step(run, "parse error", own(ids.parse), async () => {
    const { found, sentinel } = await withSentinel(run, () => d.write("this is not json\n"), (l) => isResponse(l) && errorCode(l.body) === ErrorCode.ParseError);
    const answer = found[0];
    if (answer !== undefined) on(run, ids.parse, answer.body?.id === null ? pass : fail(`a line that is not JSON was answered ${show(answer.body)} (id should be null)`));
    else on(run, ids.parse, sentinel === undefined ? silent(run, ids.parse ?? "", d.lastRequestId, "no -32700 answer, and no answer to the next request,") : fail(`a line that is not JSON got no -32700 answer (the request sent after it was answered)`));
  });

  await step(run, "invalid request", own(ids.invalid), async () => {
    // JSON-RPC 2.0 §7's own example of an invalid Request object: valid JSON, a method that is not a string, no id.
    const { found, sentinel } = await withSentinel(run, () => d.write(`${INVALID_REQUEST}\n`), (l) => isResponse(l) && (l.body?.id === null || l.body?.id === undefined));
    const answer = found[0];
    const sent = `check sent ${INVALID_REQUEST} (JSON-RPC 2.0 §7's example of an invalid Request object)`;
    if (answer !== undefined) on(run, ids.invalid, answer.body?.id === null && errorCode(answer.body) === ErrorCode.InvalidRequest ? pass : fail(`${sent}; the agent answered ${answer.text.slice(0, 200)}, not -32600 with id null`));
    else on(run, ids.invalid, sentinel === undefined ? silent(run, ids.invalid ?? "", d.lastRequestId, `${sent}; no answer to it nor to the next request`) : fail(`${sent}; no answer came, and the request check sent after it was answered`));
  });

  await step(run, "id-only message", [], async () => {
    // {"jsonrpc":"2.0","id":77} has no method, no result and no error: the shape of a stray response, which JSON-RPC asks nobody to
    // answer (a server replies to requests; this is none). Whatever the agent does with it is noted, never scored.
    const { found } = await withSentinel(run, () => d.write('{"jsonrpc":"2.0","id":77}\n'), (l) => isResponse(l) && (l.body?.id === 77 || l.body?.id === null));
    run.card.notes.push(`an id-only message {"jsonrpc":"2.0","id":77} (no requirement: it is response-shaped, and JSON-RPC asks no answer to it) was ${found[0] === undefined ? "not answered" : `answered ${found[0].text.slice(0, 160)}`}`);
  });

  await step(run, "fractional id", [], async () => {
    const line = '{"jsonrpc":"2.0","id":1.5,"method":"_acp-router.check/fractional_id","params":{}}\n';
    const { found } = await withSentinel(run, () => d.write(line), (l) => isResponse(l) && (l.body?.id === 1.5 || (l.body?.id === null && errorCode(l.body) === ErrorCode.InvalidRequest)));
    const answer = found[0];
    // JSON-RPC allows any number as an id; the schema's RequestId prose says fractional parts SHOULD NOT be used (by the sender),
    // not that a receiver must refuse them. Served or refused, it is noted, never scored: neither is evidence of any row.
    if (answer !== undefined) run.card.notes.push(`a request with id 1.5 (fractional ids SHOULD NOT be sent, but JSON-RPC allows them) was ${answer.body?.id === 1.5 ? "served as a request" : "refused with id null"}: ${answer.text.slice(0, 160)}`);
  });

  await step(run, "unknown method", own(ids.unknownMethod), async () => {
    const unknown = await d.request("session/no_such_method", {});
    if (unknown === undefined) on(run, ids.unknownMethod, silent(run, ids.unknownMethod ?? ids.idEcho));
    else on(run, ids.unknownMethod, errorCode(unknown) === ErrorCode.MethodNotFound ? pass : fail(`session/no_such_method was answered ${show(unknown)}`));
  });

  await step(run, "custom request", [ids.extAnswered, ids.idEcho], async () => {
    const ext = await d.request("_acp-router.check/no_such_method", {});
    run.card.score(ids.extAnswered, ext !== undefined ? pass : silent(run, ids.extAnswered));
    // An int64 id a double cannot hold (tools/inspect/ids.ts has the policy): the same digits back, or a refusal with id null, pass;
    // an answer with another id (the rounded 2^53) is a violation of the MUST that a response repeats the request's id.
    const big = await d.requestRaw(BIG_ID, "_acp-router.check/big_id", {}, (l) => isResponse(l) && ((typeof l.body?.id === "number" && l.body.id === Number(BIG_ID)) || (l.body?.id === null && errorCode(l.body) === ErrorCode.InvalidRequest)));
    if (big !== undefined) run.judged.add(big.index);
    if (big === undefined) run.card.score(ids.idEcho, silent(run, ids.idEcho, BIG_ID, `no answer to a request with id ${BIG_ID}`));
    else {
      const echo = judgeIdEcho(BIG_ID, big.text, big.body ?? {});
      if (echo.kind === "altered") run.card.score(ids.idEcho, fail(`check sent {"jsonrpc":"2.0","id":${BIG_ID},"method":"_acp-router.check/big_id","params":{}} (an int64 id, as the schema's RequestId allows); the agent answered with id ${echo.answered}: ${big.text.slice(0, 160)}. A response repeats the request's id exactly; an id the agent cannot hold is refused with -32600 and id null`));
      else {
        run.card.score(ids.idEcho, pass);
        run.card.notes.push(`${ids.idEcho}: a request with id ${BIG_ID} (2^53+1) was ${echo.kind === "exact" ? "answered with the same digits" : "refused with -32600 and id null"}`);
      }
    }
    // The largest safe integer must come back digit for digit: an altered id here is a violation.
    const safe = await d.requestRaw(SAFE_ID, "_acp-router.check/safe_id", {}, (l) => isResponse(l) && ((rawId(l.text) !== undefined && Math.abs(Number(rawId(l.text)) - Number(SAFE_ID)) < 16) || (l.body?.id === null && errorCode(l.body) === ErrorCode.InvalidRequest)));
    if (safe !== undefined) run.judged.add(safe.index);
    if (safe === undefined) run.card.score(ids.idEcho, silent(run, ids.idEcho, SAFE_ID, `no answer to a request with id ${SAFE_ID}`));
    else run.card.score(ids.idEcho, rawId(safe.text) === SAFE_ID ? pass : fail(`a request with id ${SAFE_ID} (2^53-1, within the safe range) was answered with id ${String(rawId(safe.text))}: ${safe.text.slice(0, 160)}`));
  });

  await step(run, "notifications", [ids.notificationAnswered, ids.notificationIgnored], async () => {
    for (const method of ["_acp-router.check/note", "session/no_such_notification"]) {
      const { found, sentinel } = await withSentinel(run, () => d.notify(method, { n: 1 }), (l) => isResponse(l) && (l.body?.id === null || l.body?.id === undefined));
      if (found.length > 0) {
        const evidence = `the notification ${method} was answered: ${found[0]!.text.slice(0, 200)}`;
        run.card.score(ids.notificationAnswered, fail(evidence));
        run.card.score(ids.notificationIgnored, fail(evidence));
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
