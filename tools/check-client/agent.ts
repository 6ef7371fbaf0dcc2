/**
 * The scripted ACP agent of one `check --client` run, on the run's
 * {@link Peer}. It answers `initialize` with the version the client offers
 * when check speaks it (v2 for 2 or newer, else v1; see {@link answerVersion}),
 * v1 with no
 * optional capability (so every gated agent method is off limits, outside
 * the offers run),
 * `authenticate` with `{}`, `session/new` with a fresh session id, and runs
 * the scenario's turn on the first `session/prompt` (later prompts get one
 * message chunk and `end_turn`). In the `version` scenario it answers
 * `initialize` with {@link FUTURE_VERSION} instead, and otherwise goes on
 * as usual, so a client that ignores the version finishes its turn. In the
 * `offers` scenario (v1 only) it offers what the other runs keep closed, to
 * see what the client does with it: `sessionCapabilities.list`, answered with
 * a first page whose `nextCursor` is {@link LIST_CURSOR} and a last page
 * without one, and {@link authMethodsFor} (a method without `type`, and a
 * terminal method when the client advertised `auth.terminal`).
 * Every other request gets -32601. It records
 * what the handshake rows are judged on: the initialize params, the order of
 * the client's first calls, the prompt content, the session/cancel lines.
 */
import { ErrorCode } from "../../src/errors.ts";
import type { ClientLine, Peer } from "./peer.ts";

/**
 * The answer to a v2 initialize: v2, the baseline session surface
 * (`capabilities.session`, which v2 needs for session/new at all), nothing
 * else advertised, no authentication.
 */
export const INITIALIZE_RESULT_V2 = {
  protocolVersion: 2,
  info: { name: "acp-router check --client", version: "0.1.0" },
  capabilities: { session: {} },
  authMethods: [],
};

/** The answer to initialize: v1, nothing optional advertised, no authentication. */
export const INITIALIZE_RESULT = {
  protocolVersion: 1,
  agentCapabilities: { loadSession: false, promptCapabilities: {}, mcpCapabilities: {}, sessionCapabilities: {} },
  authMethods: [],
  agentInfo: { name: "acp-router check --client", version: "0.1.0" },
};

/**
 * The `nextCursor` of the offers run's first session/list page: an opaque
 * token built to tempt a parser (base64 with padding, a percent escape, a
 * query string, a fragment, quotes, a backslash, non-ASCII, a trailing space).
 * A client that pages sends it back byte for byte, or it broke ACP-LIST-106.
 */
export const LIST_CURSOR = 'check:eyJwYWdlIjoyfQ==+/%2Fnext?page=2&sort=desc#frag "q" \\ é ';

/** The auth method without `type` the offers run offers (read as type agent: a client may pass it to authenticate). */
export const AGENT_AUTH_METHOD = { id: "check-agent-login", name: "Log in (acp-router check)", description: "An auth method without a type: the agent handles it in authenticate." };
/** The terminal auth method the offers run offers to a client that advertised `auth.terminal` (never to authenticate). */
export const TERMINAL_AUTH_METHOD = { type: "terminal", id: "check-terminal-login", name: "Log in in a terminal (acp-router check)", args: ["--acp-router-check-login"] };

/**
 * The authMethods of the offers run's initialize answer: the method without
 * a type, and the terminal method only when the client advertised
 * `clientCapabilities.auth.terminal` (an agent MUST offer one only then).
 */
export function authMethodsFor(clientCapabilities: unknown): Record<string, unknown>[] {
  const terminal = (clientCapabilities as { auth?: { terminal?: unknown } } | undefined)?.auth?.terminal === true;
  return terminal ? [AGENT_AUTH_METHOD, TERMINAL_AUTH_METHOD] : [AGENT_AUTH_METHOD];
}

/**
 * The protocolVersion of the version probe's initialize answer: 65535, the
 * largest the schema's uint16 allows, a version no client can speak.
 */
export const FUTURE_VERSION = 65535;

/** What the client sent during a run, for the rows judged afterwards. */
export interface Handshake {
  /** The last initialize request (a negotiating client may send one per version it offers). */
  init: { readonly line: ClientLine; readonly params: Record<string, unknown> } | undefined;
  /** When initialize was first answered, in ms. */
  initAnsweredAt: number | undefined;
  /** The protocolVersion of every initialize request, in order (a negotiating client offers its newest first). */
  readonly offered: unknown[];
  /** The protocolVersion check's agent answered. */
  answered: number | undefined;
  /** The version the run's session speaks (the last answer), 1 until initialize is answered. */
  version: 1 | 2;
  /** The first request after initialize was answered other than a repeated initialize, and when it came, in ms. */
  wentOn: { readonly method: string; readonly t: number } | undefined;
  /** The first request's method. */
  first: string | undefined;
  /** Ordering breaches: ACP-SESSION-102 / ACP-PROMPT-102 evidence. */
  readonly order: { readonly id: string; readonly evidence: string }[];
  /** session/new answers: the session id and the cwd the client sent. */
  readonly sessions: { readonly sessionId: string; readonly cwd: unknown; readonly answeredAt: number }[];
  /** Every session/prompt's content block types. */
  readonly promptTypes: string[][];
  /** session/cancel lines. */
  readonly cancels: ClientLine[];
  /** When the scenario's turn was answered, in ms. */
  turnEndedAt: number | undefined;
  /** The authMethods check's agent offered (the offers run; empty elsewhere). */
  authOffered: readonly Record<string, unknown>[];
  /** authenticate requests. */
  readonly authenticates: ClientLine[];
  /** session/list requests while sessionCapabilities.list was advertised (the offers run), with the page each was answered. */
  readonly lists: { readonly line: ClientLine; readonly answered: "first" | "last" | "refused" }[];
}

/** What a scenario's turn gets: the session, the client's capabilities, the peer. */
export interface TurnStart {
  readonly sessionId: string;
  readonly cwd: unknown;
  readonly capabilities: Record<string, unknown>;
  /** The protocol version the session speaks. */
  readonly version: 1 | 2;
}

/**
 * What check's agent answers to an initialize offering `offered`: the
 * version itself when check speaks it (1 or 2), 2 for a newer one (the v2
 * negotiation: the agent's latest), 1 for anything else; in the `version`
 * scenario {@link FUTURE_VERSION}; in `version-down` always 1 (a v2 client
 * must fall back to 1 or close).
 */
export function answerVersion(scenario: string, offered: unknown): number {
  if (scenario === "version") return FUTURE_VERSION;
  if (scenario === "version-down") return 1;
  return typeof offered === "number" && Number.isInteger(offered) && offered >= 2 ? 2 : 1;
}

type Turn = (start: TurnStart) => Promise<"end_turn" | "cancelled">;

/** Installs the agent on `peer`; `turn` runs for the first prompt. */
export function startAgent(peer: Peer, scenario: string, turn: Turn): Handshake {
  const hs: Handshake = { init: undefined, initAnsweredAt: undefined, offered: [], answered: undefined, version: 1, wentOn: undefined, first: undefined, order: [], sessions: [], promptTypes: [], cancels: [], turnEndedAt: undefined, authOffered: [], authenticates: [], lists: [] };
  let userMessages = 0;
  let turns = 0;
  const answer = (id: unknown, result: unknown) => peer.send({ jsonrpc: "2.0", id, result });
  const refuse = (id: unknown, code: number, message: string) => peer.send({ jsonrpc: "2.0", id, error: { code, message } });
  peer.onMessage = (body, line) => {
    const method = body.method as string;
    const params = (typeof body.params === "object" && body.params !== null ? body.params : {}) as Record<string, unknown>;
    const isRequest = "id" in body;
    if (isRequest && hs.first === undefined) hs.first = method;
    if (!isRequest) {
      if (method === "session/cancel") hs.cancels.push(line);
      return;
    }
    const id = body.id;
    if (hs.initAnsweredAt !== undefined && method !== "initialize") hs.wentOn ??= { method, t: line.t };
    switch (method) {
      case "initialize":
        hs.init = { line, params };
        hs.offered.push(params.protocolVersion);
        hs.answered = answerVersion(scenario, params.protocolVersion);
        hs.version = hs.answered === 2 ? 2 : 1;
        if (scenario === "offers" && hs.answered === 1) {
          hs.authOffered = authMethodsFor(params.clientCapabilities);
          answer(id, { ...INITIALIZE_RESULT, agentCapabilities: { ...INITIALIZE_RESULT.agentCapabilities, sessionCapabilities: { list: {} } }, authMethods: hs.authOffered });
        } else answer(id, hs.answered === 2 ? INITIALIZE_RESULT_V2 : { ...INITIALIZE_RESULT, protocolVersion: hs.answered });
        hs.initAnsweredAt ??= peer.now();
        return;
      case "authenticate":
        hs.authenticates.push(line);
        answer(id, {});
        return;
      case "session/new": {
        if (hs.initAnsweredAt === undefined) hs.order.push({ id: "ACP-SESSION-102", evidence: "session/new was sent before initialize was answered" });
        const sessionId = `check-${scenario}-${hs.sessions.length + 1}`;
        hs.sessions.push({ sessionId, cwd: params.cwd, answeredAt: peer.now() });
        answer(id, { sessionId });
        return;
      }
      case "session/prompt": {
        const session = hs.sessions.find((s) => s.sessionId === params.sessionId);
        if (hs.initAnsweredAt === undefined || session === undefined) {
          hs.order.push({ id: "ACP-PROMPT-102", evidence: `session/prompt was sent ${hs.initAnsweredAt === undefined ? "before initialize was answered" : `for session ${JSON.stringify(params.sessionId)}, which no session/new answer introduced`}` });
          refuse(id, ErrorCode.InvalidParams, "Invalid params: unknown session");
          return;
        }
        hs.promptTypes.push(Array.isArray(params.prompt) ? params.prompt.map((b: unknown) => String((b as { type?: unknown } | null)?.type)) : []);
        const first = turns++ === 0;
        const v2 = hs.version === 2;
        const capabilities = (hs.init?.params[v2 ? "capabilities" : "clientCapabilities"] ?? {}) as Record<string, unknown>;
        const sessionId = session.sessionId;
        const update = (u: unknown) => peer.notify("session/update", { sessionId, update: u });
        if (v2) {
          // v2: the answer acknowledges with the user message's id; the turn ends with the idle state_update.
          const messageId = `check-user-${++userMessages}`;
          answer(id, { messageId });
          update({ sessionUpdate: "user_message", messageId, content: Array.isArray(params.prompt) ? params.prompt : [] });
          update({ sessionUpdate: "state_update", state: "running" });
        }
        const run: Promise<"end_turn" | "cancelled"> = first
          ? turn({ sessionId, cwd: session.cwd, capabilities, version: hs.version })
          : Promise.resolve().then(() => {
              update({ sessionUpdate: "agent_message_chunk", ...(v2 ? { messageId: `check-agent-${turns}` } : {}), content: { type: "text", text: "check --client: one turn per scenario." } });
              return "end_turn" as const;
            });
        void run.then(
          (stopReason) => {
            if (first) hs.turnEndedAt = peer.now();
            if (v2) update({ sessionUpdate: "state_update", state: "idle", stopReason });
            else answer(id, { stopReason });
          },
          (error: unknown) => (v2 ? update({ sessionUpdate: "state_update", state: "idle", stopReason: "error", error: { code: ErrorCode.InternalError, message: (error as Error).message } }) : refuse(id, ErrorCode.InternalError, `Internal error: ${(error as Error).message}`)),
        );
        return;
      }
      // v2's baseline session surface (capabilities.session): answered, never -32601.
      case "session/list":
        if (hs.version === 2) return answer(id, { sessions: [] });
        if (scenario === "offers" && hs.answered === 1) {
          // Two pages: this run's sessions with LIST_CURSOR, then an older one and no nextCursor (the end).
          const cwd = typeof params.cwd === "string" ? params.cwd : hs.sessions.find((s) => typeof s.cwd === "string")?.cwd;
          const listed = (sessionId: string, title: string) => ({ sessionId, ...(typeof cwd === "string" ? { cwd } : { cwd: "/" }), title });
          if (params.cursor === undefined || params.cursor === null) {
            hs.lists.push({ line, answered: "first" });
            return answer(id, { sessions: hs.sessions.map((s) => listed(s.sessionId, "This session")), nextCursor: LIST_CURSOR });
          }
          if (params.cursor === LIST_CURSOR) {
            hs.lists.push({ line, answered: "last" });
            return answer(id, { sessions: [listed("check-offers-older-1", "An older session")] });
          }
          hs.lists.push({ line, answered: "refused" });
          return refuse(id, ErrorCode.InvalidParams, "Invalid params: unknown cursor");
        }
        refuse(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
        return;
      case "session/close":
      case "session/resume": {
        if (hs.version !== 2) {
          refuse(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
          return;
        }
        const known = hs.sessions.some((s) => s.sessionId === params.sessionId);
        if (known) answer(id, {});
        else refuse(id, ErrorCode.ResourceNotFound, `Resource not found: session ${JSON.stringify(params.sessionId)}`);
        return;
      }
      default:
        refuse(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
    }
  };
  return hs;
}
