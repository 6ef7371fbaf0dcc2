/**
 * The pipeline's diagnostics: the `onDiagnostic` hook (a failing hook never
 * breaks the connection), and a handler's failure, also on stderr with
 * `logErrors` (never stdout: on stdio it carries the protocol).
 */
import type { Diagnostic } from "./options.ts";

/** Where diagnostics go: the hook, and whether handler errors are also logged. */
export interface DiagnosticSink {
  /** The `onDiagnostic` hook; undefined: diagnostics cost nothing. */
  readonly diagnostic: ((d: Diagnostic) => void) | undefined;
  /** `logErrors`: handler errors go to stderr with their stack as well. */
  readonly logErrors: boolean;
}

/** Tells the `onDiagnostic` hook; a failing hook never breaks the connection. */
export function report(inbound: DiagnosticSink, kind: Diagnostic["kind"], message: string, data?: unknown): void {
  const hook = inbound.diagnostic;
  if (hook === undefined) return;
  try {
    hook(data === undefined ? { kind, message } : { kind, message, data });
  } catch {
    // A failing diagnostics hook must not break the connection.
  }
}

/**
 * Reports a handler's failure: a `handler_error` diagnostic whose `data` is the
 * one-line description and whose `error` is the thrown value itself, and with
 * `logErrors` a line on stderr with the stack (never stdout: on stdio it
 * carries the protocol).
 */
export function reportHandlerError(inbound: DiagnosticSink, message: string, error: unknown): void {
  if (inbound.logErrors) {
    const detail = error instanceof Error ? (error.stack ?? describeError(error)) : describeError(error);
    try {
      // No `node:` import: the core runs in browsers too, where the console stands in for stderr.
      const stderr = (globalThis as { process?: { stderr?: { write(text: string): unknown } } }).process?.stderr;
      if (stderr) stderr.write(`acp-router: ${message}: ${detail}\n`);
      else console.error(`acp-router: ${message}: ${detail}`);
    } catch {
      // stderr may be closed; the connection goes on.
    }
  }
  const hook = inbound.diagnostic;
  if (hook === undefined) return;
  try {
    hook({ kind: "handler_error", message, data: describeError(error), error });
  } catch {
    // A failing diagnostics hook must not break the connection.
  }
}

/** A one-line description of anything thrown, for diagnostics. */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
