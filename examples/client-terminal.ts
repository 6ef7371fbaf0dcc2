/**
 * The example client's `terminal/*` methods: real child processes (no
 * shell), their stdout and stderr merged into one output buffer that keeps
 * the last `outputByteLimit` bytes (default 1 MiB), cut at a UTF-8 character
 * boundary.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { RpcError, type CreateTerminalRequest, type CreateTerminalResponse, type KillTerminalRequest, type ReleaseTerminalRequest, type TerminalExitStatus, type TerminalOutputRequest, type TerminalOutputResponse, type WaitForTerminalExitRequest } from "../src/index.ts";

/** Output kept when the agent sets no `outputByteLimit`: 1 MiB, so a chatty command cannot exhaust memory. */
export const DEFAULT_OUTPUT_BYTE_LIMIT = 1024 * 1024;

export interface TerminalHandlers {
  createTerminal(params: CreateTerminalRequest): Promise<CreateTerminalResponse>;
  terminalOutput(params: TerminalOutputRequest): TerminalOutputResponse;
  waitForTerminalExit(params: WaitForTerminalExitRequest): Promise<TerminalExitStatus>;
  killTerminal(params: KillTerminalRequest): Record<string, never>;
  releaseTerminal(params: ReleaseTerminalRequest): Record<string, never>;
  /** Kills and forgets every terminal (when the connection ends). */
  releaseAll(): void;
}

interface Terminal {
  readonly sessionId: string;
  readonly child: ChildProcess;
  readonly output: OutputBuffer;
  exitStatus: TerminalExitStatus | undefined;
  readonly exited: Promise<TerminalExitStatus>;
}

/** `cwdOf(sessionId)` is the default working directory of a session's commands. */
export function createTerminalHandlers(cwdOf: (sessionId: string) => string | undefined): TerminalHandlers {
  const terminals = new Map<string, Terminal>();
  let counter = 0;

  const get = (sessionId: string, terminalId: string): Terminal => {
    const terminal = terminals.get(terminalId);
    if (!terminal || terminal.sessionId !== sessionId) throw RpcError.resourceNotFound(`terminal:${terminalId}`);
    return terminal;
  };
  const stop = (terminal: Terminal) => {
    if (terminal.exitStatus === undefined) terminal.child.kill();
  };

  return {
    async createTerminal(params) {
      const cwd = params.cwd ?? cwdOf(params.sessionId);
      if (cwd === undefined) throw RpcError.resourceNotFound(`session:${params.sessionId}`);
      const env = { ...process.env };
      for (const variable of params.env ?? []) env[variable.name] = variable.value;
      const child = spawn(params.command, params.args ?? [], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
      const output = createOutputBuffer(params.outputByteLimit ?? DEFAULT_OUTPUT_BYTE_LIMIT);
      child.stdout?.on("data", (chunk: Buffer) => output.append(chunk));
      child.stderr?.on("data", (chunk: Buffer) => output.append(chunk));
      const terminal: Terminal = {
        sessionId: params.sessionId,
        child,
        output,
        exitStatus: undefined,
        // "close" (not "exit"): all output has been read by then.
        exited: new Promise((resolve) => {
          child.once("close", (exitCode, signal) => {
            terminal.exitStatus = { exitCode, signal };
            resolve(terminal.exitStatus);
          });
        }),
      };
      await new Promise<void>((resolve, reject) => {
        child.once("spawn", resolve);
        child.once("error", (error) => reject(RpcError.internalError(`cannot start ${params.command}: ${error.message}`)));
      });
      const terminalId = `term-${++counter}`;
      terminals.set(terminalId, terminal);
      return { terminalId };
    },

    terminalOutput(params) {
      const terminal = get(params.sessionId, params.terminalId);
      const { text, truncated } = terminal.output.read();
      return { output: text, truncated, exitStatus: terminal.exitStatus ?? null };
    },

    waitForTerminalExit(params) {
      return get(params.sessionId, params.terminalId).exited;
    },

    killTerminal(params) {
      stop(get(params.sessionId, params.terminalId));
      return {};
    },

    releaseTerminal(params) {
      const terminal = get(params.sessionId, params.terminalId);
      stop(terminal);
      terminals.delete(params.terminalId);
      return {};
    },

    releaseAll() {
      for (const terminal of terminals.values()) stop(terminal);
      terminals.clear();
    },
  };
}

export interface OutputBuffer {
  append(chunk: Uint8Array): void;
  read(): { text: string; truncated: boolean };
}

/** Keeps the last `limit` bytes appended, dropping whole UTF-8 characters from the front. */
export function createOutputBuffer(limit: number): OutputBuffer {
  let bytes = Buffer.alloc(0);
  let truncated = false;
  return {
    append(chunk) {
      bytes = Buffer.concat([bytes, chunk]);
      if (bytes.length <= limit) return;
      truncated = true;
      let start = bytes.length - limit;
      // Skip continuation bytes (10xxxxxx) so the kept text starts on a character.
      while (start < bytes.length && ((bytes[start] as number) & 0xc0) === 0x80) start++;
      bytes = bytes.subarray(start);
    },
    read: () => ({ text: bytes.toString("utf8"), truncated }),
  };
}
