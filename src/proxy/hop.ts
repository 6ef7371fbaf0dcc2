/**
 * Reading and writing one link of a router (the conductor's peer and each
 * component): its line framing, the head of each line read off it
 * (`splice.ts`), and the answers the router gives on it itself to a line it
 * cannot route (`-32700`, `-32600`). What the link owes and forwarded is the
 * relay's (`relay.ts`).
 */
import { oversizedAnswer, unusableAnswer, type UnusableAnswer } from "../jsonrpc/unusable.ts";
import { kindOf, readLines, type ReaderLimits } from "../transport/reader.ts";
import type { Transport } from "../transport/transport.ts";
import type { Link, Relay } from "./relay.ts";
import { fromValue, Inbound, readLine, type Read } from "./splice.ts";

/**
 * How much text (in UTF-16 units, about bytes for JSON) a router sends on a
 * link before it hands it to the stream at once (`Transport.flush`) instead of
 * at the end of the turn: the next process starts on the first lines of a long
 * chunk while this one routes the rest, and each write carries enough to be
 * worth its system call. 16 KiB: about 80 ACP messages of 200 bytes; handing
 * on every 16 lines made writes a third of a conductor's busy time, and every
 * 64 to 256 lines measured the same (docs/proxy.md, "What a chain costs").
 */
export const FORWARD_BYTES = 16 * 1024;

/** Writes lines to `transport`, flushing whenever {@link FORWARD_BYTES} or more were written since the last flush. */
export function lineWriter(transport: Transport): (line: string) => void {
  let size = 0;
  return (line) => {
    transport.write(`${line}\n`);
    size += line.length + 1;
    if (size >= FORWARD_BYTES) {
      size = 0;
      transport.flush?.();
    }
  };
}

/**
 * Reads `transport` as `link`'s stream (the one message reader,
 * `transport/reader.ts`, as lines): each line's head is read off it; what is
 * not a request, notification or response is answered on the link (through
 * `relay`); the rest goes to `message`.
 */
export function readHop(link: Link, transport: Transport, limits: ReaderLimits, relay: Relay, message: (m: Inbound) => void, onEnd: () => void): void {
  const refuse = (answer: UnusableAnswer | undefined) => {
    if (answer !== undefined) relay.send(link, JSON.stringify({ jsonrpc: "2.0", id: answer.id, error: answer.error }));
  };
  const deliver = (read: Read): void => {
    if (read instanceof Inbound) return message(read);
    // Not a usable message: answered as everywhere (`jsonrpc/unusable.ts`); a response-shaped body that is not a response by no one.
    refuse(unusableAnswer(read.value, read.kind));
  };
  readLines(
    transport,
    {
      line: (text) => deliver(readLine(text, limits.maxDepth, kindOf)),
      message: (value, line) => deliver(fromValue(value, kindOf, line)),
      oversized: () => refuse(oversizedAnswer(limits.maxMessageBytes)),
      end: onEnd,
    },
    limits,
  );
}
