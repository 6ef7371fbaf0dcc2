/**
 * A lean load generator for a Streamable HTTP ACP server on HTTP/1.1, in the
 * spirit of `wrk`: plain `node:net` sockets, requests written as prepared
 * HTTP/1.1 text, responses framed by `Content-Length` or chunked encoding, no
 * client library and no validation, so it costs far less CPU per round trip
 * than the server it drives. (`wrk` and `autocannon` themselves cannot wait
 * for answers that arrive on an SSE stream.)
 *
 * Per connection it POSTs `initialize`, opens the connection's SSE stream,
 * creates `sessions` sessions, each with its session-scoped SSE stream (which
 * the SDK's server needs) and its own keep-alive socket for POSTs; a burst
 * POSTs one `session/prompt` in every session and waits for every answer on
 * the streams. Answers are checked (`end_turn`), updates counted. Bodies are
 * framed as latin1: every byte the bench sends or expects is ASCII.
 */
import { connect, type Socket } from "node:net";
import { createReplies, endedTurns, promptIn, type Answer, type Load } from "./load.ts";

const CONNECTION = "acp-connection-id";
const SESSION = "acp-session-id";

/** A load generator set up against one server. */
interface Response {
  readonly status: number;
  readonly headers: ReadonlyMap<string, string>;
  readonly body: string;
}

/** Reads HTTP/1.1 responses off a socket: whole ones (`next`), or one streamed body (`stream`). */
class Wire {
  private buffer = "";
  private waiting: ((response: Response) => void) | undefined;
  private streaming: ((text: string) => void) | undefined;
  private chunkLeft = -1;
  /** True once the server closed the socket (an idle keep-alive socket times out: 5 s in Node). */
  closed = false;

  private readonly socket: Socket;

  constructor(socket: Socket) {
    this.socket = socket;
    socket.setEncoding("latin1");
    socket.setNoDelay(true);
    socket.on("data", (text: string) => {
      this.buffer += text;
      this.pump();
    });
    socket.on("error", () => {});
    socket.on("close", () => (this.closed = true));
  }

  /** Writes a request and resolves with its whole response. */
  exchange(request: string): Promise<Response> {
    const response = new Promise<Response>((resolve) => (this.waiting = resolve));
    this.socket.write(request, "latin1");
    return response;
  }

  /** Writes a GET and, once the 200 head arrived, hands each decoded body piece to `onText`. */
  open(request: string, onText: (text: string) => void): Promise<Response> {
    const head = new Promise<Response>((resolve) => (this.waiting = resolve));
    this.streaming = onText;
    this.socket.write(request, "latin1");
    return head;
  }

  private pump(): void {
    if (this.streaming !== undefined && this.chunkLeft >= 0) return this.decodeChunks();
    const end = this.buffer.indexOf("\r\n\r\n");
    if (end === -1) return;
    const lines = this.buffer.slice(0, end).split("\r\n");
    const status = Number((lines[0] ?? "").split(" ")[1]);
    const headers = new Map<string, string>();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const rest = this.buffer.slice(end + 4);
    if (this.streaming !== undefined) {
      this.buffer = rest;
      this.chunkLeft = 0;
      this.take({ status, headers, body: "" });
      return this.decodeChunks();
    }
    let body: string;
    const length = headers.get("content-length");
    if (length !== undefined) {
      if (rest.length < Number(length)) return;
      body = rest.slice(0, Number(length));
      this.buffer = rest.slice(Number(length));
    } else {
      const last = rest.indexOf("0\r\n\r\n");
      if (last === -1) return;
      body = decodeWhole(rest.slice(0, last));
      this.buffer = rest.slice(last + 5);
    }
    this.take({ status, headers, body });
  }

  private take(response: Response): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.(response);
  }

  /** Chunked encoding of a streamed body: `size\r\n bytes \r\n`, repeated. */
  private decodeChunks(): void {
    for (;;) {
      if (this.chunkLeft === 0) {
        const eol = this.buffer.indexOf("\r\n");
        if (eol === -1) return;
        const size = Number.parseInt(this.buffer.slice(0, eol), 16);
        if (Number.isNaN(size)) throw new Error(`not a chunk size: ${JSON.stringify(this.buffer.slice(0, 80))}`);
        if (size === 0) return;
        this.buffer = this.buffer.slice(eol + 2);
        this.chunkLeft = size + 2; // the chunk's bytes and its CRLF
      }
      if (this.buffer.length === 0) return;
      const piece = this.buffer.slice(0, this.chunkLeft);
      this.buffer = this.buffer.slice(piece.length);
      const data = Math.min(piece.length, Math.max(0, this.chunkLeft - 2));
      this.chunkLeft -= piece.length;
      if (data > 0) (this.streaming as (text: string) => void)(piece.slice(0, data));
    }
  }
}

/** A whole chunked body (ends before the last `0\r\n\r\n`). */
function decodeWhole(text: string): string {
  let out = "";
  for (let at = 0; at < text.length;) {
    const eol = text.indexOf("\r\n", at);
    const size = Number.parseInt(text.slice(at, eol), 16);
    out += text.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
  return out;
}

export async function sseLoad(url: string, options: { connections: number; sessions: number }): Promise<Load> {
  const target = new URL(url);
  const host = `${target.hostname}:${target.port}`;
  const sockets: Socket[] = [];
  const replies = createReplies();

  const wire = async (): Promise<Wire> => {
    const socket = connect(Number(target.port), target.hostname);
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    return new Wire(socket);
  };
  const post = (headers: string, body: string) => `POST ${target.pathname} HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\n${headers}content-length: ${body.length}\r\n\r\n${body}`;

  /** Parses SSE text of one stream; `data:` lines are whole JSON texts. */
  const events = () => {
    let buffered = "";
    return (text: string) => {
      buffered += text;
      let end: number;
      while ((end = buffered.indexOf("\n\n")) !== -1) {
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        for (const line of event.split("\n")) {
          if (!line.startsWith("data:")) continue;
          replies.take(JSON.parse(line.slice(line[5] === " " ? 6 : 5)) as Answer);
        }
      }
    };
  };
  const stream = async (headers: string) => {
    const head = await (await wire()).open(`GET ${target.pathname} HTTP/1.1\r\nhost: ${host}\r\naccept: text/event-stream\r\n${headers}\r\n`, events());
    if (head.status !== 200) throw new Error(`event stream refused: HTTP ${head.status}`);
  };
  /** A request whose answer arrives on an event stream (its POST is answered 202), on `slot`'s socket (a new one if the server closed it). */
  const call = async (slot: { wire?: Wire }, headers: string, method: string, params: unknown): Promise<Answer> => {
    if (slot.wire === undefined || slot.wire.closed) slot.wire = await wire();
    const { id, answer } = replies.next();
    const posted = await slot.wire.exchange(post(headers, JSON.stringify({ jsonrpc: "2.0", id, method, params })));
    if (posted.status !== 202 && posted.status !== 200) throw new Error(`${method}: HTTP ${posted.status} ${posted.body}`);
    return answer;
  };

  const sessions: { slot: { wire?: Wire }; headers: string; session: string }[] = [];
  for (let c = 0; c < options.connections; c++) {
    const control: { wire?: Wire } = { wire: await wire() };
    const init = await (control.wire as Wire).exchange(post("", JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } })));
    const connection = init.headers.get(CONNECTION);
    if (init.status !== 200 || connection === undefined) throw new Error(`initialize: HTTP ${init.status} ${init.body}`);
    await stream(`${CONNECTION}: ${connection}\r\n`);
    for (let s = 0; s < options.sessions; s++) {
      const created = await call(control, `${CONNECTION}: ${connection}\r\n`, "session/new", { cwd: "/", mcpServers: [] });
      const session = created.result?.sessionId;
      if (typeof session !== "string") throw new Error(`session/new: ${JSON.stringify(created)}`);
      const headers = `${CONNECTION}: ${connection}\r\n${SESSION}: ${session}\r\n`;
      await stream(headers);
      sessions.push({ slot: {}, headers, session });
    }
  }

  return {
    async burst() {
      return endedTurns(await Promise.all(sessions.map(({ slot, headers, session }) => call(slot, headers, "session/prompt", promptIn(session)))));
    },
    get updates() {
      return replies.updates;
    },
    close() {
      for (const socket of sockets) socket.destroy();
    },
  };
}
