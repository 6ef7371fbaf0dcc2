/**
 * Version negotiation as a pure function over one pre-initialize message:
 * what the agent-side version router does with it (DESIGN §10). Mirrors the
 * observable behaviour of the reference SDK's `agentProtocolRouter` (2.4).
 */
import { wireError, type ErrorObject } from "../errors.ts";
import { classify } from "../jsonrpc/classify.ts";
import { checkEnvelope } from "../jsonrpc/envelope.ts";
import { unusableAnswer } from "../jsonrpc/unusable.ts";

/** The protocol versions the version router and the client connector route (named apart from the schemas' `ProtocolVersion`, any integer 0–65535). */
export type RoutedVersion = 1 | 2;

/** The outcome for one message read before routing. */
export type Negotiation = { readonly tag: "ignore" } | { readonly tag: "reject"; readonly id: string | number | null; readonly error: ErrorObject } | { readonly tag: "route"; readonly version: RoutedVersion; readonly initialize: Record<string, unknown> };

/** `{ name: "unknown", version: "unknown" }`: the `info` of a newer client whose own `info` is missing or malformed (as the SDK). */
export const UNKNOWN_IMPLEMENTATION = { name: "unknown", version: "unknown" } as const;

const IGNORE: Negotiation = { tag: "ignore" };

/**
 * Decides what to do with `message` (parsed JSON) before any version is
 * selected, given the versions configured. What a plain connection answers
 * before `initialize`, it answers with the same error (`wireError`): a batch
 * one `-32600` with `id: null` (a connection that rejects batches answers
 * so), an unusable id `-32600` with `id: null`, a bad envelope or another
 * request `-32600` with the id; notifications and responses are ignored. Its
 * own answers: an `initialize` without a valid `protocolVersion` `-32602`
 * (`data.errors` at `/protocolVersion`), a version below every configured one
 * `-32022` with `{requested, supported}`. Otherwise the highest configured
 * version at or below the requested one is selected (a v1-only agent takes
 * every version, the legacy fallback), and the params are rewritten for it
 * when it is lower. With `v1ShapeToV1`, an `initialize` in the v1 shape (see
 * `isV1Shaped`: `clientCapabilities` or `clientInfo`, and neither v2's `info` nor
 * `capabilities`) goes to v1, when configured, as sent.
 */
export function negotiate(message: unknown, versions: readonly RoutedVersion[], v1ShapeToV1 = false): Negotiation {
  const kind = Array.isArray(message) ? undefined : classify(message);
  if (kind === "notification" || kind === "response") return IGNORE;
  // A batch, a null, fractional or structured id (ACP v2 forbids null ids; acp-router's v1 rejects them too), not JSON-RPC.
  if (kind !== "request") {
    const answer = unusableAnswer(message, kind);
    return answer === undefined ? IGNORE : reject(answer.id, answer.error);
  }
  const body = message as Record<string, unknown>;
  const id = body.id as string | number;
  const envelope = checkEnvelope(body);
  if (envelope !== undefined) return reject(id, envelope);
  if (body.method !== "initialize") return reject(id, wireError.notInitialized());
  const params = isObject(body.params) ? body.params : {};
  const requested = params.protocolVersion;
  const problem = versionProblem(requested);
  if (problem !== undefined) return reject(id, wireError.invalidParams({ errors: [problem] }));
  // A v1 client naming a newer version (v1 says to send its own latest) stays on v1 when asked to.
  if (v1ShapeToV1 && versions.includes(1) && isV1Shaped(params)) return { tag: "route", version: 1, initialize: body };
  const version = select(requested as number, versions);
  if (version === undefined) return reject(id, wireError.unsupportedProtocolVersion(requested as number, [...versions].sort()));
  return { tag: "route", version, initialize: { ...body, params: rewrite(params, requested as number, version) } };
}

/**
 * Why `value` is not a protocol version (the schema's `ProtocolVersion`: an
 * integer from 0 to 65535), worded as the tables' validators word it, or
 * undefined when it is one.
 */
function versionProblem(value: unknown): { readonly path: string; readonly message: string } | undefined {
  if (value === undefined) return { path: "/protocolVersion", message: "is required" };
  if (typeof value !== "number" || !Number.isInteger(value)) return { path: "/protocolVersion", message: "must be integer" };
  if (value < 0) return { path: "/protocolVersion", message: "must be >= 0" };
  if (value > 0xffff) return { path: "/protocolVersion", message: "must be <= 65535" };
  return undefined;
}

/** The highest configured version at or below `requested`; a v1-only agent takes any version (the SDK's legacy fallback). */
export function select(requested: number, versions: readonly RoutedVersion[]): RoutedVersion | undefined {
  if (versions.includes(1) && !versions.includes(2)) return 1;
  if (versions.includes(2) && requested >= 2) return 2;
  if (versions.includes(1) && requested >= 1) return 1;
  return undefined;
}

/**
 * The initialize params as the selected version reads them. Same version:
 * unchanged (the selected table validates them). Newer than v2 on a v2 route:
 * `protocolVersion: 2`, and a missing or malformed `info` becomes
 * {@link UNKNOWN_IMPLEMENTATION}. v2 (or newer) on a v1 route: the v2 shape
 * mapped to v1 — `clientCapabilities` from `capabilities` (elicitation and
 * `auth.terminal` carry over; v2 has no fs or terminal methods, so those are
 * `false`; boolean config options and plans, which every v2 client handles,
 * are advertised), `clientInfo` from a valid `info`.
 */
export function rewrite(params: Record<string, unknown>, requested: number, version: RoutedVersion): Record<string, unknown> {
  if (requested === version) return params;
  const info = isImplementation(params.info) ? params.info : undefined;
  if (version === 2) return { ...params, protocolVersion: 2, info: info ?? UNKNOWN_IMPLEMENTATION };
  if (requested === 0) return { ...params, protocolVersion: 1 };
  const caps = isObject(params.capabilities) ? params.capabilities : {};
  const auth = isObject(caps.auth) ? caps.auth : undefined;
  const clientCapabilities: Record<string, unknown> = {
    fs: { readTextFile: false, writeTextFile: false },
    terminal: false,
    // What every v2 client supports and v1 states as capabilities: boolean config options and plans.
    session: { configOptions: { boolean: {} } },
    plan: {},
    auth: { terminal: auth !== undefined && auth.terminal != null, ...(isObject(auth?._meta) ? { _meta: auth._meta } : {}) },
    ...(caps.elicitation != null ? { elicitation: caps.elicitation } : {}),
    ...(isObject(caps._meta) ? { _meta: caps._meta } : {}),
  };
  return { protocolVersion: 1, clientCapabilities, ...(info ? { clientInfo: info } : {}), ...(isObject(params._meta) ? { _meta: params._meta } : {}) };
}

function reject(id: string | number | null, error: ErrorObject): Negotiation {
  return { tag: "reject", id, error };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isImplementation(value: unknown): boolean {
  return isObject(value) && typeof value.name === "string" && typeof value.version === "string";
}

/** Whether `initialize` params have the v1 shape: `clientCapabilities` or `clientInfo`, and neither v2's `info` nor `capabilities`. */
export function isV1Shaped(params: Record<string, unknown>): boolean {
  return ("clientCapabilities" in params || "clientInfo" in params) && !("info" in params) && !("capabilities" in params);
}
