/**
 * One transport shared by the connections a client connector tries in turn
 * (`negotiate-client.ts`): each attempt gets a leg, a `Transport` that reads
 * and writes the shared one until the next leg replaces it. While a leg is
 * probing, complete inbound lines are inspected until the first answer (a
 * response-shaped message), which may be withheld from that leg — then it
 * and every later line wait for the next leg.
 */
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

/** Wraps `transport`; starts reading it at once. */
export function createSwitchboard(transport: Transport): Switchboard {
  const decoder = new TextDecoder("utf-8", { fatal: false });
  let receiver: TransportReceiver | undefined;
  let current: Transport | undefined;
  /** Inbound text not yet handed to a leg: while probing, an incomplete line; after a withheld answer, everything. */
  let pending = "";
  let held = false;
  let ended: { error: Error | undefined } | undefined;
  let probe: { decide: (a: Record<string, unknown>) => AnswerDecision; done: (a: Record<string, unknown> | undefined) => void } | undefined;

  const deliver = (text: string) => {
    if (text !== "") receiver?.data(text);
  };

  /** While probing: hands complete lines on until the first answer. */
  const scan = () => {
    for (;;) {
      const nl = pending.indexOf("\n");
      if (nl === -1 || probe === undefined) return;
      const line = pending.slice(0, nl + 1);
      const answer = answerIn(line);
      if (answer === undefined) {
        pending = pending.slice(nl + 1);
        deliver(line);
        continue;
      }
      const { decide, done } = probe;
      probe = undefined;
      if (decide(answer) === "withhold") {
        pending = pending.slice(nl + 1);
        held = true;
      } else {
        const rest = pending;
        pending = "";
        deliver(rest);
      }
      done(answer);
      return;
    }
  };

  const shared: TransportReceiver = {
    data(chunk) {
      const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
      if (probe === undefined && !held) return receiver ? deliver(text) : void (pending += text);
      pending += text;
      if (probe !== undefined) scan();
    },
    end(error) {
      const tail = decoder.decode();
      if (tail !== "") shared.data(tail);
      if (probe !== undefined && !pending.endsWith("\n") && pending.trim() !== "") {
        pending += "\n";
        scan();
      }
      ended = { error };
      if (probe !== undefined) {
        const { done } = probe;
        probe = undefined;
        deliver(pending);
        pending = "";
        done(undefined);
      }
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
      current = leg;
      receiver = undefined;
      return leg;
    },
    firstAnswer(decide) {
      return new Promise((resolve) => {
        if (ended) return resolve(undefined);
        probe = { decide, done: resolve };
        scan();
      });
    },
    close: () => transport.close(),
  };
}

/** The message on `line` when it is response-shaped (an id, no method, a result or an error). */
function answerIn(line: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const body = value as Record<string, unknown>;
  if ("method" in body || !("id" in body) || !("result" in body || "error" in body)) return undefined;
  return body;
}
