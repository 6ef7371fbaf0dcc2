/**
 * The scripted ACP v1 agent of one `check --client` run, on the run's
 * {@link Peer}. It answers `initialize` with protocol version 1 and no
 * optional capability (so every gated agent method is off limits),
 * `authenticate` with `{}`, `session/new` with a fresh session id, and runs
 * the scenario's turn on the first `session/prompt` (later prompts get one
 * message chunk and `end_turn`). Every other request gets -32601. It records
 * what the handshake rows are judged on: the initialize params, the order of
 * the client's first calls, the prompt content, the session/cancel lines.
 */
import { ErrorCode } from "../../src/errors.ts";
import type { ClientLine, Peer } from "./peer.ts";

/** The answer to initialize: v1, nothing optional advertised, no authentication. */
export const INITIALIZE_RESULT = {
  protocolVersion: 1,
  agentCapabilities: { loadSession: false, promptCapabilities: {}, mcpCapabilities: {}, sessionCapabilities: {} },
  authMethods: [],
  agentInfo: { name: "acp-router check --client", version: "0.1.0" },
};

/** What the client sent during a run, for the rows judged afterwards. */
export interface Handshake {
  /** The last initialize request (a negotiating client may send one per version it offers). */
  init: { readonly line: ClientLine; readonly params: Record<string, unknown> } | undefined;
  /** When initialize was first answered, in ms. */
  initAnsweredAt: number | undefined;
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
}

/** What a scenario's turn gets: the session, the client's capabilities, the peer. */
export interface TurnStart {
  readonly sessionId: string;
  readonly cwd: unknown;
  readonly capabilities: Record<string, unknown>;
}

type Turn = (start: TurnStart) => Promise<"end_turn" | "cancelled">;

/** Installs the agent on `peer`; `turn` runs for the first prompt. */
export function startAgent(peer: Peer, scenario: string, turn: Turn): Handshake {
  const hs: Handshake = { init: undefined, initAnsweredAt: undefined, first: undefined, order: [], sessions: [], promptTypes: [], cancels: [], turnEndedAt: undefined };
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
    switch (method) {
      case "initialize":
        hs.init = { line, params };
        answer(id, INITIALIZE_RESULT);
        hs.initAnsweredAt ??= peer.now();
        return;
      case "authenticate":
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
        const capabilities = (hs.init?.params.clientCapabilities ?? {}) as Record<string, unknown>;
        const run: Promise<"end_turn" | "cancelled"> = first
          ? turn({ sessionId: session.sessionId, cwd: session.cwd, capabilities })
          : Promise.resolve().then(() => {
              peer.notify("session/update", { sessionId: session.sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "check --client: one turn per scenario." } } });
              return "end_turn" as const;
            });
        void run.then(
          (stopReason) => {
            if (first) hs.turnEndedAt = peer.now();
            answer(id, { stopReason });
          },
          (error: unknown) => refuse(id, ErrorCode.InternalError, `Internal error: ${(error as Error).message}`),
        );
        return;
      }
      default:
        refuse(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
    }
  };
  return hs;
}
