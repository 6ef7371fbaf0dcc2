/**
 * A terminal on the client, seen from the agent as one object: create it,
 * read its output, wait for it, kill it, release it — or let `await using`
 * release it.
 */
import type { RequestOptions } from "./peer-caller.ts";
import type { ClientPeer } from "./generated/peers.ts";
import type { CreateTerminalRequest, KillTerminalResponse, ReleaseTerminalResponse, TerminalOutputResponse, WaitForTerminalExitResponse } from "./generated/types.ts";

/** The client calls a terminal handle makes: any table's generated `ClientPeer` has them. */
export type TerminalPeer = Pick<ClientPeer, "createTerminal" | "terminalOutput" | "waitForTerminalExit" | "killTerminal" | "releaseTerminal">;

/**
 * A terminal running on the client (`terminal/*`). Every method sends one
 * request for this terminal's session and id and takes the usual
 * {@link RequestOptions} (`signal`, `timeoutMs`).
 *
 * Release it when done, so the client can free it: call `release()`, or
 * declare it with `await using` and it is released when the block ends, even
 * on a throw. Releasing is idempotent: the first call sends
 * `terminal/release`, later calls (and disposal after an explicit release)
 * return that same answer without sending again. After release, `output`,
 * `waitForExit` and `kill` reject locally, without sending: the terminal id
 * is no longer valid on the client.
 */
export interface TerminalHandle extends AsyncDisposable {
  /** The client's id for this terminal (`terminalId`). */
  readonly id: string;
  /** The session the terminal belongs to. */
  readonly sessionId: string;
  /** `terminal/output`: the output so far, whether it was truncated, and the exit status once it exited. */
  output(options?: RequestOptions): Promise<TerminalOutputResponse>;
  /** `terminal/wait_for_exit`: resolves with the exit code or signal once the command exits. */
  waitForExit(options?: RequestOptions): Promise<WaitForTerminalExitResponse>;
  /** `terminal/kill`: stops the command; the terminal stays valid (its output can still be read) until released. */
  kill(options?: RequestOptions): Promise<KillTerminalResponse>;
  /** `terminal/release`: kills the command if it still runs and frees the terminal; sent at most once. */
  release(options?: RequestOptions): Promise<ReleaseTerminalResponse>;
}

// Node 20 defines Symbol.asyncDispose; the registered symbol is what TypeScript's
// `await using` helper looks up where it does not exist.
const asyncDispose: typeof Symbol.asyncDispose = Symbol.asyncDispose ?? (Symbol.for("Symbol.asyncDispose") as typeof Symbol.asyncDispose);

/**
 * Sends `terminal/create` and resolves with a handle on the new terminal.
 * `peer` is the client proxy (`ctx.peer` in an agent handler, or
 * `connection.client`); the call fails locally, without sending, unless the
 * client advertised `clientCapabilities.terminal`.
 *
 * ```ts
 * await using term = await createTerminal(ctx.peer, { sessionId, command: "npm", args: ["test"] });
 * const { exitCode } = await term.waitForExit({ signal: ctx.signal });
 * const { output } = await term.output();
 * ```
 */
export async function createTerminal(peer: TerminalPeer, params: CreateTerminalRequest, options?: RequestOptions): Promise<TerminalHandle> {
  const { terminalId } = await peer.createTerminal(params, options);
  return terminalHandle(peer, params.sessionId, terminalId);
}

function terminalHandle(peer: TerminalPeer, sessionId: string, terminalId: string): TerminalHandle {
  const ids = { sessionId, terminalId };
  let released: Promise<ReleaseTerminalResponse> | undefined;
  const live = (): Promise<void> => (released === undefined ? Promise.resolve() : Promise.reject(new Error(`terminal ${terminalId} was released`)));
  const release = (options?: RequestOptions): Promise<ReleaseTerminalResponse> => (released ??= peer.releaseTerminal(ids, options));
  return {
    id: terminalId,
    sessionId,
    output: (options) => live().then(() => peer.terminalOutput(ids, options)),
    waitForExit: (options) => live().then(() => peer.waitForTerminalExit(ids, options)),
    kill: (options) => live().then(() => peer.killTerminal(ids, options)),
    release,
    [asyncDispose]: async () => {
      await release();
    },
  };
}
