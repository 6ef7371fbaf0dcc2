/**
 * The v2 initialization rows of `check`, judged on what the agent sent:
 *
 * - the answer to check's `initialize` (protocolVersion 2): a v2
 *   `InitializeResponse` (v2-schema.ts) passes ACP-INIT-382 ("agree on a
 *   protocol version and act according to its specification") and the
 *   agreement part of ACP-INIT-303; an answer that claims 2 but is not one
 *   (droid's v1 `agentCapabilities`/`agentInfo`) fails both, and
 *   ACP-INIT-307 when `info` is what it lacks, as one fact with one count;
 * - two fresh processes asked for versions no agent speaks: 9999 must be
 *   answered with a version the agent supports (ACP-INIT-303), 0 with
 *   -32022 and data {requested, supported} (ACP-INIT-304, no keyword: a
 *   note); an echo of 0 or 9999 claims a version that does not exist and
 *   fails ACP-INIT-303;
 * - ACP-AUTH-301 ("Returning one or more valid entries … means the Agent
 *   MUST implement both auth/login and auth/logout") applies only when at
 *   least one `authMethods` entry is a valid v2 entry; otherwise it is n/a,
 *   pointing at ACP-INIT-382's schema finding. auth/logout is never called
 *   (it would end a real login); an unknown method id shows auth/login
 *   exists (anything but -32601).
 */
import type { Driver } from "./driver.ts";
import { firstInitialize, SLOW_START_FACTOR } from "./first-initialize.ts";
import { errorCode, exchange, seconds, show, silent, type Run } from "./kit.ts";
import { fail, na, pass, passNoted } from "./score.ts";
import { describeErrors, v2ResultShape, validAuthEntries } from "./schema-shape.ts";
import { ErrorCode } from "../../src/errors.ts";
import { protocol as v2 } from "../../src/v2/generated/protocol.ts";

const CLIENT_INFO = { name: "acp-router-check", version: "0.1.0" };

/** What judging the first initialize answer found: undefined when it is a v2 InitializeResponse, else the evidence. */
export type InitShape = string | undefined;

/** Judges the answer to check's v2 initialize (sent with the last request id of `run.d` when `initId` is not given). */
export function judgeV2Initialize(run: Run, result: Record<string, unknown>, initId: number): InitShape {
  const { d, card } = run;
  const sent = d.sentLine(initId);
  const answer = d.answerTo(initId);
  if (answer !== undefined) run.judged.add(answer.index);
  const shape = v2ResultShape("initialize", result);
  const info = result.info as { name?: unknown; version?: unknown } | undefined;
  const described = typeof info?.name === "string" && typeof info.version === "string";
  if (shape === undefined || shape.errors.length === 0 || shape.repairable) {
    const repaired = shape !== undefined && shape.errors.length > 0 ? `a v2 InitializeResponse once the schema's own leniency repairs ${describeErrors(shape.errors)}` : undefined;
    card.all(["ACP-INIT-382", "ACP-INIT-303"], repaired === undefined ? pass : passNoted(repaired));
    card.score("ACP-INIT-307", described ? pass : fail(`${exchange(d, sent, answer)}: the result has no info with a name and a version`));
    return undefined;
  }
  const v1Shaped = "agentCapabilities" in result || "agentInfo" in result;
  const evidence = `${exchange(d, sent, answer)}: the answer claims protocolVersion 2 but is not a v2 InitializeResponse (${describeErrors(shape.errors)})${v1Shaped ? "; it carries v1's agentCapabilities / agentInfo, the shape of a v1 InitializeResponse" : ""}`;
  card.all(["ACP-INIT-382", "ACP-INIT-303", ...(described ? [] : ["ACP-INIT-307"])], fail(evidence));
  if (described) card.score("ACP-INIT-307", pass);
  return evidence;
}

/** Initializes a fresh process with `version`; resolves with the driver's exchange and the answer's body. */
async function askVersion(spawn: (label: string) => Driver, version: number): Promise<{ evidence: string; answer: Record<string, unknown> | undefined; waited: number }> {
  const other = spawn(`version probe: initialize with protocolVersion ${version}`);
  try {
    // A fresh process: its first initialize gets the slow-start wait (first-initialize.ts), as the main run's does.
    const { answer } = await firstInitialize(other, { protocolVersion: version, info: CLIENT_INFO, capabilities: {} });
    return { evidence: exchange(other, other.sentLine(other.lastRequestId), other.answerTo(other.lastRequestId)), answer, waited: other.timeout * (SLOW_START_FACTOR + 1) };
  } finally {
    await other.close();
  }
}

/** ACP-INIT-303 and -304 on two fresh processes asked for 9999 and 0. */
export async function versionProbes(run: Run, spawn: ((label: string) => Driver) | undefined): Promise<void> {
  const { card } = run;
  if (spawn === undefined) return card.all(["ACP-INIT-304"], na("no second run of the agent"));
  const high = await askVersion(spawn, 9999);
  const highVersion = (high.answer?.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  if (high.answer === undefined) card.notes.push(`ACP-INIT-303: initialize with protocolVersion 9999 got no answer within ${seconds(high.waited)}`);
  else if (high.answer.result !== undefined)
    card.score("ACP-INIT-303", typeof highVersion === "number" && Number.isInteger(highVersion) && highVersion >= 1 && highVersion < 9999 ? pass : fail(`${high.evidence}: protocolVersion ${show(highVersion)}, a version no agent speaks, not the latest version the agent supports`));
  else card.score("ACP-INIT-303", fail(`${high.evidence}: an error, not the latest version the agent supports`));
  const low = await askVersion(spawn, 0);
  const data = (low.answer?.error as { data?: { requested?: unknown; supported?: unknown } } | undefined)?.data;
  const lowVersion = (low.answer?.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  if (lowVersion === 0) card.score("ACP-INIT-303", fail(`${low.evidence}: protocolVersion 0, an echo of a version that does not exist, not a version the agent supports`));
  card.score(
    "ACP-INIT-304",
    low.answer === undefined
      ? fail(`initialize with protocolVersion 0 (below every version) got no answer within ${seconds(low.waited)}`)
      : errorCode(low.answer) === v2.errorCodes.UnsupportedProtocolVersion && data?.requested === 0 && data.supported !== undefined
        ? pass
        : fail(`${low.evidence}: not -32022 with data {requested, supported}`),
  );
}

/** ACP-AUTH-301 on the main connection, judged only when the condition of its sentence holds. */
export async function authRow(run: Run, init: Record<string, unknown>, initShape: InitShape): Promise<void> {
  const { d, card } = run;
  const methods = Array.isArray(init.authMethods) ? init.authMethods : [];
  if (methods.length === 0) return card.score("ACP-AUTH-301", na("the agent lists no authMethods"));
  const shape = v2ResultShape("initialize", init);
  const valid = validAuthEntries(methods.length, shape?.errors ?? []);
  if (valid.length === 0) {
    const where = (shape?.errors ?? []).filter((e) => e.path.startsWith("/authMethods"));
    return card.score(
      "ACP-AUTH-301",
      na(`the requirement is about "one or more valid entries" of authMethods, and none of the ${methods.length} entries the agent returned is a valid v2 AuthMethod (${describeErrors(where)})${initShape !== undefined ? "; the initialize answer's schema finding is under ACP-INIT-382" : ""}`),
    );
  }
  const login = await d.request("auth/login", { methodId: "acp-router-check-no-such-method" });
  const evidence = exchange(d, d.sentLine(d.lastRequestId), d.answerTo(d.lastRequestId));
  card.score("ACP-AUTH-301", login === undefined ? silent(run, "ACP-AUTH-301") : errorCode(login) === ErrorCode.MethodNotFound ? fail(`the agent returned ${valid.length} valid v2 authMethods entr${valid.length === 1 ? "y" : "ies"}; ${evidence}: method not found`) : pass);
  card.notes.push("ACP-AUTH-301: auth/logout was not called (it would end a real login); auth/login was, with a method id no agent has");
}
