/**
 * An agent process on stdin/stdout for the stdio figures, one of three
 * peers answering the same lines:
 * - `floor`: the floor's line handling (`floor.ts`), the answers of one
 *   input chunk written with one `write`;
 * - `ours`: `serveStdio` with the bench's reference agent handler;
 * - `sdk`: the SDK's agent app over `ndJsonStream` on stdin/stdout.
 *
 * With `stream` as second argument (the small-message case) each prompt
 * is answered after two one-line `session/update`s of its session.
 *
 *   node --import tsx bench/lib/agent-process.ts floor|ours|sdk [stream]
 */
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { floorLines } from "./floor.ts";
import { HELLO_UPDATES, helloUpdate } from "./messages.ts";
import { ours } from "./ours.ts";
import { oursAgentHandler, oursStreamingAgentHandler, sdkAgentApp, sdkStreamingAgentApp } from "./peers.ts";

const peer = process.argv[2];
const streaming = process.argv[3] === "stream";
if (peer === "floor") {
  let out = "";
  const notify = (params: object) => (out += `${JSON.stringify({ jsonrpc: "2.0", method: "session/update", params })}\n`);
  const prompt = streaming ? (p: { sessionId?: unknown }) => HELLO_UPDATES.forEach((text) => notify(helloUpdate(p.sessionId, text))) : undefined;
  const push = floorLines({ answer: (text) => (out += text), update: () => {}, ...(prompt ? { prompt } : {}) });
  process.stdin.on("data", (chunk: Buffer) => {
    push(chunk);
    if (out.length === 0) return;
    process.stdout.write(out);
    out = "";
  });
} else if (peer === "ours") {
  ours.serveStdio(streaming ? oursStreamingAgentHandler() : oursAgentHandler());
} else if (peer === "sdk") {
  const stream = acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
  const conn = (streaming ? sdkStreamingAgentApp() : sdkAgentApp()).connect(stream);
  process.stdin.on("end", () => conn.close());
} else {
  process.stderr.write(`agent-process: unknown peer ${String(peer)}\n`);
  process.exit(2);
}
