/**
 * What the one-sided peers share: a completion counter, the output sink
 * (counts answers, encodes bytes, captures text on demand), the IngestPeer
 * shape, and the checks of captured answers.
 */
import type { PromptResponse } from "../../src/index.ts";

const encoder = new TextEncoder();

/** Resolves `wait(n)` once `hit()` was called n times since. */
export class Counter {
  count = 0;
  private target = Number.POSITIVE_INFINITY;
  private done: (() => void) | undefined;

  /** Counts `n` completions (default one). */
  hit(n = 1): void {
    this.count += n;
    if (this.count >= this.target && this.done) {
      const done = this.done;
      this.done = undefined;
      done();
    }
  }

  wait(target: number): Promise<void> {
    this.count = 0;
    this.target = target;
    return new Promise((resolve) => {
      this.done = resolve;
    });
  }
}

/** A peer that takes inbound bytes and answers (or handles) them. */
export interface IngestPeer {
  /**
   * Feeds `bytes` (one chunk, or several pushed back to back without waiting);
   * resolves once `expected` answers were written (or notification handlers ran).
   */
  feed(bytes: Uint8Array | readonly Uint8Array[], expected: number): Promise<void>;
  /** The text written since the last call; only with `capture`. */
  takeOutput(): string;
  close(): void;
}

/** Builds an IngestPeer from how it takes a chunk and what counts its completions. */
export function ingestPeer(done: Counter, push: (bytes: Uint8Array) => void, sink: Sink, close: () => void): IngestPeer {
  return {
    feed(bytes, expected) {
      const finished = done.wait(expected);
      if (bytes instanceof Uint8Array) push(bytes);
      else for (const b of bytes) push(b);
      return finished;
    },
    takeOutput: () => sink.take(),
    close,
  };
}

/** How the agent-side prompt handler answers (the heap figure holds them); it gets the decoded params. */
export type PromptHandler = (params: unknown) => PromptResponse | Promise<PromptResponse>;

/** The default prompt handler: what a trivial agent writes. */
export const endTurn: PromptHandler = async () => ({ stopReason: "end_turn" });

/**
 * Output side shared by the one-sided peers: counts answers, encodes bytes, captures text on demand.
 * An answer is a line: a write is counted by the newlines in it, not as one, since acp-router's
 * core joins the lines of one tick into one write (and the compatibility package with it). For a
 * peer that writes one line per chunk (the SDK, the floor) the count is the same either way.
 */
export class Sink {
  /** Completions: answers written (and, for the floor, notifications handled). */
  readonly answers = new Counter();
  bytes = 0;
  /** The last write (setup code reads request ids from it). */
  last: string | Uint8Array = "";
  private captured: string[] | undefined;
  constructor(capture: boolean) {
    this.captured = capture ? [] : undefined;
  }
  text(text: string): void {
    this.last = text;
    this.bytes += encoder.encode(text).length;
    this.captured?.push(text);
    this.answers.hit(newlines(text));
  }
  raw(bytes: Uint8Array): void {
    this.last = bytes;
    this.bytes += bytes.length;
    this.captured?.push(new TextDecoder().decode(bytes));
    this.answers.hit(newlineBytes(bytes));
  }
  take(): string {
    const out = this.captured?.join("") ?? "";
    if (this.captured) this.captured = [];
    return out;
  }
}

/** The number of `\n` in `text`. */
function newlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** The number of `\n` bytes in `bytes`. */
function newlineBytes(bytes: Uint8Array): number {
  let n = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) n++;
  return n;
}

/** Checks a captured output: `count` answer lines, each with `expect` in it, ids 1..count. */
export function checkAnswers(output: string, count: number, expect: (message: Record<string, unknown>) => boolean): boolean {
  const lines = output.split("\n").filter((l) => l.length > 0);
  if (lines.length !== count) return false;
  const ids = new Set<unknown>();
  for (const l of lines) {
    const message = JSON.parse(l) as Record<string, unknown>;
    if (message.jsonrpc !== "2.0" || !expect(message)) return false;
    ids.add(message.id);
  }
  for (let id = 1; id <= count; id++) if (!ids.has(id)) return false;
  return true;
}

/** The answer check of each message kind. */
export const expectations = {
  prompt: (m: Record<string, unknown>) => (m.result as { stopReason?: unknown } | undefined)?.stopReason === "end_turn",
  invalid: (m: Record<string, unknown>) => (m.error as { code?: unknown } | undefined)?.code === -32602,
};
