/** Raw HTTP against an ACP endpoint, for the RFD table: requests with chosen headers, event streams read with deadlines. */
import { createSseParser } from "../../src/remote/sse-parser.ts";
import { onCleanup, until } from "./support.ts";

export const INIT = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } };

/** POSTs `body` (a value, or raw text) with `headers` (content-type application/json unless given). */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body), signal: AbortSignal.timeout(5000) });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Sends `method` with `headers` and no body; returns the status (the body is discarded). */
export async function bare(url: string, method: string, headers: Record<string, string>): Promise<number> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 5000);
  try {
    const res = await fetch(url, { method, headers, signal: controller.signal });
    // An event stream that was opened anyway would never end: stop reading it.
    controller.abort();
    return res.status;
  } finally {
    clearTimeout(timer);
  }
}

/** Initializes a connection; returns its id. */
export async function initialize(url: string): Promise<string> {
  const res = await post(url, INIT);
  const id = res.headers.get("acp-connection-id");
  if (res.status !== 200 || id === null) throw new Error(`initialize failed: ${res.status} ${res.text}`);
  return id;
}

/** An open event stream: the messages received so far, and whether it ended. */
export interface Events {
  readonly status: number;
  readonly contentType: string | null;
  readonly messages: Record<string, unknown>[];
  ended: boolean;
  /** Stops reading: the client goes away. */
  abort(): void;
  /** Resolves with the first message matching `test` (already received or arriving within 5 s). */
  next(test: (m: Record<string, unknown>) => boolean, label: string): Promise<Record<string, unknown>>;
}

/** Opens a GET event stream; it is aborted after the test. */
export async function events(url: string, headers: Record<string, string>): Promise<Events> {
  const controller = new AbortController();
  onCleanup(() => controller.abort());
  const res = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: controller.signal });
  const out: Events = {
    status: res.status,
    contentType: res.headers.get("content-type"),
    messages: [],
    ended: false,
    abort: () => controller.abort(),
    async next(test, label) {
      await until(() => out.messages.some(test) || out.ended, label);
      const found = out.messages.find(test);
      if (!found) throw new Error(`the stream ended before ${label}`);
      return found;
    },
  };
  if (res.status !== 200 || !res.body) {
    out.ended = true;
    await res.body?.cancel().catch(() => {});
    return out;
  }
  const parser = createSseParser((data) => out.messages.push(JSON.parse(data) as Record<string, unknown>), 1 << 24);
  const decoder = new TextDecoder();
  void (async () => {
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.push(decoder.decode(chunk, { stream: true }));
    } catch {
      // Aborted.
    }
    out.ended = true;
  })();
  return out;
}

/** A connection with its stream open and one session: ids and the stream. */
export async function withSession(url: string): Promise<{ connectionId: string; sessionId: string; stream: Events }> {
  const connectionId = await initialize(url);
  const stream = await events(url, { "acp-connection-id": connectionId });
  const res = await post(url, { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/", mcpServers: [] } }, { "acp-connection-id": connectionId });
  if (res.status !== 202) throw new Error(`session/new: ${res.status} ${res.text}`);
  const answer = await stream.next((m) => m.id === 1, "the session/new answer");
  return { connectionId, sessionId: (answer.result as { sessionId: string }).sessionId, stream };
}
