/**
 * The floor: decode the chunk (Buffer), split lines, JSON.parse, switch on
 * the method, a trivial handler, JSON.stringify the answer, TextEncoder —
 * no framework, no validation, no promises. The least work a correct peer
 * can do per line.
 */
import { ingestPeer, Sink, type IngestPeer } from "./sink.ts";

const encoder = new TextEncoder();

/** The floor: the least work a correct peer can do per line. */
export function floorPeer(capture = false): IngestPeer {
  const sink = new Sink(capture);
  // The fastest decode Node has (TextDecoder in stream mode is several times slower). The bench's
  // chunks end on line boundaries, so no multi-byte character is ever split between chunks.
  const decode = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  let pending = "";
  const handlers = {
    prompt: (_params: unknown) => ({ stopReason: "end_turn" }),
    // Updates are never answered: the handler's call is the completion.
    sessionUpdate: (_params: unknown) => sink.answers.hit(),
  };
  const answer = (message: object) => sink.raw(encoder.encode(`${JSON.stringify(message)}\n`));
  const handle = (text: string) => {
    const msg = JSON.parse(text) as { id?: number | string; method?: string; params?: { sessionId?: unknown; prompt?: unknown } };
    switch (msg.method) {
      case "session/prompt": {
        const p = msg.params;
        if (typeof p?.sessionId !== "string" || !Array.isArray(p.prompt)) answer({ jsonrpc: "2.0", id: msg.id, error: { code: -32602, message: "Invalid params" } });
        else answer({ jsonrpc: "2.0", id: msg.id, result: handlers.prompt(p) });
        return;
      }
      case "session/update":
        handlers.sessionUpdate(msg.params);
        return;
      default:
        if (msg.id !== undefined) answer({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } });
    }
  };
  const push = (bytes: Uint8Array) => {
    const text = pending + decode(bytes);
    let start = 0;
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
      if (nl > start) handle(text.slice(start, nl));
      start = nl + 1;
    }
    pending = text.slice(start);
  };
  return ingestPeer(sink.answers, push, sink, () => {});
}
