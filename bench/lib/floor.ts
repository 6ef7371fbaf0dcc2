/**
 * The floor: decode the chunk (Buffer), split lines, JSON.parse, switch on
 * the method, a trivial handler, JSON.stringify the answer, TextEncoder —
 * no framework, no validation, no promises. The least work a correct peer
 * can do per line. The same line handling serves the in-process peer
 * (`floorPeer`) and the floor processes of the stdio figures.
 */
import { ingestPeer, Sink, type IngestPeer } from "./sink.ts";

const encoder = new TextEncoder();

/** What the floor does with what it reads: answer lines out, and the trivial handlers. */
export interface FloorHooks {
  /** One answer line (newline included) to send back. */
  answer(text: string): void;
  /** The `session/update` handler: updates are never answered, so the call is the completion. */
  update(params: unknown): void;
  /** Called for a valid `session/prompt` before its answer (the small-message agent streams its updates here). Optional. */
  prompt?(params: { sessionId?: unknown }): void;
  /** A response (no method): the floor client matches it to its request. Absent on agents. */
  response?(message: { id?: unknown; result?: unknown; error?: unknown }): void;
}

/**
 * The floor's line handling: returns `push(bytes)`, which decodes a chunk,
 * splits lines, `JSON.parse`s each and switches on the method.
 */
export function floorLines(hooks: FloorHooks): (bytes: Uint8Array) => void {
  // The fastest decode Node has (TextDecoder in stream mode is several times slower). The bench's
  // chunks end on line boundaries, so no multi-byte character is ever split between chunks.
  const decode = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  let pending = "";
  const prompt = (_params: unknown) => ({ stopReason: "end_turn" });
  const answer = (message: object) => hooks.answer(`${JSON.stringify(message)}\n`);
  const handle = (text: string) => {
    const msg = JSON.parse(text) as { id?: number | string; method?: string; params?: { sessionId?: unknown; prompt?: unknown } };
    switch (msg.method) {
      case "session/prompt": {
        const p = msg.params;
        if (typeof p?.sessionId !== "string" || !Array.isArray(p.prompt)) answer({ jsonrpc: "2.0", id: msg.id, error: { code: -32602, message: "Invalid params" } });
        else {
          hooks.prompt?.(p);
          answer({ jsonrpc: "2.0", id: msg.id, result: prompt(p) });
        }
        return;
      }
      case "session/update":
        hooks.update(msg.params);
        return;
      case undefined:
        hooks.response?.(msg);
        return;
      default:
        if (msg.id !== undefined) answer({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } });
    }
  };
  return (bytes: Uint8Array) => {
    const text = pending + decode(bytes);
    let start = 0;
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
      if (nl > start) handle(text.slice(start, nl));
      start = nl + 1;
    }
    pending = text.slice(start);
  };
}

/** The floor: the least work a correct peer can do per line. */
export function floorPeer(capture = false): IngestPeer {
  const sink = new Sink(capture);
  const push = floorLines({
    answer: (text) => sink.raw(encoder.encode(text)),
    update: () => sink.answers.hit(),
  });
  return ingestPeer(sink.answers, push, sink, () => {});
}
