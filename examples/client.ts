/**
 * The example ACP client. It spawns an agent, performs the handshake
 * (advertising fs and terminal), opens a session and then runs the scripted
 * tour (adapted to what the agent advertised), a list of prompts, or an
 * interactive loop, printing a transcript to stdout. It answers `fs/*` from
 * the local disk inside the session's cwd and `terminal/*` with real child
 * processes.
 *
 *   npx tsx examples/client.ts --tour                  # the demo (npm run demo)
 *   npx tsx examples/client.ts --interactive
 *   npx tsx examples/client.ts --prompt hello --prompt plan
 *   npx tsx examples/client.ts --agent "npx some-acp-agent" --interactive
 *   npx tsx examples/client.ts --url http://127.0.0.1:8080/acp --tour   # an agent served with --listen (ws:// for WebSocket)
 *
 * Or in-process: `await runClient({ prompts: ["hello"], output })`.
 */
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { connectClient, type AgentCapabilities, type ClientHandler, type StopReason } from "../src/index.ts";
import { spawnAgent } from "../src/transport/stdio.ts";
import { createFsHandlers } from "./client-fs.ts";
import { createTerminalUser } from "./client-interactive.ts";
import { decidePermission, type PermissionPolicy } from "./client-permission.ts";
import { createClientSession, type ClientSession } from "./client-session.ts";
import { createTerminalHandlers } from "./client-terminal.ts";
import { splitCommandLine } from "./command-line.ts";
import { remoteAgent } from "./remote-client.ts";
import { runTour, type TourReport } from "./tour.ts";
import { createTranscript, type TextSink } from "./transcript.ts";

/** The repository root (the tour's working directory). */
export const REPO_ROOT = resolve(fileURLToPath(new URL("../", import.meta.url)));

/** The example agent, run by this Node with the tsx loader: `node --import tsx examples/agent.ts`. */
export function exampleAgentCommand(): string[] {
  return [process.execPath, "--import", import.meta.resolve("tsx"), fileURLToPath(new URL("./agent.ts", import.meta.url))];
}

export interface RunClientOptions {
  /** The agent's command and arguments. Default: the example agent (`exampleAgentCommand()`). */
  readonly agentCommand?: readonly string[];
  /** An agent served over the network instead (`http://…/acp` Streamable HTTP, `ws://…/acp` WebSocket); nothing is spawned. */
  readonly url?: string;
  /** The session's working directory; `fs/*` stays inside it. Default: the repository root for the tour, else `process.cwd()`. */
  readonly cwd?: string;
  /** Run the scripted tour. */
  readonly tour?: boolean;
  /** Read prompts from the terminal (stdin) and ask the user about permissions. */
  readonly interactive?: boolean;
  /** Prompts to send one after another when neither `tour` nor `interactive` is set. */
  readonly prompts?: readonly string[];
  /** How permission requests are answered outside interactive mode. Default `allow`. */
  readonly permission?: PermissionPolicy;
  /** Where the transcript goes. Default `process.stdout`. */
  readonly output?: TextSink;
  /** The agent's stderr: shown with its tail kept for error messages (`forward`, spawnAgent's default), only kept (`capture`), `inherit` or `ignore`. */
  readonly agentStderr?: "forward" | "capture" | "inherit" | "ignore";
  /**
   * The connection's `requestTimeoutMs` (prompts and permission questions are exempt). Default
   * 60000: time for a slow start (an `npx` download before `initialize`), yet a silent agent
   * cannot hang the client forever.
   */
  readonly requestTimeoutMs?: number;
}

export interface RunClientResult {
  /** The stop reason of every prompt, in order. */
  readonly stopReasons: readonly StopReason[];
  /** With `tour`: the steps that ran and those skipped (with the reason). */
  readonly tour?: TourReport;
  /** How the agent process ended after the connection closed. */
  readonly agentExit: { readonly code: number | null; readonly signal: NodeJS.Signals | null };
}

/** Runs the example client once: spawn, handshake, session, script, close, wait for the agent to exit. */
export async function runClient(options: RunClientOptions = {}): Promise<RunClientResult> {
  const transcript = createTranscript(options.output ?? process.stdout);
  const cwd = resolve(options.cwd ?? (options.tour ? REPO_ROOT : process.cwd()));
  const [command, ...args] = options.agentCommand ?? exampleAgentCommand();
  if (command === undefined) throw new Error("empty agent command");

  const user = options.interactive ? createTerminalUser(transcript) : undefined;
  const policy: PermissionPolicy = user ? (request, signal) => user.permission(request, signal) : (options.permission ?? "allow");
  const policyName = user ? "you" : typeof policy === "string" ? `policy ${policy}` : "policy";
  // Sessions this client opened, and their working directories (the fs boundary).
  const cwds = new Map<string, string>();
  const fs = createFsHandlers((sessionId) => cwds.get(sessionId));
  const terminals = createTerminalHandlers((sessionId) => cwds.get(sessionId));
  // The open session, once session/new answered: it shows (or, while loading, counts) its updates.
  let session: ClientSession | undefined;

  const handler: ClientHandler = {
    async requestPermission(params, ctx) {
      const outcome = await decidePermission(policy, params, ctx.signal);
      transcript.permission(params, outcome, policyName);
      return { outcome };
    },
    sessionUpdate(params) {
      if (session?.sessionId === params.sessionId) session.receive(params);
      else transcript.update(params);
    },
    readTextFile: (params) => fs.readTextFile(params),
    writeTextFile: (params) => fs.writeTextFile(params),
    createTerminal: (params) => terminals.createTerminal(params),
    terminalOutput: (params) => terminals.terminalOutput(params),
    waitForTerminalExit: (params) => terminals.waitForTerminalExit(params),
    killTerminal: (params) => terminals.killTerminal(params),
    releaseTerminal: (params) => terminals.releaseTerminal(params),
  };

  // The agent runs where the client was started (its command line may be relative to that); the session cwd is a protocol field.
  const agent = options.url !== undefined ? remoteAgent(options.url) : spawnAgent(command, args, options.agentStderr ? { stderr: options.agentStderr } : {});
  const conn = connectClient(handler, agent.transport, {
    requestTimeoutMs: options.requestTimeoutMs ?? 60_000,
    onDiagnostic: (d) => {
      if (d.kind !== "closed") process.stderr.write(`[example-client] ${d.kind}: ${d.message}\n`);
    },
  });
  try {
    const init = await conn.agent.initialize({
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
      clientInfo: { name: "acp-router-example-client", version: "0.1.0" },
    });
    const info = init.agentInfo ? `${init.agentInfo.name} ${init.agentInfo.version}` : "an unnamed agent";
    transcript.note(`Connected to ${info} (protocol ${init.protocolVersion})${describeCapabilities(init.agentCapabilities)}`);
    if (init.protocolVersion !== 1) throw new Error(`the agent answered protocol version ${init.protocolVersion}; this client speaks 1`);

    const created = await conn.agent.newSession({ cwd, mcpServers: [] });
    cwds.set(created.sessionId, cwd);
    const modes = created.modes ? `, mode ${created.modes.currentModeId} of ${created.modes.availableModes.map((m) => m.id).join("/")}` : "";
    transcript.note(`Session ${created.sessionId} in ${cwd}${modes}`);
    session = createClientSession(conn, created.sessionId, cwd, transcript);

    let tour: TourReport | undefined;
    if (options.tour) tour = await runTour(session, { capabilities: init.agentCapabilities, modes: created.modes, configOptions: created.configOptions });
    else if (user) await user.run(session);
    else for (const text of options.prompts ?? []) await session.prompt(text);
    return { stopReasons: session.stopReasons, ...(tour ? { tour } : {}), agentExit: await shutdown() };
  } catch (error) {
    await shutdown();
    throw error;
  }

  async function shutdown() {
    user?.close();
    terminals.releaseAll();
    conn.close("the example client is done");
    const exit = await agent.exited;
    transcript.note(`\nAgent exited (${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`}).`);
    return exit;
  }
}

function describeCapabilities(caps: AgentCapabilities | undefined): string {
  const parts: string[] = [];
  if (caps?.loadSession) parts.push("session/load");
  for (const name of ["list", "close", "resume", "delete"] as const) if (caps?.sessionCapabilities?.[name]) parts.push(`session/${name}`);
  return parts.length > 0 ? `; supports ${parts.join(", ")}` : "";
}

const USAGE = `usage: npx tsx examples/client.ts (--tour | --interactive | --prompt <text>...) [--agent "<command line>" | --url http://host:port/acp | --url ws://host:port/acp] [--cwd <dir>] [--permission allow|reject|cancel]`;

/** The command-line entry point. */
export async function main(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      tour: { type: "boolean" },
      interactive: { type: "boolean" },
      prompt: { type: "string", multiple: true },
      agent: { type: "string" },
      url: { type: "string" },
      cwd: { type: "string" },
      permission: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const permission = values.permission ?? "allow";
  if (values.help || (!values.tour && !values.interactive && !values.prompt) || !isPolicyName(permission)) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const agentCommand = values.agent !== undefined ? splitCommandLine(values.agent) : undefined;
  const result = await runClient({
    ...(agentCommand ? { agentCommand } : {}),
    ...(values.url !== undefined ? { url: values.url } : {}),
    ...(values.cwd !== undefined ? { cwd: values.cwd } : {}),
    tour: values.tour === true,
    interactive: values.interactive === true,
    prompts: values.prompt ?? [],
    permission,
  });
  return result.agentExit.code === 0 ? 0 : 1;
}

function isPolicyName(name: string): name is "allow" | "reject" | "cancel" {
  return name === "allow" || name === "reject" || name === "cancel";
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`example client: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
