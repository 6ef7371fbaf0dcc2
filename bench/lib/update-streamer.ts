/**
 * The agent process of the stdio client figure: the same for every client,
 * and no library. It answers `initialize` and `session/new`, and answers
 * each `session/prompt` by writing `COUNT` `session/update` chunks (200
 * characters each, pre-encoded, in pieces of about 64 KiB) and then the
 * prompt's `end_turn` result. Writes to a pipe are synchronous on Linux, so
 * it writes exactly as fast as the client reads.
 *
 *   node --import tsx bench/lib/update-streamer.ts [COUNT]
 */
import { line } from "./messages.ts";

const COUNT = Number(process.argv[2] ?? 200_000);
const UPDATE = line("update", 0);
const PER_PIECE = Math.max(1, Math.floor(65536 / Buffer.byteLength(UPDATE)));
const piece = Buffer.from(UPDATE.repeat(PER_PIECE));

const answer = (id: unknown, result: object) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id, result })}\n`);

function stream(id: unknown): void {
  for (let left = COUNT; left > 0; left -= PER_PIECE) {
    process.stdout.write(left >= PER_PIECE ? piece : piece.subarray(0, left * Buffer.byteLength(UPDATE)));
  }
  answer(id, { stopReason: "end_turn" });
}

let pending = "";
process.stdin.setEncoding("utf8").on("data", (text: string) => {
  const lines = (pending + text).split("\n");
  pending = lines.pop() ?? "";
  for (const l of lines) {
    if (l.trim() === "") continue;
    const msg = JSON.parse(l) as { id?: unknown; method?: string };
    if (msg.id === undefined || msg.method === undefined) continue;
    if (msg.method === "initialize") answer(msg.id, { protocolVersion: 1, agentCapabilities: {}, authMethods: [] });
    else if (msg.method === "session/new") answer(msg.id, { sessionId: "sess-bench-1" });
    else if (msg.method === "session/prompt") stream(msg.id);
    else process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } })}\n`);
  }
});
