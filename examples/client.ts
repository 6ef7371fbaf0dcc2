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
 *   npx tsx examples/client.ts --tour --protocol 2      # ACP v2 only (1: v1 only; default: negotiate)
 *
 * The session's cwd (where the agent may read, write and run commands) is
 * the folder you start the client in, for every mode including `--tour`;
 * `--cwd DIR` picks another.
 *
 * By default it negotiates (`negotiateClient`): it offers ACP v2 and falls
 * back to v1 when the agent answers v1; over v2 it runs the v2 tour of
 * `client-v2.ts` (v2 has no fs, terminal or mode methods).
 *
 * Or in-process: `await runClient({ prompts: ["hello"], output })`.
 */
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { type AgentCapabilities, type ClientHandler, type StopReason, type Transport } from "../src/index.ts";
import { spawnAgent, type ProcessExit } from "../src/transport/stdio.ts";
import { authenticateWith, listMethods, methodsOfError, offeredMethods, type OfferedMethod } from "./client-auth.ts";
import { protocol as protocolUnstable } from "../src/unstable/index.ts";
import { protocol as protocolV2 } from "../src/v2/index.ts";
import { negotiateClient } from "../src/versions/index.ts";
import { createV2Client, runTourV2, promptV2 } from "./client-v2.ts";
import { createFsHandlers } from "./client-fs.ts";
import { createTerminalUser } from "./client-interactive.ts";
import { decidePermission, type PermissionPolicy } from "./client-permission.ts";
import { createClientSession, type ClientSession } from "./client-session.ts";
import { createTerminalHandlers } from "./client-terminal.ts";
import { splitCommandLine } from "./command-line.ts";
import { remoteAgent } from "./remote-client.ts";
import { runTour, type TourReport } from "./tour.ts";
import { configText, createTranscript, type TextSink } from "./transcript.ts";

/** The repository root. (No longer the tour's default working directory: the session's cwd is the process's, or `--cwd`.) */
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
  /** The session's working directory; `fs/*` and terminals stay inside it. Default: `process.cwd()`, for the tour too (the agent works where you started the client, never inside this checkout unless you started it there). */
  readonly cwd?: string;
  /** Run the scripted tour. */
  readonly tour?: boolean;
  /** Read prompts from the terminal (stdin) and ask the user about permissions. */
  readonly interactive?: boolean;
  /** Prompts to send one after another when neither `tour` nor `interactive` is set. */
  readonly prompts?: readonly string[];
  /** With `prompts`: send `session/cancel` this many milliseconds after each prompt went out (a turn that ends first is not cancelled). Default: never. */
  readonly cancelAfterMs?: number;
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
  /** The protocol version: `1` or `2` only, or `negotiate` (offer 2, fall back to 1). Default `negotiate`. */
  readonly protocol?: 1 | 2 | "negotiate";
  /** Authenticate with this method id (as the agent lists it) before opening the session. */
  readonly auth?: string;
  /**
   * After the client is done, how long the agent may take to exit before its
   * process group is ended (SIGTERM, then SIGKILL 2 s later). Default 2000 ms:
   * a lingering agent is ended, and reported, without failing the run.
   */
  readonly exitGraceMs?: number;
}

export interface RunClientResult {
  /** The stop reason of every prompt, in order (over v2: as the idle `state_update` reported it). */
  readonly stopReasons: readonly (StopReason | string)[];
  /** The protocol version negotiated. */
  readonly protocol: 1 | 2;
  /** With `tour`: the steps that ran and those skipped (with the reason). */
  readonly tour?: TourReport;
  /** How the agent process ended after the connection closed (`lingered`: it was ended after the grace period). */
  readonly agentExit: ProcessExit;
}

/** Runs the example client once: spawn, handshake, session, script, close, wait for the agent to exit. */
export async function runClient(options: RunClientOptions = {}): Promise<RunClientResult> {
  const transcript = createTranscript(options.output ?? process.stdout);
  const cwd = resolve(options.cwd ?? process.cwd());
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
  const spawnOptions = { ...(options.agentStderr ? { stderr: options.agentStderr } : {}), ...(options.exitGraceMs !== undefined ? { graceMs: options.exitGraceMs } : {}) };
  const start = () => (options.url !== undefined ? remoteAgent(options.url) : spawnAgent(command, args, spawnOptions));
  // Every agent started: a reconnect during negotiation starts another (the first one exits on stdin EOF).
  const agents = [start()];
  const connectionOptions = {
    requestTimeoutMs: options.requestTimeoutMs ?? 60_000,
    onDiagnostic: (d: { kind: string; message: string }) => {
      if (d.kind !== "closed") process.stderr.write(`[example-client] ${d.kind}: ${d.message}\n`);
    },
  };
  const protocol = options.protocol ?? "negotiate";
  const v2Client = createV2Client(transcript, typeof policy === "string" ? policy : "allow");
  const info = { name: "acp-router-example-client", version: "0.1.0" };
  let conn: { close(reason?: string): void } | undefined;
  const negotiated = await negotiateClient(
    (agents[0] as { transport: Transport }).transport,
    {
      ...(protocol !== 2 && {
        v1: {
          // The unstable table (a superset of v1's): the tour can use session/fork when the agent advertises it.
          protocol: protocolUnstable,
          handler,
          initialize: { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true }, clientInfo: info },
        },
      }),
      ...(protocol !== 1 && { v2: { protocol: protocolV2, handler: v2Client.handler, initialize: { protocolVersion: 2, info, capabilities: {} } } }),
    },
    { ...connectionOptions, reconnect: () => (agents.push(start()), (agents.at(-1) as { transport: Transport }).transport) },
  ).catch(async (error: unknown) => {
    await shutdown();
    throw error;
  });
  conn = negotiated.connection;
  try {
    if (negotiated.version === 2) {
      const init = negotiated.initialized;
      transcript.note(`Connected to ${init.info.name} ${init.info.version} (protocol 2)`);
      const { sessionId } = await negotiated.agent.newSession({ cwd });
      transcript.note(`Session ${sessionId} in ${cwd}`);
      const stopReasons: string[] = [];
      let tour: TourReport | undefined;
      if (options.tour) {
        const report = await runTourV2(negotiated.connection, v2Client, sessionId, cwd, transcript);
        stopReasons.push(...report.stopReasons);
        tour = { ran: report.ran, skipped: report.skipped };
      } else for (const text of options.prompts ?? []) stopReasons.push(await promptV2(negotiated.connection, v2Client, sessionId, text, transcript, options.cancelAfterMs));
      return { stopReasons, protocol: 2, ...(tour ? { tour } : {}), agentExit: await shutdown() };
    }
    const init = negotiated.initialized;
    const info = init.agentInfo ? `${init.agentInfo.name} ${init.agentInfo.version}` : "an unnamed agent";
    transcript.note(`Connected to ${info} (protocol ${init.protocolVersion})${describeCapabilities(init.agentCapabilities)}`);
    if (init.protocolVersion !== 1) throw new Error(`the agent answered protocol version ${init.protocolVersion}; this client speaks 1`);

    // Authentication: the methods are listed where the agent needs them, and --auth picks one.
    let methods: OfferedMethod[] = offeredMethods(init.authMethods);
    listMethods(transcript, methods);
    const authenticate = async (id: string) => {
      await authenticateWith(negotiated.agent, methods, id);
      transcript.note(`Authenticated with ${id}`);
    };
    if (options.auth !== undefined && methods.length > 0) await authenticate(options.auth);
    const newSession = () => negotiated.agent.newSession({ cwd, mcpServers: [] });
    const created = await newSession().catch(async (error: unknown) => {
      const offered = methodsOfError(error);
      if (offered === undefined) throw error;
      if (offered.length > 0 && methods.length === 0) {
        methods = offered;
        listMethods(transcript, methods);
        if (options.auth !== undefined) return authenticate(options.auth).then(newSession);
      }
      throw new Error(`${(error as Error).message}: ${methods.length > 0 ? `pick a method with --auth ${methods.map((m) => m.id).join("|")}` : "the agent offered no authentication method"}`);
    });
    cwds.set(created.sessionId, cwd);
    const modes = created.modes ? `, mode ${created.modes.currentModeId} of ${created.modes.availableModes.map((m) => m.id).join("/")}` : "";
    // `models` is an unstable field of session/new (acp-router/unstable types it); read it loosely here.
    const models = (created as { models?: { currentModelId?: string; availableModels?: { modelId: string }[] } | null }).models;
    const model = models?.currentModelId ? `, model ${models.currentModelId} of ${(models.availableModels ?? []).map((m) => m.modelId).join("/")}` : "";
    transcript.note(`Session ${created.sessionId} in ${cwd}${modes}${model}`);
    if (created.configOptions && created.configOptions.length > 0) transcript.note(`  config: ${configText(created.configOptions)}`);
    // The unstable connection is a superset of the v1 one; the session helper uses its v1 methods only.
    session = createClientSession(negotiated.connection as unknown as Parameters<typeof createClientSession>[0], created.sessionId, cwd, transcript);

    let tour: TourReport | undefined;
    if (options.tour) tour = await runTour(session, { capabilities: init.agentCapabilities, modes: created.modes, configOptions: created.configOptions, models, unstable: negotiated.connection });
    else if (user) await user.run(session);
    else for (const text of options.prompts ?? []) await promptInterruptibly(session, text, options.cancelAfterMs);
    return { stopReasons: session.stopReasons, protocol: 1, ...(tour ? { tour } : {}), agentExit: await shutdown() };
  } catch (error) {
    await shutdown();
    throw error;
  }

  async function shutdown() {
    user?.close();
    terminals.releaseAll();
    conn?.close("the example client is done");
    const exits = await Promise.all(agents.map((a) => a.exited));
    const exit: ProcessExit = exits.at(-1) as (typeof exits)[number];
    transcript.note(exit.lingered ? `\nAgent ${exit.note}.` : `\nAgent exited (${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`}).`);
    return exit;
  }
}

function describeCapabilities(caps: AgentCapabilities | undefined): string {
  const parts: string[] = [];
  if (caps?.loadSession) parts.push("session/load");
  for (const name of ["list", "close", "resume", "delete"] as const) if (caps?.sessionCapabilities?.[name]) parts.push(`session/${name}`);
  // Unstable (acp-router/unstable): the stable type does not name it.
  if ((caps?.sessionCapabilities as { readonly fork?: unknown } | null | undefined)?.fork) parts.push("session/fork (unstable)");
  return parts.length > 0 ? `; supports ${parts.join(", ")}` : "";
}

/**
 * Sends one prompt of `--prompt`: Ctrl-C (SIGINT) while it runs sends
 * session/cancel and the turn ends as the agent answers, as in interactive
 * mode; a second Ctrl-C during the same turn ends the client as usual.
 */
async function promptInterruptibly(session: ClientSession, text: string, cancelAfterMs: number | undefined): Promise<void> {
  const turn = new AbortController();
  const onSigint = () => turn.abort();
  process.once("SIGINT", onSigint);
  try {
    await session.prompt(text, { cancelSignal: turn.signal, ...(cancelAfterMs === undefined ? {} : { cancelAfterMs }) });
  } finally {
    process.off("SIGINT", onSigint);
  }
}

const USAGE = `usage: npx tsx examples/client.ts (--tour | --interactive | --prompt <text>...) [--agent "<command line>" | --url http://host:port/acp | --url ws://host:port/acp] [--cwd <dir> (default: the current folder)] [--permission allow|reject|cancel] [--protocol 1|2|negotiate] [--auth METHOD_ID] [--exit-grace MS]`;

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
      protocol: { type: "string" },
      auth: { type: "string" },
      "exit-grace": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const permission = values.permission ?? "allow";
  const protocol = values.protocol === "1" ? 1 : values.protocol === "2" ? 2 : values.protocol === undefined || values.protocol === "negotiate" ? "negotiate" : undefined;
  const grace = values["exit-grace"];
  if (values.help || (!values.tour && !values.interactive && !values.prompt) || !isPolicyName(permission) || protocol === undefined || (grace !== undefined && !/^\d+$/.test(grace))) {
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
    protocol,
    ...(values.auth !== undefined ? { auth: values.auth } : {}),
    ...(grace !== undefined ? { exitGraceMs: Number(grace) } : {}),
  });
  // An agent that lingered and was ended after the grace period did its work: not a failure.
  return result.agentExit.code === 0 || result.agentExit.lingered ? 0 : 1;
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
