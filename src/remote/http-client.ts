/**
 * The client side of Streamable HTTP (RFD): a `Transport` for
 * `connectClient`. The first message (`initialize`) is POSTed without a
 * connection id and answered in the body; then one connection-scoped GET
 * event stream carries everything the server sends, and every further
 * message is one POST. One session's POSTs leave one after another (each
 * waits for the previous one's 202), so the server sees them in the order
 * they were written; a message of no session waits for everything before it
 * and holds back everything after. A stream that drops is reopened with
 * `Last-Event-ID` (bounded retries with backoff) and the server replays
 * what was missed (`./http-client-stream.ts`). Cookies are
 * kept in a jar for the transport's life (the RFD makes them mandatory).
 * Flow control: while paused, the event streams are not read (their bodies'
 * queues fill and a streaming `fetch` stops reading the socket), so the
 * server's writes block instead of this process buffering them.
 * Portable: needs only `fetch`.
 */
import type { RequestId } from "../context.ts";
import { wireError } from "../errors.ts";
import type { MessageKind } from "../jsonrpc/classify.ts";
import { deliverLine, readerLimits } from "../transport/reader.ts";
import { createPauseGate, type Transport, type TransportReceiver } from "../transport/transport.ts";
import { createCookieJar, type CookieJar } from "./cookies.ts";
import { openEventStream, StreamRefusedError, type StreamHost } from "./http-client-stream.ts";
import { answerFor, createLanes, refusedAnswer } from "./http-client-support.ts";
import { sessionIdOfMessage } from "../jsonrpc/session-id.ts";
import { HEADER_CONNECTION_ID, HEADER_SESSION_ID, JSON_TYPE, messageLine, oneLine } from "./protocol.ts";

/** Options of {@link httpClientTransport}. */
export interface HttpClientOptions {
  /** The fetch to use. Default `globalThis.fetch` (HTTP/1.1 on Node; pass `h2Fetch` from `./node-h2.ts` for HTTP/2). */
  readonly fetch?: typeof globalThis.fetch;
  /** Headers sent with every request (for example `authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The cookie jar. Default: a fresh jar for this transport. */
  readonly cookies?: CookieJar;
  /** Longest event accepted on the stream. Default 32 MiB, as `maxMessageBytes`. */
  readonly maxMessageBytes?: number;
  /**
   * Also open a session-scoped GET stream (`Acp-Session-Id`) before the first
   * message of each session. Default false: the RFD's single connection-scoped
   * stream carries everything. Needed for servers that deliver a session's
   * messages only on its own stream, such as the SDK's `AcpServer` 2.4
   * (docs/compatibility.md). A session stream the server refuses fails that
   * session's requests (a JSON-RPC error naming the refusal), nothing else;
   * the next request of the session asks again.
   */
  readonly sessionStreams?: boolean;
  /** Reconnects of an event stream that dropped, each resuming with `Last-Event-ID`. Default 5. */
  readonly reconnectAttempts?: number;
  /** Delay before the first reconnect, doubled for each next one. Default 100 ms: 5 tries span about 3 s. */
  readonly reconnectDelayMs?: number;
}

/** POST statuses after which the connection is unusable: rejected credentials, or the server no longer knows it. */
const FATAL: ReadonlySet<number> = new Set([401, 403, 404, 410]);

/** A Streamable HTTP transport to the ACP endpoint at `url` (for example `http://127.0.0.1:8080/acp`). */
export function httpClientTransport(url: string, options: HttpClientOptions = {}): Transport {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const jar = options.cookies ?? createCookieJar();
  const maxBytes = readerLimits({ maxMessageBytes: options.maxMessageBytes }).maxMessageBytes;
  /** One controller per open event stream (a shared signal would collect a listener per stream). */
  const streamAborts = new Set<AbortController>();
  const abortStreams = () => {
    for (const controller of streamAborts) controller.abort();
    streamAborts.clear();
  };
  /** Closed while paused: event streams wait on it before their next read. */
  const gate = createPauseGate();
  /** Requests the server sent us that named a session: our answer must carry the same `Acp-Session-Id`. */
  const serverRequests = new Map<RequestId, string>();
  let receiver: TransportReceiver | undefined;
  let connectionId: string | undefined;
  const schedule = createLanes((error) => fail(error));
  let closed = false;
  let ended = false;

  const end = (error?: Error) => {
    if (ended) return;
    ended = true;
    abortStreams();
    gate.resume();
    receiver?.end(error);
  };
  /** Hands one message to the connection, parsed once (`deliverLine`); `seen` reads it first. */
  const deliver = (text: string, seen?: (value: unknown, kind: MessageKind | undefined) => void) => {
    if (!ended && receiver) deliverLine(receiver, oneLine(text), seen);
  };
  const request = async (method: string, headers: Record<string, string>, body?: string, signal?: AbortSignal): Promise<Response> => {
    const all: Record<string, string> = { ...options.headers, ...headers };
    const cookie = jar.header(url);
    if (cookie !== undefined) all.cookie = cookie;
    const init: RequestInit = body === undefined ? { method, headers: all } : { method, headers: all, body };
    if (signal !== undefined) init.signal = signal;
    const response = await doFetch(url, init);
    const setCookies = response.headers.getSetCookie?.() ?? [];
    if (setCookies.length > 0) jar.store(url, setCookies);
    return response;
  };

  /** Session-scoped streams by session id (option `sessionStreams`), settled once their head arrived. */
  const sessionStreams = new Map<string, Promise<void>>();
  const host: StreamHost = {
    request,
    gate,
    maxBytes,
    aborts: streamAborts,
    stopped: () => ended || closed,
    event: (data) => deliver(data, noteServerRequest),
    reconnectAttempts: options.reconnectAttempts ?? 5,
    reconnectDelayMs: options.reconnectDelayMs ?? 100,
  };
  const fail = (error: unknown) => {
    if (!closed) end(error instanceof Error ? error : new Error(String(error)));
  };
  const ensureSessionStream = (id: string, session: string): Promise<void> => {
    let ready = sessionStreams.get(session);
    if (ready === undefined) {
      const opening = openEventStream(host, { [HEADER_CONNECTION_ID]: id, [HEADER_SESSION_ID]: session });
      ready = opening.then(({ read }) => {
        // A session stream the server ends is opened again by that session's next message; one that
        // dropped and could not be resumed lost events: the connection fails with the reason.
        void read.then(
          () => sessionStreams.delete(session),
          (error: unknown) => {
            sessionStreams.delete(session);
            fail(error);
          },
        );
      });
      // A refused stream is asked for again by the session's next message.
      ready.catch(() => sessionStreams.delete(session));
      sessionStreams.set(session, ready);
    }
    return ready;
  };
  /** A request of the server for one session (read before the connection gets it): remember which, for the answer's Acp-Session-Id. */
  const noteServerRequest = (value: unknown, kind: MessageKind | undefined) => {
    if (kind !== "request") return;
    const session = sessionIdOfMessage(value);
    if (session !== undefined) serverRequests.set((value as { id: RequestId }).id, session);
  };

  type Body = { id?: unknown; method?: unknown } | undefined;
  /** The session a line belongs to: its `params.sessionId`, or for an answer, the session of the server's request. */
  const sessionOf = (body: Body): string | undefined => {
    if (body === undefined) return undefined;
    const session = sessionIdOfMessage(body);
    if (session !== undefined || body.method !== undefined || (typeof body.id !== "string" && typeof body.id !== "number")) return session;
    const routed = serverRequests.get(body.id);
    serverRequests.delete(body.id);
    return routed;
  };

  const send = async (line: string, body: Body, session: string | undefined) => {
    if (ended) return;
    const isRequest = body !== undefined && typeof body.method === "string" && body.id !== undefined;
    if (connectionId === undefined) return initialize(line);
    if (session !== undefined && options.sessionStreams === true) {
      try {
        await ensureSessionStream(connectionId, session);
      } catch (error) {
        if (!(error instanceof StreamRefusedError)) throw error;
        // Only this session's requests fail: their answers could not arrive. Notifications and answers still go out.
        if (isRequest) return deliver(refusedAnswer(body?.id, session, error));
      }
    }
    const headers: Record<string, string> = { "content-type": JSON_TYPE, [HEADER_CONNECTION_ID]: connectionId };
    if (session !== undefined) headers[HEADER_SESSION_ID] = session;
    const response = await request("POST", headers, line);
    if (response.status === 202 || response.status === 200) {
      // Read the (empty) body to its end rather than cancel it: a cancel resets an HTTP/2 stream the
      // server already ended, and Node's server closes a session after 1,000 such frames.
      await response.arrayBuffer().catch(() => {});
      return;
    }
    const text = await response.text();
    if (FATAL.has(response.status)) throw new Error(`the server refused a message: HTTP ${response.status} ${text}`);
    // Only this request fails; its answer is the server's JSON-RPC error when it sent one.
    if (isRequest) deliver(answerFor(body?.id, response.status, text));
  };
  const initialize = async (line: string) => {
    const response = await request("POST", { "content-type": JSON_TYPE }, line);
    const text = await response.text();
    const id = response.headers.get(HEADER_CONNECTION_ID);
    if (response.status !== 200 || id === null) {
      if (text.startsWith("{")) deliver(text);
      throw new Error(`initialize was refused: HTTP ${response.status} ${text}`);
    }
    connectionId = id;
    deliver(text);
    openEventStream(host, { [HEADER_CONNECTION_ID]: id }).then(({ read }) => read.then(() => fail(new Error("the server closed the event stream")), fail), fail);
  };

  /** Sends one message in its session's lane (its body read for the session and whether it is a request). */
  const post = (line: string) => {
    let body: Body;
    try {
      body = JSON.parse(line) as Body;
    } catch {
      body = undefined;
    }
    const session = sessionOf(body);
    schedule(session, () => send(line, body, session));
  };

  return {
    start(r) {
      receiver = r;
    },
    write(text) {
      if (closed) return;
      for (const line of text.split("\n")) if (line !== "") post(line);
    },
    writeMessage(text) {
      if (!closed) post(messageLine(text));
    },
    pause() {
      if (!ended) gate.pause();
    },
    resume: () => gate.resume(),
    close() {
      if (closed) return;
      closed = true;
      // What was written still goes out, then the connection is ended on the server (best effort).
      // DELETE first: a server that saw the streams end first could end the connection, and answer the DELETE 404.
      schedule(undefined, async () => {
        if (connectionId !== undefined && !ended)
          await request("DELETE", { [HEADER_CONNECTION_ID]: connectionId })
            .then((r) => r.arrayBuffer())
            .catch(() => {});
        abortStreams();
        if (options.cookies === undefined) jar.clear();
        end();
      });
    },
  };
}
