/**
 * An agent process on stdin/stdout for the stdio figures, one of three
 * peers answering the same lines:
 * - `floor`: the floor's line handling (`floor.ts`), the answers of one
 *   input chunk written with one `write`;
 * - `ours`: `serveStdio` with the bench's reference agent handler;
 * - `sdk`: the SDK's agent app over `ndJsonStream` on stdin/stdout.
 *
 *   node --import tsx bench/lib/agent-process.ts floor|ours|sdk
 */
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { floorLines } from "./floor.ts";
import { ours } from "./ours.ts";
import { oursAgentHandler, sdkAgentApp } from "./peers.ts";

const peer = process.argv[2];
if (peer === "floor") {
  let out = "";
  const push = floorLines({ answer: (text) => (out += text), update: () => {} });
  process.stdin.on("data", (chunk: Buffer) => {
    push(chunk);
    if (out.length === 0) return;
    process.stdout.write(out);
    out = "";
  });
} else if (peer === "ours") {
  ours.serveStdio(oursAgentHandler());
} else if (peer === "sdk") {
  const stream = acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
  const conn = sdkAgentApp().connect(stream);
  process.stdin.on("end", () => conn.close());
} else {
  process.stderr.write(`agent-process: unknown peer ${String(peer)}\n`);
  process.exit(2);
}
