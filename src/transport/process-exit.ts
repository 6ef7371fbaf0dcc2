/**
 * How a spawned agent's connection ended, as the errors its pending calls
 * reject with (as the `cause` of their `ConnectionClosedError`), and the
 * bounded tail of its stderr those errors carry. No `node:` imports.
 */

/** The agent process ended; pending calls reject with a `ConnectionClosedError` whose cause is this. */
export class AgentExitedError extends Error {
  readonly exitCode: number | null;
  readonly signalName: NodeJS.Signals | null;
  /** The last lines the agent wrote to stderr (`forward` and `capture` modes), for the error message. */
  readonly stderrTail: string;
  /** Set when the agent lingered after its stdin closed and was ended: "did not exit within 2 s of stdin closing; terminated". */
  readonly note: string | undefined;
  constructor(exitCode: number | null, signalName: NodeJS.Signals | null, stderrTail: string, options?: { cause?: unknown; note?: string | undefined }) {
    const how = options?.note ?? (exitCode !== null ? `exited with code ${exitCode}` : `was killed by ${signalName ?? "a signal"}`);
    super(`agent process ${how}${stderrTail ? `; last stderr lines:\n${stderrTail}` : ""}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AgentExitedError";
    this.exitCode = exitCode;
    this.signalName = signalName;
    this.stderrTail = stderrTail;
    this.note = options?.note;
  }
}

/**
 * The agent closed its stdout and is still running: pending calls reject
 * at once with a `ConnectionClosedError` whose cause is this, not when it
 * finally exits. It gets EOF on its stdin, the grace period, then SIGTERM
 * and SIGKILL to its group; `AgentProcess.exited` reports that exit.
 */
export class AgentOutputClosedError extends Error {
  readonly pid: number | undefined;
  /** The last lines the agent wrote to stderr (`forward` and `capture` modes). */
  readonly stderrTail: string;
  constructor(pid: number | undefined, stderrTail: string, options?: { cause?: unknown }) {
    super(`agent process${pid === undefined ? "" : ` ${pid}`} closed its stdout and is still running; it is ended after the grace period${stderrTail ? `; last stderr lines:\n${stderrTail}` : ""}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AgentOutputClosedError";
    this.pid = pid;
    this.stderrTail = stderrTail;
  }
}

/** Longest stderr line kept in the tail (characters); longer lines are cut. */
export const STDERR_LINE_CHARS = 2048;

function clip(line: string): string {
  return line.length > STDERR_LINE_CHARS ? line.slice(0, STDERR_LINE_CHARS) : line;
}

/**
 * Keeps the last `keep` lines of a text stream, bounded in lines and in
 * characters: an agent drawing a progress bar on stderr forever (no newline)
 * must not grow the client.
 */
export function createTail(keep: number): { add(text: string): void; text(): string } {
  const lines: string[] = [];
  let partial = "";
  return {
    add(text) {
      let start = 0;
      for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
        lines.push(clip(partial + text.slice(start, Math.min(nl, start + STDERR_LINE_CHARS))));
        partial = "";
        if (lines.length > keep) lines.shift();
        start = nl + 1;
      }
      if (start < text.length) partial = clip(partial + text.slice(Math.max(start, text.length - STDERR_LINE_CHARS)));
    },
    text: () => [...lines, ...(partial ? [partial] : [])].slice(-keep).join("\n"),
  };
}
