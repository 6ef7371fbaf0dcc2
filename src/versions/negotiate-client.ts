/**
 * The client connector (DESIGN §10, PITFALLS #18): offers the highest
 * configured protocol version in `initialize` and ends up with one typed
 * connection of the version the agent speaks.
 *
 *   import { protocol as v1 } from "acp-router";
 *   import { protocol as v2 } from "acp-router/v2";
 *   const negotiated = await negotiateClient(agent.transport, {
 *     v1: { protocol: v1, handler: v1Handler, initialize: { protocolVersion: 1, clientCapabilities: {} } },
 *     v2: { protocol: v2, handler: v2Handler, initialize: { protocolVersion: 2, info, capabilities: {} } },
 *   });
 *   if (negotiated.version === 2) await negotiated.agent.newSession({ cwd });  // the v2 proxy
 *
 * Like `routeAgent`, it imports no method table: each version's is the
 * `protocol` value the caller passes.
 */
import { argumentError, checkHandler, checkOptions, checkTransport } from "../arguments.ts";
import { createClientConnection, type ClientConnection } from "../bind.ts";
import type { ConnectionOptions } from "../connection/options.ts";
import { ConnectionClosedError } from "../errors.ts";
import type { RequestOptions } from "../peer-caller.ts";
import type { Protocol, ProtocolTypes } from "../protocol.ts";
import type { Transport } from "../transport/transport.ts";
import type { RoutedVersion } from "./negotiate.ts";
import { checkRoute } from "./route-agent.ts";
import { createSwitchboard, type AnswerDecision } from "./switchboard.ts";

/** The `initialize` params of a table (from its types). */
export type InitializeParamsOf<T extends ProtocolTypes> = T["agentMethods"] extends { readonly initialize: { readonly params: infer P } } ? P : never;
/** The `initialize` answer of a table (from its types). */
export type InitializeAnswerOf<T extends ProtocolTypes> = T["agentMethods"] extends { readonly initialize: { readonly result: infer R } } ? R : never;

/** One version the client speaks: that version's `protocol` value, the client handler of its table, and its `initialize` params. */
export interface ClientVersion<T extends ProtocolTypes> {
  /** The table: `protocol` from `acp-router` for `v1` (or `acp-router/unstable`), from `acp-router/v2` (or `acp-router/v2/unstable`) for `v2`. Its `version` must be the key's. */
  readonly protocol: Protocol<T>;
  /** The client handler of that table. */
  readonly handler: NoInfer<T["clientHandler"]>;
  /** The `initialize` params sent when this version is offered. */
  readonly initialize: NoInfer<InitializeParamsOf<T>>;
}

/** The versions the client speaks (at least one). */
export interface ClientVersions<T1 extends ProtocolTypes = ProtocolTypes, T2 extends ProtocolTypes = ProtocolTypes> {
  readonly v1?: ClientVersion<T1> | undefined;
  readonly v2?: ClientVersion<T2> | undefined;
}

/**
 * Options of {@link negotiateClient}: the connection's own options (every
 * version's connection gets them; `maxMessageBytes` also bounds the lines read
 * while the v2 offer waits for its answer, so a longer line is answered
 * `-32700` and skipped exactly as the connection would), plus `reconnect`.
 */
export interface NegotiateClientOptions extends ConnectionOptions {
  /**
   * Opens a fresh transport to the same agent (respawn the process, dial the
   * URL again), for when v1 cannot follow the v2 offer on the first one: the
   * agent closed it, or refused the v1 `initialize` that followed. The old
   * transport is closed first. Default: none, and such a failure is thrown.
   */
  readonly reconnect?: () => Transport | Promise<Transport>;
}

/** The negotiated connection: its version, the typed proxy of that version's agent, and `initialize`'s answer. */
export type Negotiated<T1 extends ProtocolTypes = ProtocolTypes, T2 extends ProtocolTypes = ProtocolTypes> =
  { readonly version: 1; readonly connection: ClientConnection<T1>; readonly agent: T1["agentPeer"]; readonly initialized: InitializeAnswerOf<T1> } | { readonly version: 2; readonly connection: ClientConnection<T2>; readonly agent: T2["agentPeer"]; readonly initialized: InitializeAnswerOf<T2> };

/** What negotiation needs of a connection: the agent's `initialize`, and `close`. */
interface Opened {
  readonly connection: ClientConnection;
  initialize(options?: RequestOptions): Promise<unknown>;
}

const NEGOTIATE_CLIENT = "negotiateClient(transport, { v1?: { protocol, handler, initialize }, v2?: { protocol, handler, initialize } }, options?)";

/**
 * Connects to an agent over `transport` in the highest version configured,
 * opening each version's client connection from its `protocol` and `handler`
 * with `options`. With v2 configured, `initialize` offers version 2: an agent
 * answering 2 keeps that connection. An agent answering version 1 (v1 agents
 * answer their own version), or an error, gets the v1 `initialize` on the
 * same transport, served by a fresh v1 connection; when that is impossible
 * (the agent closed the transport or refused the repeat), `options.reconnect`
 * provides a new transport for the v1 `initialize`. With only v1 configured,
 * it simply initializes v1; with only v2, an agent answering an older version
 * is an `Error` naming it. Rejects with the failing `initialize`'s error (the
 * transport is then closed). The v2 connection a fallback leaves behind is
 * closed (its `closed` diagnostic, if any, says so) and never touches the
 * transport again.
 *
 * Throws a `TypeError` at the call (not a rejection) for a transport, version
 * or options that is not one, and for a version whose protocol's `version` is
 * not its key.
 */
export function negotiateClient<T1 extends ProtocolTypes = never, T2 extends ProtocolTypes = never>(transport: Transport, versions: ClientVersions<T1, T2>, options: NegotiateClientOptions = {}): Promise<Negotiated<T1, T2>> {
  checkTransport(NEGOTIATE_CLIENT, "transport", transport);
  if (typeof versions !== "object" || versions === null || Array.isArray(versions)) throw argumentError(NEGOTIATE_CLIENT, "versions", "an object with v1 and/or v2", versions, 'e.g. { v2: { protocol, handler, initialize } } with `protocol` from "acp-router/v2".');
  checkOptions(NEGOTIATE_CLIENT, "options", options);
  if (options.reconnect !== undefined && typeof options.reconnect !== "function") throw argumentError(NEGOTIATE_CLIENT, "options.reconnect", "a function returning a new Transport (or a promise of one)", options.reconnect, "e.g. reconnect: () => spawnAgent(command, args).transport.");
  const opener = (version: RoutedVersion): ((t: Transport) => Opened) | undefined => {
    const entry = (versions as Record<string, unknown>)[`v${version}`];
    if (entry === undefined) return undefined;
    checkRoute(NEGOTIATE_CLIENT, `versions.v${version}`, version, entry);
    const { protocol, handler, initialize } = entry as ClientVersion<ProtocolTypes>;
    checkHandler(NEGOTIATE_CLIENT, `versions.v${version}.handler`, "client", handler);
    if (typeof initialize !== "object" || initialize === null || Array.isArray(initialize))
      throw argumentError(NEGOTIATE_CLIENT, `versions.v${version}.initialize`, "the initialize params of that version", initialize, `e.g. { protocolVersion: ${version}, ${version === 1 ? "clientCapabilities: {}" : "info, capabilities: {}"} }.`);
    return (t) => {
      const connection = createClientConnection(protocol, handler, t, options);
      return { connection, initialize: (o) => (connection.agent as { initialize(p: unknown, o?: RequestOptions): Promise<unknown> }).initialize(initialize, o) };
    };
  };
  const v1 = opener(1);
  const v2 = opener(2);
  if (!v1 && !v2) throw argumentError(NEGOTIATE_CLIENT, "versions", "an object with v1, v2 or both", versions, 'e.g. { v1: { protocol, handler, initialize } } with `protocol` from "acp-router".');
  return negotiate(transport, v1, v2, options) as unknown as Promise<Negotiated<T1, T2>>;
}

async function negotiate(transport: Transport, v1: ((t: Transport) => Opened) | undefined, v2: ((t: Transport) => Opened) | undefined, options: NegotiateClientOptions): Promise<Negotiated> {
  if (!v2) return initializeV1(v1 as (t: Transport) => Opened, transport);

  const board = createSwitchboard(transport, options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes });
  const opened = v2(board.leg());
  const connection = opened.connection;
  // The v2 connection sees the answer only when it is its own: a v2 success, or (without v1) an error.
  const decide = (answer: Record<string, unknown>): AnswerDecision => (answersV2(answer) || (!v1 && "error" in answer) ? "pass" : "withhold");
  const answered = board.firstAnswer(decide);
  const initialize = opened.initialize();
  initialize.catch(() => {});
  const answer = await answered;
  const beyond = answer === undefined ? undefined : versionBeyond(answer);
  if (beyond !== undefined) {
    // A version this client does not speak: the spec's answer is to close and say so, not to guess.
    connection.close(`the agent answered protocol version ${beyond}`);
    board.close();
    throw new Error(`the agent answered protocol version ${beyond}; this client speaks ${v1 ? "1 and 2" : "2"} only, so it closed the connection`);
  }

  if (answer === undefined ? !v1 : decide(answer) === "pass") {
    try {
      return { version: 2, connection, agent: connection.agent, initialized: (await initialize) as never };
    } catch (error) {
      connection.close("initialize failed");
      throw error;
    }
  }
  // A new leg first: from now on the v2 connection can neither read, write nor close the transport.
  const leg = board.leg();
  connection.close("the agent does not speak protocol version 2");
  if (!v1) {
    board.close();
    throw new Error(`the agent answered protocol version ${String((answer?.result as { protocolVersion?: unknown }).protocolVersion)}; this client offers 2 only (configure v1 to fall back)`);
  }
  // The agent answered an older version or an error (withheld from the v2 connection), or left.
  if (answer !== undefined) {
    try {
      return await initializeV1(v1, leg);
    } catch (error) {
      if (options.reconnect === undefined) throw error;
    }
  } else if (options.reconnect === undefined) {
    board.close();
    throw await initialize.then(
      () => new ConnectionClosedError("the agent closed the connection during initialize"),
      (error: unknown) => error,
    );
  }
  board.close();
  return initializeV1(v1, await options.reconnect());
}

/** Opens the v1 connection over `transport` and initializes it; on failure closes it (and so the transport). */
async function initializeV1(v1: (t: Transport) => Opened, transport: Transport): Promise<Negotiated> {
  const { connection, initialize } = v1(transport);
  try {
    const initialized = (await initialize()) as never;
    return { version: 1, connection, agent: connection.agent, initialized };
  } catch (error) {
    connection.close("initialize failed");
    throw error;
  }
}

/** The protocol version of a successful `initialize` answer, if it has a numeric one. */
function answeredVersion(answer: Record<string, unknown>): number | undefined {
  const result = answer.result;
  if ("error" in answer || typeof result !== "object" || result === null) return undefined;
  const version = (result as { protocolVersion?: unknown }).protocolVersion;
  return typeof version === "number" ? version : undefined;
}

/** Whether an `initialize` answer is a success in protocol version 2. */
function answersV2(answer: Record<string, unknown>): boolean {
  return answeredVersion(answer) === 2;
}

/** A version above 2 in a successful answer: one this client cannot speak (the agent should have answered 2 or lower). */
function versionBeyond(answer: Record<string, unknown>): number | undefined {
  const version = answeredVersion(answer);
  return version !== undefined && version > 2 ? version : undefined;
}
