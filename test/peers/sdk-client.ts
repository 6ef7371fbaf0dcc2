// Official-SDK (@agentclientprotocol/sdk 2.4) client peer: spawns an agent command and
// talks ACP v1 NDJSON to it over the child's stdio. Not a script; import startSdkClient.
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { AsyncLocalStorage } from "node:async_hooks";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { startTerminal, type TestTerminal } from "../support/terminal.ts";
import type { AnyMessage, ClientCapabilities, ClientConnection, ClientContext, CreateElicitationRequest, CreateElicitationResponse, InitializeRequest, PromptRequest, RequestPermissionOutcome, RequestPermissionRequest, SendRequestOptions, SessionNotification } from "@agentclientprotocol/sdk";

/** How `session/request_permission` is answered. Default: `"allow"` (first allow_* option). */
export type PermissionPolicy = "allow" | "reject" | "cancel" | { select: string } | ((req: RequestPermissionRequest, signal: AbortSignal) => RequestPermissionOutcome | Promise<RequestPermissionOutcome>);

export type FsMode = { mode: "memory"; files?: Record<string, string> } | { mode: "disk" } | false;

export interface SdkClientOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  permission?: PermissionPolicy;
  /** fs/* handlers; `false` leaves them unregistered (SDK answers -32601). Default: in-memory. */
  fs?: FsMode;
  /** terminal/* handlers backed by real child processes. Default true. */
  terminal?: boolean;
  /** elicitation/create handler; `false` leaves it unregistered. Default: accept with `{}`. */
  elicitation?: false | ((req: CreateElicitationRequest) => CreateElicitationResponse | Promise<CreateElicitationResponse>);
  /** Handlers for agent→client extension requests (method names as sent on the wire). */
  extRequests?: Record<string, (params: unknown) => unknown>;
  /** Keep a raw log of every inbound/outbound wire message (default true). */
  recordWire?: boolean;
}

/** Something the SDK itself complained about (console.error inside the SDK connection). */
export interface SdkDiagnostic {
  message: string;
  details: unknown;
}

type Terminal = TestTerminal;

// The SDK reports dropped inbound notifications (zod failure, handler throw), stray responses and
// non-object messages only through console.error. We tag each connection with an async context
// so those calls can be attributed to the client that owns the connection.
const sdkContext = new AsyncLocalStorage<SdkDiagnostic[]>();
let consolePatched = false;
function patchConsole(): void {
  if (consolePatched) return;
  consolePatched = true;
  const original = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    const sink = sdkContext.getStore();
    if (sink) sink.push({ message: String(args[0]), details: args.length > 2 ? args.slice(1) : args[1] });
    else original(...args);
  };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
const isErrorResponse = (m: AnyMessage): m is AnyMessage & { id: unknown; error: acp.ErrorResponse } => "error" in m && !("method" in m);

export async function startSdkClient(command: string, args: string[], opts: SdkClientOptions = {}) {
  patchConsole();
  const child = spawn(command, args, {
    stdio: ["pipe", "pipe", "pipe"],
    ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
    ...(opts.env !== undefined ? { env: opts.env } : {}),
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  child.stdin!.on("error", () => {}); // EPIPE when the agent dies first

  const recordWire = opts.recordWire ?? true;
  const inbound: AnyMessage[] = [];
  const outbound: AnyMessage[] = [];
  const outgoingErrors: Array<{ id: unknown; error: acp.ErrorResponse }> = [];
  const updates: SessionNotification[] = [];
  const extNotifications: Array<{ method: string; params: unknown }> = [];
  const permissionRequests: RequestPermissionRequest[] = [];
  const diagnostics: SdkDiagnostic[] = [];
  let inboundUpdates = 0;

  const fsMode: FsMode = opts.fs ?? { mode: "memory" };
  const files = new Map<string, string>(Object.entries(fsMode && fsMode.mode === "memory" ? (fsMode.files ?? {}) : {}));
  const terminals = new Map<string, Terminal>();
  let terminalCounter = 0;

  const state = {
    permission: opts.permission ?? ("allow" as PermissionPolicy),
  };

  const decoder = new TextDecoder();
  const childIn = Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>;
  // Outbound tap at byte level: ndJsonStream writes exactly one JSON line per chunk, including
  // the -32700/-32600 answers it generates itself for unparsable input.
  const output = new WritableStream<Uint8Array>({
    async write(chunk) {
      const msg = JSON.parse(decoder.decode(chunk)) as AnyMessage;
      if (recordWire) outbound.push(msg);
      if (isErrorResponse(msg)) outgoingErrors.push({ id: msg.id, error: msg.error });
      const w = childIn.getWriter();
      try {
        await w.write(chunk);
      } finally {
        w.releaseLock();
      }
    },
  });
  const base = acp.ndJsonStream(output, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>);
  const readable = base.readable.pipeThrough(
    new TransformStream<AnyMessage, AnyMessage>({
      transform(msg, controller) {
        if (recordWire) inbound.push(msg);
        if ("method" in msg && !("id" in msg) && msg.method === acp.methods.client.session.update) inboundUpdates++;
        controller.enqueue(msg);
      },
    }),
  );

  async function answerPermission(params: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionOutcome> {
    const p = state.permission;
    if (typeof p === "function") return p(params, signal);
    if (p === "cancel") return { outcome: "cancelled" };
    if (typeof p === "object") return { outcome: "selected", optionId: p.select };
    const prefix = p === "allow" ? "allow_" : "reject_";
    const option = params.options.find((o) => o.kind.startsWith(prefix)) ?? params.options[0];
    return option ? { outcome: "selected", optionId: option.optionId } : { outcome: "cancelled" };
  }

  const app = acp
    .client({ name: "sdk-client" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params, signal }) => {
      permissionRequests.push(params);
      return { outcome: await answerPermission(params, signal) };
    })
    .onRequest("*", async ({ method, params }) => {
      const handler = opts.extRequests?.[method];
      if (!handler) throw acp.RequestError.methodNotFound(method);
      return handler(params);
    })
    .onNotification("*", ({ method, params }) => {
      extNotifications.push({ method, params });
    });

  if (fsMode) {
    app
      .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => {
        let content: string;
        if (fsMode.mode === "disk") {
          content = await readFile(params.path, "utf8").catch(() => {
            throw acp.RequestError.resourceNotFound(params.path);
          });
        } else {
          const c = files.get(params.path);
          if (c === undefined) throw acp.RequestError.resourceNotFound(params.path);
          content = c;
        }
        if (params.line != null || params.limit != null) {
          const start = Math.max((params.line ?? 1) - 1, 0);
          const lines = content.split("\n");
          content = lines.slice(start, params.limit != null ? start + params.limit : undefined).join("\n");
        }
        return { content };
      })
      .onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => {
        if (fsMode.mode === "disk") await writeFile(params.path, params.content, "utf8");
        else files.set(params.path, params.content);
        return {};
      });
  }

  if (opts.terminal ?? true) {
    const getTerminal = (id: string): Terminal => {
      const t = terminals.get(id);
      if (!t) throw acp.RequestError.resourceNotFound(`terminal:${id}`);
      return t;
    };
    app
      .onRequest(acp.methods.client.terminal.create, async ({ params }) => {
        let t: Terminal;
        try {
          t = await startTerminal(params);
        } catch (err) {
          throw acp.RequestError.internalError({ details: String(err) });
        }
        const terminalId = `term-${++terminalCounter}`;
        terminals.set(terminalId, t);
        return { terminalId };
      })
      .onRequest(acp.methods.client.terminal.output, ({ params }) => {
        const t = getTerminal(params.terminalId);
        return { output: t.output, truncated: t.truncated, exitStatus: t.exitStatus };
      })
      .onRequest(acp.methods.client.terminal.waitForExit, async ({ params }) => getTerminal(params.terminalId).exited)
      .onRequest(acp.methods.client.terminal.kill, ({ params }) => {
        const t = getTerminal(params.terminalId);
        if (t.exitStatus === null) t.proc.kill();
        return {};
      })
      .onRequest(acp.methods.client.terminal.release, ({ params }) => {
        const t = getTerminal(params.terminalId);
        if (t.exitStatus === null) t.proc.kill();
        terminals.delete(params.terminalId);
        return {};
      });
  }

  if (opts.elicitation !== false) {
    const elicit = opts.elicitation ?? (() => ({ action: "accept", content: {} }) as CreateElicitationResponse);
    app.onRequest(acp.methods.client.elicitation.create, async ({ params }) => elicit(params));
  }

  // Everything the connection does (its receive loop included) inherits this async context.
  const connection: ClientConnection = sdkContext.run(diagnostics, () => app.connect({ readable, writable: base.writable }));
  const agent: ClientContext = connection.agent;

  const defaultCapabilities = (): ClientCapabilities => ({
    fs: { readTextFile: fsMode !== false, writeTextFile: fsMode !== false },
    terminal: opts.terminal ?? true,
    ...(opts.elicitation !== false ? { elicitation: { form: {} } } : {}),
  });

  /** Requests whose response we await, then let queued notification handlers run. */
  const call = async <T>(p: Promise<T>): Promise<T> => {
    try {
      return await p;
    } finally {
      await flush();
    }
  };
  const m = acp.methods.agent;
  type Opts = SendRequestOptions | undefined;

  return {
    child,
    connection,
    /** SDK ClientContext: `agent.request(method, params, { cancellationSignal })`, `agent.notify(...)`. */
    agent,
    updates,
    inbound,
    outbound,
    outgoingErrors,
    extNotifications,
    permissionRequests,
    diagnostics,
    files,
    exited,
    get permission(): PermissionPolicy {
      return state.permission;
    },
    set permission(p: PermissionPolicy) {
      state.permission = p;
    },
    stderr: () => stderr,
    /** Inbound session/update notifications that never reached our handler (e.g. failed zod). */
    droppedUpdates: () => inboundUpdates - updates.length,
    /** -32602/-32600/-32700 answers our SDK sent, plus SDK console.error diagnostics. */
    protocolErrors: () => [...outgoingErrors.filter((e) => [-32602, -32600, -32700].includes(e.error.code)), ...diagnostics],
    /** Chunk texts of agent_message_chunk updates, optionally for one session. */
    chunks: (sessionId?: string) => updates.filter((u) => sessionId === undefined || u.sessionId === sessionId).flatMap((u) => (u.update.sessionUpdate === "agent_message_chunk" && u.update.content.type === "text" ? [u.update.content.text] : [])),
    initialize: (params?: Partial<InitializeRequest>, o?: Opts) => call(agent.request(m.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: defaultCapabilities(), clientInfo: { name: "sdk-client", version: "0.0.0" }, ...params }, o)),
    newSession: (params: { cwd: string } & Partial<acp.NewSessionRequest>, o?: Opts) => call(agent.request(m.session.new, { mcpServers: [], ...params }, o)),
    prompt: (params: PromptRequest, o?: Opts) => call(agent.request(m.session.prompt, params, o)),
    /** Prompt with one text block. */
    promptText: (sessionId: string, text: string, o?: Opts) => call(agent.request(m.session.prompt, { sessionId, prompt: [{ type: "text", text }] }, o)),
    cancel: (sessionId: string) => agent.notify(m.session.cancel, { sessionId }),
    loadSession: (p: acp.LoadSessionRequest, o?: Opts) => call(agent.request(m.session.load, p, o)),
    listSessions: (p: acp.ListSessionsRequest = {}, o?: Opts) => call(agent.request(m.session.list, p, o)),
    resumeSession: (p: acp.ResumeSessionRequest, o?: Opts) => call(agent.request(m.session.resume, p, o)),
    closeSession: (p: acp.CloseSessionRequest, o?: Opts) => call(agent.request(m.session.close, p, o)),
    deleteSession: (p: acp.DeleteSessionRequest, o?: Opts) => call(agent.request(m.session.delete, p, o)),
    setSessionMode: (p: acp.SetSessionModeRequest, o?: Opts) => call(agent.request(m.session.setMode, p, o)),
    setSessionConfigOption: (p: acp.SetSessionConfigOptionRequest, o?: Opts) => call(agent.request(m.session.setConfigOption, p, o)),
    authenticate: (p: acp.AuthenticateRequest, o?: Opts) => call(agent.request(m.authenticate, p, o)),
    logout: (p: acp.LogoutRequest = {}, o?: Opts) => call(agent.request(m.logout, p, o)),
    /** Extension request; the method name goes on the wire verbatim (include the leading `_`). */
    extMethod: <R = unknown>(method: string, params?: unknown, o?: Opts) => call(agent.request<R>(method, params, o)),
    extNotification: (method: string, params?: unknown) => agent.notify(method, params),
    /** Closes the connection and stdin, then waits for the agent (SIGTERM, then SIGKILL). */
    async close(timeoutMs = 2000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
      for (const t of terminals.values()) if (t.exitStatus === null) t.proc.kill();
      terminals.clear();
      connection.close();
      child.stdin!.end();
      const exitsWithin = async (ms: number): Promise<boolean> => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timedOut = new Promise<false>((r) => (timer = setTimeout(() => r(false), ms)));
        const ok = await Promise.race([exited.then(() => true as const), timedOut]);
        clearTimeout(timer);
        return ok;
      };
      if (child.exitCode === null && child.signalCode === null && !(await exitsWithin(timeoutMs))) {
        child.kill("SIGTERM");
        if (!(await exitsWithin(timeoutMs))) child.kill("SIGKILL");
      }
      return exited;
    },
  };
}

export type SdkClient = Awaited<ReturnType<typeof startSdkClient>>;
