/**
 * What the lean load generators (`sse-load.ts`, `ws-load.ts`) share: the
 * `Load` they return, the answers they wait for by id, the count of
 * `session/update`s, and the check of a burst's answers.
 */

/** A load generator set up against one server. */
export interface Load {
  /** One prompt in every session of every connection; resolves with the number of round trips. */
  burst(): Promise<number>;
  /** `session/update` notifications received so far. */
  readonly updates: number;
  close(): void;
}

/** The parts of an inbound message a load generator reads. */
export interface Answer {
  readonly id?: number;
  readonly method?: string;
  readonly result?: { sessionId?: string; stopReason?: string };
}

/** Request ids and the answers awaited for them; counts updates. */
export interface Replies {
  /** A fresh id and the promise of its answer. */
  next(): { readonly id: number; readonly answer: Promise<Answer> };
  /** Takes one inbound message: counts an update, settles the answer of its id. */
  take(message: Answer): void;
  readonly updates: number;
}

export function createReplies(): Replies {
  const pending = new Map<number, (answer: Answer) => void>();
  let nextId = 1;
  let updates = 0;
  return {
    next() {
      const id = nextId++;
      return { id, answer: new Promise<Answer>((resolve) => pending.set(id, resolve)) };
    },
    take(message) {
      if (message.method === "session/update") updates++;
      else if (message.method === undefined && typeof message.id === "number") {
        const settle = pending.get(message.id);
        pending.delete(message.id);
        settle?.(message);
      }
    },
    get updates() {
      return updates;
    },
  };
}

/** The number of prompts answered, after checking each ended with `end_turn`. */
export function endedTurns(answers: readonly Answer[]): number {
  for (const answer of answers) if (answer.result?.stopReason !== "end_turn") throw new Error(`session/prompt: ${JSON.stringify(answer)}`);
  return answers.length;
}

/** The params of the one prompt each burst sends per session. */
export const promptIn = (sessionId: string) => ({ sessionId, prompt: [{ type: "text", text: "hi" }] });
