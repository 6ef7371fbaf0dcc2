/**
 * One client run of `check --client`: a fresh {@link Peer} and scripted agent,
 * the client command with `{agent}` replaced by the bridge command line,
 * `{prompt}` by the prompt text and `{cwd}` by the run's fresh scratch
 * folder, started in the caller's working folder (or, with `--fresh-dir`, in
 * the scratch folder) in its own
 * process group (src/transport/process.ts), then awaited: the run ends when
 * the client exits, or is ended (SIGTERM, then SIGKILL to its group) once its
 * bound has passed.
 */
import { fileURLToPath } from "node:url";
import { startProcess, type ProcessExit } from "../../src/transport/process.ts";
import { startAgent, type Handshake } from "./agent.ts";
import { startPeer, type Peer } from "./peer.ts";
import { cancelTurn, permissionTurn } from "./permission.ts";
import { handshakeTurn, updatesTurn, type ScenarioName } from "./scenarios.ts";
import type { Shared, TurnContext } from "./turn-context.ts";
import type { Scorecard } from "../check/score.ts";

const BRIDGE = fileURLToPath(new URL("./bridge.mjs", import.meta.url));

/** A word quoted for a command line when it needs it (single quotes, as sh and most splitters read them). */
const word = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`);

/** The command line that replaces `{agent}`: this Node running the bridge to `port`. */
export const bridgeCommand = (port: number): string => [process.execPath, BRIDGE, String(port)].map(word).join(" ");

/** `command` with `{agent}`, `{prompt}` and (when given) `{cwd}` replaced in every word. */
export function substitute(command: readonly string[], agent: string, prompt: string, cwd?: string): string[] {
  return command.map((w) => {
    const out = w.replaceAll("{agent}", agent).replaceAll("{prompt}", prompt);
    return cwd === undefined ? out : out.replaceAll("{cwd}", cwd);
  });
}

export interface RunOptions {
  readonly prompt: string;
  readonly timeoutMs: number;
  /** The run's fresh folder: what `{cwd}` stands for, where the fs probes write when the session's cwd is elsewhere or unusable. */
  readonly scratch: string;
  /** The client process's working directory: the caller's folder by default, the scratch folder with `--fresh-dir`. */
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** `--strict-ids` (ids.ts). */
  readonly strictIds?: boolean | undefined;
}

/** What a finished run leaves for the rows judged afterwards. */
export interface RunResult {
  readonly scenario: ScenarioName;
  readonly peer: Peer;
  readonly handshake: Handshake;
  readonly exit: ProcessExit;
  /** When the client process exited, in ms of the peer's clock. */
  readonly exitAt: number;
  /** The run hit its bound and the client was ended. */
  readonly ended: boolean;
  /** The last lines the client printed (stdout and stderr), for evidence. */
  readonly tail: string;
}

const TURNS = { handshake: handshakeTurn, updates: updatesTurn, permission: permissionTurn, cancel: cancelTurn, offers: handshakeTurn, version: handshakeTurn, "version-down": handshakeTurn } as const;

/** Runs the client once for `scenario`. */
export async function runScenario(command: readonly string[], scenario: ScenarioName, card: Scorecard, shared: Shared, options: RunOptions): Promise<RunResult> {
  const peer = await startPeer();
  const [file, ...args] = substitute(command, bridgeCommand(peer.port), options.prompt, options.scratch) as [string, ...string[]];
  const proc = startProcess(file, args, { stdio: ["ignore", "pipe", "pipe"], cwd: options.cwd, env: options.env, graceMs: 1000, termMs: 1000 });
  let exitAt: number | undefined;
  proc.child.once("exit", () => (exitAt = peer.now()));
  let tail = "";
  const keep = (d: Buffer) => (tail = (tail + d.toString("utf8")).slice(-4000));
  proc.child.stdout?.on("data", keep);
  proc.child.stderr?.on("data", keep);
  const gone = (): string | undefined => {
    if (exitAt !== undefined || proc.hasExited) {
      const { exitCode: code, signalCode: signal } = proc.child;
      return `exited (${signal !== null ? `signal ${signal}` : `code ${String(code)}`})`;
    }
    if (peer.eofAt !== undefined) return "closed the agent's stdin";
    if (peer.droppedAt !== undefined) return "dropped the agent's connection";
    return undefined;
  };
  // The session's version is known once initialize is answered; the turns read it then.
  let handshake: Handshake | undefined;
  const ctx: TurnContext = {
    peer,
    card,
    shared,
    timeoutMs: options.timeoutMs,
    scratch: options.scratch,
    gone,
    strictIds: options.strictIds === true,
    get version() {
      return handshake?.version ?? 1;
    },
    interrupt: () => {
      const pid = proc.child.pid;
      if (pid === undefined || proc.hasExited) return;
      try {
        process.kill(process.platform === "win32" ? pid : -pid, "SIGINT");
      } catch {
        // already gone
      }
    },
  };
  handshake = startAgent(peer, scenario, (start) => TURNS[scenario](ctx, start));
  let ended = false;
  // The bound: the start and handshake, the turn (waits of up to three timeouts), the shutdown;
  // the version probe has no wait of its own: the start, one timeout for the client to act, the shutdown.
  const bound = setTimeout(
    () => {
      ended = true;
      void proc.terminate();
    },
    scenario === "version" ? options.timeoutMs * 2 + 5000 : options.timeoutMs * 5 + 10_000,
  );
  const exit = await proc.exited;
  clearTimeout(bound);
  // The socket's last events (EOF, close) may come just after the exit.
  await peer.pause(200);
  peer.close();
  return { scenario, peer, handshake: handshake as Handshake, exit, exitAt: exitAt ?? peer.now(), ended, tail: tail.replace(/\u001b\[[0-9;]*[A-Za-z]/g, "") };
}
