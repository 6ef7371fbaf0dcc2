/**
 * The agent end of one `check --client` run: a loopback TCP listener that
 * the bridge (`bridge.mjs`, the client's `{agent}`) connects to. It frames the
 * client's lines through the router's framer and inspect's monitor (so every
 * client-side rule inspect knows is checked on the client's traffic), writes
 * the agent's lines as the scenario gives them, and records the shutdown: when
 * the client closed the agent's stdin (EOF on the socket) and when the agent
 * "exited" (the check closes the socket {@link AGENT_EXIT_DELAY_MS} after that
 * EOF, and the bridge exits with it).
 */
import { createServer, type Server, type Socket } from "node:net";
import { lineReader, readerLimits } from "../../src/transport/reader.ts";
import { createMonitor, type Monitor } from "../inspect/monitor.ts";
import { createUtf8Watch, type Utf8Watch } from "../check/utf8-watch.ts";

/**
 * How long the agent takes to exit after its stdin closed, in ms. Default 300:
 * long enough that a client which does not wait for the agent's exit is seen
 * exiting first, short enough not to slow a run down.
 */
export const AGENT_EXIT_DELAY_MS = 300;

/** One line the client wrote, parsed when it is JSON, with its arrival in ms since the run started. */
export interface ClientLine {
  readonly text: string;
  readonly body: Record<string, unknown> | undefined;
  readonly t: number;
  /** The monitor's index of this message (both directions counted). */
  readonly index: number;
}

export interface Peer {
  readonly port: number;
  readonly monitor: Monitor;
  /** Every line the client wrote. */
  readonly lines: ClientLine[];
  /** The client's bytes, checked as strict UTF-8 (a decoded U+FFFD alone proves nothing: it may be a real character). */
  readonly utf8: Utf8Watch;
  /** Ms since the run started. */
  now(): number;
  /** True once the bridge connected. */
  readonly connected: boolean;
  /** When the client closed the agent's stdin (EOF), in ms; undefined while it is open. */
  readonly eofAt: number | undefined;
  /** When the agent's side was closed (the agent exited), in ms. */
  readonly agentExitAt: number | undefined;
  /** When the connection was gone without an EOF first (the bridge was killed), in ms. */
  readonly droppedAt: number | undefined;
  /** Extra connections the client opened (the client started the agent more than once). */
  readonly extraConnections: number;
  /** Writes one message (serialized as one line). */
  send(message: unknown): void;
  /** Writes `text` as one line as it is (a line that is not JSON, a body that is not a message). */
  sendLine(text: string): void;
  /** Sends a request with a fresh id and resolves with the client's answer, or undefined after `ms` or when the connection is gone. */
  request(method: string, params: unknown, ms: number): Promise<Record<string, unknown> | undefined>;
  /**
   * Writes a request line whose id is the JSON token `digits` as written (2^53+1, 0, a string) and resolves with the
   * first answer that names none of the requests {@link request} sent (this request is the only other one pending);
   * undefined after `ms` or when the connection is gone. The answer's index goes to {@link judged}.
   */
  requestRaw(digits: string, method: string, params: unknown, ms: number): Promise<ClientLine | undefined>;
  /** Requests written raw by {@link requestRaw}: their line, and the answer that probe judged. */
  readonly raw: { readonly digits: string; readonly method: string; readonly line: string }[];
  /** Indexes of client lines a probe judged itself (the answers to raw requests): the traffic rows leave them alone. */
  readonly judged: Set<number>;
  notify(method: string, params: unknown): void;
  /** Resolves with the first client line at or after `from` matching `test`, or undefined after `ms` or when the connection is gone. */
  waitFor(test: (line: ClientLine) => boolean, ms: number, from?: number): Promise<ClientLine | undefined>;
  /** Resolves after `ms`, early when the connection is gone. */
  pause(ms: number): Promise<void>;
  /** Ids of the requests the agent sent, in order, with their method and the line as written. */
  readonly sent: { readonly id: number | string; readonly method: string; readonly line: string; readonly t: number }[];
  /** Resolves once the bridge connected, or after `ms` with false. */
  connection(ms: number): Promise<boolean>;
  /** Called on every client request or notification (the scenario's agent). */
  onMessage: (body: Record<string, unknown>, line: ClientLine) => void;
  close(): void;
}

const parseBody = (text: string): Record<string, unknown> | undefined => {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

/** Starts listening on 127.0.0.1 (an ephemeral port) for the run's bridge. */
export async function startPeer(): Promise<Peer> {
  const started = performance.now();
  const now = () => performance.now() - started;
  const monitor = createMonitor();
  const lines: ClientLine[] = [];
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of waiters) w();
  };
  const sent: { id: number | string; method: string; line: string; t: number }[] = [];
  const raw: { digits: string; method: string; line: string }[] = [];
  const judged = new Set<number>();
  const utf8 = createUtf8Watch();
  let socket: Socket | undefined;
  let eofAt: number | undefined;
  let agentExitAt: number | undefined;
  let droppedAt: number | undefined;
  let gone = false;
  let extra = 0;
  // Alternating number and string ids, so a client that changes an id's type is seen.
  let nextId = 0;
  const freshId = (): number | string => (nextId++ % 2 === 0 ? 100 + nextId : `check-${nextId}`);
  // The client's lines, read as a connection with the default limits reads them (the one reader, no answers).
  const framer = lineReader(
    {
      line(text) {
        const { index } = monitor.observe("client", text, now());
        const line = { text, body: parseBody(text), t: now(), index };
        lines.push(line);
        if (line.body !== undefined && typeof line.body.method === "string") peer.onMessage(line.body, line);
        wake();
      },
      oversized: (n) => monitor.oversized("client", n, now()),
    },
    readerLimits(),
  );
  const server: Server = createServer({ allowHalfOpen: true }, (s) => {
    if (socket !== undefined) {
      extra++;
      s.destroy();
      return;
    }
    socket = s;
    s.setNoDelay(true);
    s.on("data", (chunk: Buffer) => {
      utf8.push(chunk);
      framer.push(chunk);
    });
    s.on("end", () => {
      framer.end();
      eofAt = now();
      wake();
      setTimeout(() => {
        agentExitAt = now();
        s.end();
      }, AGENT_EXIT_DELAY_MS).unref();
    });
    s.on("error", () => undefined);
    s.on("close", () => {
      if (eofAt === undefined) droppedAt = now();
      gone = true;
      wake();
    });
    wake();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;

  const waitFor = (test: (line: ClientLine) => boolean, ms: number, from = 0): Promise<ClientLine | undefined> =>
    new Promise((resolve) => {
      const check = () => {
        const found = lines.slice(from).find(test);
        if (found !== undefined || gone || eofAt !== undefined) {
          finish(found);
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => finish(undefined), ms);
      const finish = (v: ClientLine | undefined) => {
        clearTimeout(timer);
        waiters.delete(onWake);
        resolve(v);
      };
      const onWake = () => void check();
      if (!check()) waiters.add(onWake);
    });

  const peer: Peer = {
    port,
    monitor,
    lines,
    utf8,
    now,
    sent,
    raw,
    judged,
    get connected() {
      return socket !== undefined;
    },
    get eofAt() {
      return eofAt;
    },
    get agentExitAt() {
      return agentExitAt;
    },
    get droppedAt() {
      return droppedAt;
    },
    get extraConnections() {
      return extra;
    },
    send(message) {
      peer.sendLine(JSON.stringify(message));
    },
    sendLine(text) {
      monitor.observe("agent", text, now());
      if (socket !== undefined && !gone && socket.writable) socket.write(`${text}\n`);
    },
    request(method, params, ms) {
      const id = freshId();
      const line = JSON.stringify({ jsonrpc: "2.0", id, method, params });
      sent.push({ id, method, line, t: now() });
      const from = lines.length;
      peer.sendLine(line);
      return waitFor((l) => l.body !== undefined && l.body.method === undefined && l.body.id === id, ms, from).then((l) => l?.body);
    },
    async requestRaw(digits, method, params, ms) {
      const line = `{"jsonrpc":"2.0","id":${digits},"method":${JSON.stringify(method)},"params":${JSON.stringify(params)}}`;
      raw.push({ digits, method, line });
      const from = lines.length;
      peer.sendLine(line);
      // The only other request pending is this one: an answer that names none of the counter's requests is its answer.
      const answer = await waitFor((l) => l.body !== undefined && l.body.method === undefined && ("result" in l.body || "error" in l.body) && !sent.some((r) => r.id === l.body?.id), ms, from);
      if (answer !== undefined) judged.add(answer.index);
      return answer;
    },
    notify(method, params) {
      peer.send({ jsonrpc: "2.0", method, params });
    },
    waitFor,
    pause: (ms) =>
      new Promise((resolve) => {
        if (gone) return resolve();
        const onWake = () => (gone ? finish() : undefined);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(onWake);
          resolve();
        };
        const timer = setTimeout(finish, ms);
        waiters.add(onWake);
      }),
    connection: (ms) =>
      new Promise((resolve) => {
        if (socket !== undefined) return resolve(true);
        const timer = setTimeout(() => {
          waiters.delete(onWake);
          resolve(false);
        }, ms);
        const onWake = () => {
          if (socket === undefined) return;
          clearTimeout(timer);
          waiters.delete(onWake);
          resolve(true);
        };
        waiters.add(onWake);
      }),
    onMessage: () => undefined,
    close() {
      socket?.destroy();
      server.close();
    },
  };
  return peer;
}
