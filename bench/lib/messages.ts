/**
 * The three benchmark messages, as NDJSON lines and as byte chunks of many
 * lines (what a pipe delivers when a peer writes a burst).
 */

const encoder = new TextEncoder();

/** The session every message talks about. */
export const SESSION_ID = "sess-bench-1";

/** 1 KB of prompt text (plain ASCII, so 1,024 bytes on the wire). */
export const PROMPT_TEXT = "Summarise the build log and suggest a fix. ".repeat(24).slice(0, 1024);

/** 200 characters of streamed agent text. */
export const CHUNK_TEXT = "The build failed because a dependency was missing; I added it. ".repeat(4).slice(0, 200);

/** The `session/prompt` params every peer sends (valid). */
export const promptParams = { sessionId: SESSION_ID, prompt: [{ type: "text" as const, text: PROMPT_TEXT }] };

/** The `session/update` params every peer sends. */
export const updateParams = {
  sessionId: SESSION_ID,
  update: { sessionUpdate: "agent_message_chunk" as const, content: { type: "text" as const, text: CHUNK_TEXT } },
};

export type MessageKind = "prompt" | "update" | "invalid";

/** Human labels for the three messages. */
export const MESSAGE_LABEL: Record<MessageKind, string> = {
  prompt: "session/prompt (1 KB text)",
  update: "session/update chunk (200 chars)",
  invalid: "invalid session/prompt (-32602)",
};

/** The small-message stdio agent case: the prompt text, and the text of each of the two updates streamed before its answer. */
export const HELLO_TEXT = "hello";
export const HELLO_UPDATES = ["Hello", " there!"] as const;

/** The `session/update` params of one small streamed chunk of `sessionId`. */
export function helloUpdate(sessionId: unknown, text: string) {
  return { sessionId: sessionId as string, update: { sessionUpdate: "agent_message_chunk" as const, content: { type: "text" as const, text } } };
}

/** A `session/prompt` line of the small-message case: `"hello"` in session `s<id>` (one prompt per session). */
export function helloLine(id: number): string {
  return `${JSON.stringify({ jsonrpc: "2.0", id, method: "session/prompt", params: { sessionId: `s${id}`, prompt: [{ type: "text", text: HELLO_TEXT }] } })}\n`;
}

/** The `initialize` request line every agent-side peer gets first (id 0). */
export const INITIALIZE_LINE = `${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } })}\n`;

/** One line of `kind` with request id `id` (updates carry no id). */
export function line(kind: MessageKind, id: number, text = PROMPT_TEXT): string {
  switch (kind) {
    case "prompt":
      return `${JSON.stringify({ jsonrpc: "2.0", id, method: "session/prompt", params: { sessionId: SESSION_ID, prompt: [{ type: "text", text }] } })}\n`;
    case "invalid":
      return `${JSON.stringify({ jsonrpc: "2.0", id, method: "session/prompt", params: { sessionId: 42, prompt: [{ type: "text", text }] } })}\n`;
    case "update":
      return `${JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: updateParams })}\n`;
  }
}

/** `count` lines of `kind` with ids `firstId`, `firstId + 1`, ... as one UTF-8 chunk. */
export function chunk(kind: MessageKind, count: number, firstId = 1, text = PROMPT_TEXT): Uint8Array {
  let out = "";
  for (let i = 0; i < count; i++) out += line(kind, firstId + i, text);
  return encoder.encode(out);
}

/** True when the agent-side answers `kind` must produce; updates are never answered. */
export function isAnswered(kind: MessageKind): boolean {
  return kind !== "update";
}
