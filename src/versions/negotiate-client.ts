/**
 * The client connector (DESIGN §10, PITFALLS #18): offers the highest
 * configured protocol version in `initialize` and ends up with one typed
 * connection of the version the agent speaks.
 *
 *   const negotiated = await negotiateClient(agent.transport, {
 *     v1: { connect: (t) => connectClient(v1Handler, t), initialize: { protocolVersion: 1, clientCapabilities: {} } },
 *     v2: { connect: (t) => connectClientV2(v2Handler, t), initialize: { protocolVersion: 2, info, capabilities: {} } },
 *   });
 *   if (negotiated.version === 2) await negotiated.agent.newSession({ cwd });  // the v2 proxy
 *
 * Like `routeAgent`, it imports no method table: each version's comes with
 * the `connectClient` the caller passes.
 */
import { ConnectionClosedError } from "../errors.ts";
import type { RequestOptions } from "../peer-caller.ts";
import type { Transport } from "../transport/transport.ts";
import { createSwitchboard, type AnswerDecision } from "./switchboard.ts";

/**
 * What the connector needs of a client connection of one version: its
 * `initialize`, and `close`. Structural, so this module imports no table:
 * the `connectClient` of `acp-router` (v1) and of `acp-router/v2` each
 * return one, typed by their table.
 */
export interface VersionClient<P = never, R = unknown> {
  /** The typed proxy to the agent; negotiation calls only its `initialize`. */
  readonly agent: {
    /** Sends `initialize` with `params` and resolves with the agent's answer. */
    initialize(params: P, options?: RequestOptions): Promise<R>;
  };
  /** Closes the connection (a version the agent did not take is closed this way). */
  close(reason?: string): void;
}

/** The `initialize` params of a version's connection. */
export type InitializeParamsOf<C> = C extends VersionClient<infer P, unknown> ? P : never;
/** The `initialize` answer of a version's connection. */
export type InitializeAnswerOf<C> = C extends VersionClient<never, infer R> ? R : never;
/** Any version's connection. */
export type AnyClient = VersionClient<never, unknown>;

/** One version the client speaks: how to open its connection over a transport (that table's `connectClient`), and its `initialize` params. */
export interface ClientVersion<C extends AnyClient, P = InitializeParamsOf<C>> {
  /** Opens this version's connection over `transport`: that table's `connectClient(handler, transport)`. */
  readonly connect: (transport: Transport) => C;
  /** The `initialize` params sent when this version is offered. */
  readonly initialize: P;
}

/** The versions the client speaks (at least one). */
export interface ClientVersions<C1 extends AnyClient = AnyClient, C2 extends AnyClient = AnyClient, P1 = InitializeParamsOf<C1>, P2 = InitializeParamsOf<C2>> {
  readonly v1?: ClientVersion<C1, P1>;
  readonly v2?: ClientVersion<C2, P2>;
}

/** Options of {@link negotiateClient}. */
export interface NegotiateClientOptions {
  /**
   * Opens a fresh transport to the same agent (respawn the process, dial the
   * URL again), for when v1 cannot follow the v2 offer on the first one: the
   * agent closed it, or refused the v1 `initialize` that followed. The old
   * transport is closed first. Default: none, and such a failure is thrown.
   */
  readonly reconnect?: () => Transport | Promise<Transport>;
  /**
   * Longest line read while waiting for the answer to the v2 `initialize`.
   * Default 32 MiB, the connection's own default; set it to the connections'
   * `maxMessageBytes`, so a longer line is answered `-32700` and skipped
   * exactly as they would.
   */
  readonly maxMessageBytes?: number;
}

/** The negotiated connection: its version, the typed proxy of that version's agent, and `initialize`'s answer. */
export type Negotiated<C1 extends AnyClient = AnyClient, C2 extends AnyClient = AnyClient> =
  | { readonly version: 1; readonly connection: C1; readonly agent: C1["agent"]; readonly initialized: InitializeAnswerOf<C1> }
  | { readonly version: 2; readonly connection: C2; readonly agent: C2["agent"]; readonly initialized: InitializeAnswerOf<C2> };

/**
 * Connects to an agent over `transport` in the highest version configured.
 * With v2 configured, `initialize` offers version 2: an agent answering 2
 * keeps that connection. An agent answering version 1 (v1 agents answer
 * their own version), or an error, gets the v1 `initialize` on the same
 * transport, served by a fresh v1 connection; when that is impossible (the
 * agent closed the transport or refused the repeat), `options.reconnect`
 * provides a new transport for the v1 `initialize`. With only v1 configured,
 * it simply initializes v1; with only v2, an agent answering an older
 * version is an `Error` naming it. Rejects with the failing `initialize`'s
 * error (the transport is then closed). The v2 connection a fallback leaves
 * behind is closed (its `closed` diagnostic, if any, says so) and never
 * touches the transport again.
 */
export async function negotiateClient<C1 extends AnyClient = AnyClient, C2 extends AnyClient = AnyClient, P1 = InitializeParamsOf<C1>, P2 = InitializeParamsOf<C2>>(
  transport: Transport,
  // P1/P2 are inferred from the params as written (a constraint tying them to the connection's
  // initialize defeats the inference of C1/C2); the connection validates them when it sends initialize.
  versions: ClientVersions<C1, C2, P1, P2>,
  options: NegotiateClientOptions = {},
): Promise<Negotiated<C1, C2>> {
  const { v1, v2 } = versions;
  if (!v1 && !v2) throw new TypeError("negotiateClient: configure v1, v2 or both");
  if (!v2) return initializeV1(v1 as ClientVersion<C1, unknown>, transport);

  const board = createSwitchboard(transport, options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes });
  const connection = v2.connect(board.leg());
  // The v2 connection sees the answer only when it is its own: a v2 success, or (without v1) an error.
  const decide = (answer: Record<string, unknown>): AnswerDecision => (answersV2(answer) || (!v1 && "error" in answer) ? "pass" : "withhold");
  const answered = board.firstAnswer(decide);
  const initialize = connection.agent.initialize(v2.initialize as never) as Promise<InitializeAnswerOf<C2>>;
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
      return { version: 2, connection, agent: connection.agent, initialized: await initialize };
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
async function initializeV1<C1 extends AnyClient, C2 extends AnyClient>(
  v1: ClientVersion<C1, unknown>,
  transport: Transport,
): Promise<Negotiated<C1, C2>> {
  const connection = v1.connect(transport);
  try {
    const initialized = (await connection.agent.initialize(v1.initialize as never)) as InitializeAnswerOf<C1>;
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
