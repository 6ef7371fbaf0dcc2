/**
 * One transport shared by the connections a client connector tries in turn
 * (`negotiate-client.ts`): each attempt gets a leg, a `Transport` that reads
 * and writes the shared one until the next leg replaces it. While a leg is
 * probing, complete inbound lines are inspected until the first answer (a
 * response-shaped message), which may be withheld from that leg — then it
 * and every later line wait for the next leg.
 */
import { isResponseShaped } from "../jsonrpc/classify.ts";
import { encodeLine, errorMessage } from "../jsonrpc/messages.ts";
import { ParseFailure, parseValue } from "../jsonrpc/parse.ts";
import { oversizedAnswer } from "../jsonrpc/unusable.ts";
import { lineReader, readerLimits, type ChunkReader } from "../transport/reader.ts";
import type { Transport, TransportReceiver } from "../transport/transport.ts";

/** What to do with the first answer while probing: hand it to the current leg, or keep it from that leg. */
export type AnswerDecision = "pass" | "withhold";

/** A shared transport handing its inbound lines to one leg at a time. */
export interface Switchboard {
  /** A new leg; it replaces the current one, which reads and writes nothing more and cannot close the shared transport. */
  leg(): Transport;
  /**
   * Inspects inbound lines until the first answer and lets `decide` pass or
   * withhold it. Resolves with that answer, or `undefined` when the stream
   * ended first.
   */
  firstAnswer(decide: (answer: Record<string, unknown>) => AnswerDecision): Promise<Record<string, unknown> | undefined>;
  /** Closes the shared transport. */
  close(): void;
}

/** Options of {@link createSwitchboard}. */
export interface SwitchboardOptions {
  /**
   * Longest line read while probing. Default 32 MiB (resolved by
   * `readerLimits`, as the connection's own `maxMessageBytes`): a longer line is answered
   * `-32700` and skipped, as the leg's connection would.
   */
  readonly maxMessageBytes?: number;
}

/**
 * Wraps `transport`; starts reading it at once. While probing, lines are
 * split by the one reader (`transport/reader.ts`, {@link lineReader}), so they are
 * delimited, limited and answered as a plain connection does; outside
 * probing, inbound text is handed on as it came.
 */
export function createSwitchboard(transport: Transport, options: SwitchboardOptions = {}): Switchboard {
  // Junk before a message (PITFALLS #20) is cut only to recognise the answer; the leg gets the line as it came.
  const limits = readerLimits({ maxMessageBytes: options.maxMessageBytes, recoverPrefixedLines: true });
  // Decoded here, not by the reader: what the reader releases must not lose a character split across chunks.
  const decoder = new TextDecoder("utf-8", { fatal: false });
  let receiver: TransportReceiver | undefined;
  let current: Transport | undefined;
  /** Inbound text not yet handed to a leg: before the leg started reading, or after a withheld answer. */
  let pending = "";
  let held = false;
  let ended: { error: Error | undefined } | undefined;
  let probe: { decide: (a: Record<string, unknown>) => AnswerDecision; done: (a: Record<string, unknown> | undefined) => void; reader: ChunkReader } | undefined;

  const deliver = (text: string) => {
    if (text === "") return;
    if (receiver && !held) receiver.data(text);
    else pending += text;
  };

  /** Ends probing with `answer` (undefined: the stream ended); `rest` is what followed it. */
  const finish = (answer: Record<string, unknown> | undefined, line: string, rest: string) => {
    const { decide, done } = probe as NonNullable<typeof probe>;
    probe = undefined;
    if (answer !== undefined && decide(answer) === "withhold") {
      held = true;
      pending += rest;
    } else deliver(line + rest);
    done(answer);
  };

  const startProbe = (decide: (a: Record<string, unknown>) => AnswerDecision, done: (a: Record<string, unknown> | undefined) => void) => {
    let prefix = "";
    const reader = lineReader(
      {
        line(text) {
          const line = `${prefix}${text}\n`;
          prefix = "";
          const answer = answerIn(text);
          if (answer === undefined) deliver(line);
          else finish(answer, line, reader.release());
        },
        prefixed(cut) {
          prefix = cut;
        },
        oversized() {
          const { id, error } = oversizedAnswer(limits.maxMessageBytes);
          transport.write(encodeLine(errorMessage(id, error)));
        },
      },
      limits,
    );
    probe = { decide, done, reader };
    // Text that waited for this leg is probed first.
    const waiting = pending;
    pending = "";
    reader.push(waiting);
  };

  const shared: TransportReceiver = {
    data(chunk) {
      const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
      if (probe !== undefined) probe.reader.push(text);
      else deliver(text);
    },
    end(error) {
      const tail = decoder.decode();
      if (tail !== "") shared.data(tail);
      probe?.reader.end();
      ended = { error };
      if (probe !== undefined) finish(undefined, "", probe.reader.release());
      if (!held) receiver?.end(error);
    },
  };
  transport.start(shared);

  return {
    leg() {
      const leg: Transport = {
        start(r) {
          if (current !== leg) return;
          receiver = r;
          held = false;
          const text = pending;
          pending = "";
          deliver(text);
          if (ended) r.end(ended.error);
        },
        write: (text) => {
          if (current === leg) transport.write(text);
        },
        close: () => {
          if (current === leg) transport.close();
        },
        pause: () => {
          if (current === leg) transport.pause?.();
        },
        resume: () => {
          if (current === leg) transport.resume?.();
        },
      };
      // Whole messages pass as whole messages to a transport that sends them (`Transport.writeMessage`).
      const writeMessage = transport.writeMessage;
      if (writeMessage !== undefined) {
        leg.writeMessage = (text) => {
          if (current === leg) writeMessage.call(transport, text);
        };
      }
      current = leg;
      receiver = undefined;
      return leg;
    },
    firstAnswer(decide) {
      return new Promise((resolve) => {
        if (ended) return resolve(undefined);
        startProbe(decide, resolve);
      });
    },
    close: () => transport.close(),
  };
}

/**
 * The message on `line` when it is response-shaped (an id, no method, a result or an error),
 * read with the connection's parser and its response-shape rule (src/jsonrpc/). An id that is
 * not a usable request id (`null` on an error the agent could not tie to a request) still counts:
 * it is the agent's answer all the same.
 */
function answerIn(line: string): Record<string, unknown> | undefined {
  // No depth bound here: the leg's connection applies its own `maxDepth` to the line it is handed.
  const value = parseValue(line, Number.MAX_SAFE_INTEGER);
  if (value instanceof ParseFailure || !isResponseShaped(value)) return undefined;
  const body = value as Record<string, unknown>;
  return "method" in body || !("id" in body) ? undefined : body;
}
