/**
 * A fresh process's first `initialize`, waited for past the timeout: an agent that starts slowly (a
 * cold `npx`, a loaded machine) is not silent, and its answer is judged like any other. Every place
 * check starts a process and initializes it (the main run, the capabilities run, the version probes)
 * waits through this one rule, so a slow start never turns a probe into a missing answer in one
 * place and a judged answer in another.
 */
import type { Driver } from "./driver.ts";
import { answerOf } from "./kit.ts";

/** How much longer than the timeout a first `initialize` is waited for, to tell a slow start from none: 3 times the timeout. */
export const SLOW_START_FACTOR = 3;

/** The answer to a first `initialize` (undefined: none, or the process died) and, when it came after the timeout, how long it took in ms. */
export interface FirstAnswer {
  readonly answer: Record<string, unknown> | undefined;
  readonly lateMs: number | undefined;
}

/** Sends `initialize` with `params` on `d` and waits for its answer, up to the timeout and then SLOW_START_FACTOR times it again. */
export async function firstInitialize(d: Driver, params: unknown): Promise<FirstAnswer> {
  const answer = await d.request("initialize", params);
  if (answer !== undefined || d.death !== undefined) return { answer, lateMs: undefined };
  const id = d.lastRequestId;
  const sent = d.unanswered.find((u) => u.id === id)?.sent ?? 0;
  const late = await d.waitFor(answerOf(id), d.timeout * SLOW_START_FACTOR, 0);
  return late === undefined ? { answer: undefined, lateMs: undefined } : { answer: late.body, lateMs: late.t - sent };
}
