// ACP agent built only on the official SDK (@agentclientprotocol/sdk 2.4).
// Run: node --import tsx test/peers/sdk-agent.ts   (or: npx tsx test/peers/sdk-agent.ts)
// NDJSON on stdin/stdout; diagnostics go to stderr only.
// Flag: --serve-unadvertised  also registers a `session/load` handler while still advertising
// loadSession:false (the SDK gates nothing, so the handler runs; used by the differential corpus).
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import type { AgentContext, ContentBlock, PromptResponse, SessionId } from "@agentclientprotocol/sdk";

const log = (...parts: unknown[]): void => {
  process.stderr.write(`[sdk-agent] ${parts.map((p) => (typeof p === "string" ? p : JSON.stringify(p))).join(" ")}\n`);
};

/** Per-session state: the AbortController of the running prompt, if any. */
const sessions = new Map<SessionId, { cancel: AbortController | null }>();
let sessionCounter = 0;

/** Splits off the first token; supports "double" and 'single' quoted tokens. */
function nextToken(input: string): [string, string] {
  const s = input.trimStart();
  const quote = s[0];
  if (quote === '"' || quote === "'") {
    const end = s.indexOf(quote, 1);
    if (end > 0) return [s.slice(1, end), s.slice(end + 1).replace(/^\s/, "")];
  }
  const m = /^(\S*)\s?([\s\S]*)$/.exec(s);
  return [m?.[1] ?? "", m?.[2] ?? ""];
}

function tokens(input: string): string[] {
  const out: string[] = [];
  let rest = input;
  while (rest.trim() !== "") {
    const [tok, next] = nextToken(rest);
    out.push(tok);
    rest = next;
  }
  return out;
}

function describeError(err: unknown): string {
  if (err instanceof acp.RequestError) return `error:${err.code}:${err.message}`;
  return `error:internal:${err instanceof Error ? err.message : String(err)}`;
}

async function say(client: AgentContext, sessionId: SessionId, text: string): Promise<void> {
  await client.notify(acp.methods.client.session.update, {
    sessionId,
    update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } },
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function runPrompt(client: AgentContext, sessionId: SessionId, text: string, cancel: AbortSignal): Promise<PromptResponse["stopReason"]> {
  const [verb, rest] = nextToken(text);
  switch (verb) {
    case "echo":
      await say(client, sessionId, rest);
      return "end_turn";
    case "permission": {
      const res = await client.request(acp.methods.client.session.requestPermission, {
        sessionId,
        toolCall: { toolCallId: "call-1", title: "Run a dangerous thing", kind: "execute", status: "pending" },
        options: [
          { optionId: "allow", name: "Allow once", kind: "allow_once" },
          { optionId: "reject", name: "Reject", kind: "reject_once" },
        ],
      });
      const o = res.outcome;
      await say(client, sessionId, o.outcome === "selected" ? `outcome:selected:${o.optionId}` : "outcome:cancelled");
      return o.outcome === "cancelled" ? "cancelled" : "end_turn";
    }
    case "read": {
      const [path] = nextToken(rest);
      const res = await client.request(acp.methods.client.fs.readTextFile, { sessionId, path });
      await say(client, sessionId, res.content);
      return "end_turn";
    }
    case "write": {
      const [path, content] = nextToken(rest);
      await client.request(acp.methods.client.fs.writeTextFile, { sessionId, path, content });
      await say(client, sessionId, "written");
      return "end_turn";
    }
    case "terminal":
    case "terminal-kill": {
      const [command = "", ...args] = tokens(rest);
      const term = await client.createTerminal({ sessionId, command, args });
      try {
        if (verb === "terminal-kill") await term.kill();
        const exit = await term.waitForExit();
        const out = await term.currentOutput();
        const signal = exit.signal ? ` signal:${exit.signal}` : "";
        await say(client, sessionId, `exit:${exit.exitCode ?? "null"}${signal} output:${out.output}`);
      } finally {
        await term.release();
      }
      return "end_turn";
    }
    case "elicit": {
      const res = await client.request(acp.methods.client.elicitation.create, {
        mode: "form",
        sessionId,
        message: "Please tell us about yourself",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", title: "Name" },
            age: { type: "integer", title: "Age", minimum: 0 },
          },
          required: ["name"],
        },
      });
      await say(client, sessionId, JSON.stringify(res));
      return "end_turn";
    }
    case "raw":
    case "notify": {
      // Arbitrary request/notification, no capability gating (the SDK does none either).
      const [method, json] = nextToken(rest);
      const params: unknown = json.trim() === "" ? undefined : JSON.parse(json);
      if (verb === "notify") {
        await client.notify(method, params);
        await say(client, sessionId, "notified");
        return "end_turn";
      }
      try {
        const result = await client.request(method, params);
        await say(client, sessionId, `result:${JSON.stringify(result ?? null)}`);
      } catch (err) {
        await say(client, sessionId, describeError(err));
      }
      return "end_turn";
    }
    case "slow": {
      for (let i = 1; i <= 2000 && !cancel.aborted; i++) {
        await say(client, sessionId, `tick ${i}`);
        await sleep(50);
      }
      return cancel.aborted ? "cancelled" : "end_turn";
    }
    default:
      await say(client, sessionId, text);
      return "end_turn";
  }
}

const app = acp
  .agent({ name: "sdk-agent" })
  .onRequest(acp.methods.agent.initialize, ({ params }) => {
    log("initialize", { protocolVersion: params.protocolVersion });
    return {
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: { loadSession: false },
      authMethods: [],
      agentInfo: { name: "sdk-agent", version: "0.0.0" },
    };
  })
  .onRequest(acp.methods.agent.session.new, () => {
    const sessionId = `sess-${++sessionCounter}`;
    sessions.set(sessionId, { cancel: null });
    return { sessionId };
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client, signal }) => {
    const session = sessions.get(params.sessionId);
    if (!session) throw acp.RequestError.sessionNotFound(params.sessionId);
    const cancel = new AbortController();
    session.cancel = cancel;
    // `$/cancel_request` for this prompt aborts `signal`; treat it like session/cancel.
    const onAbort = () => cancel.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    const first = params.prompt.find((b: ContentBlock) => b.type === "text");
    const text = first?.type === "text" ? first.text : "";
    try {
      const stopReason = await runPrompt(client, params.sessionId, text, cancel.signal);
      return { stopReason: cancel.signal.aborted ? "cancelled" : stopReason };
    } catch (err) {
      log("prompt failed", describeError(err));
      await say(client, params.sessionId, describeError(err)).catch(() => {});
      return { stopReason: cancel.signal.aborted ? "cancelled" : "end_turn" };
    } finally {
      signal.removeEventListener("abort", onAbort);
      if (session.cancel === cancel) session.cancel = null;
    }
  })
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    log("session/cancel", params.sessionId);
    sessions.get(params.sessionId)?.cancel?.abort();
  })
  .onRequest(
    "_example.com/echo",
    (p: unknown) => p,
    ({ params }) => params,
  )
  // Throws a plain Error carrying params.message: shows what the SDK puts on the wire for it.
  .onRequest(
    "_example.com/throw",
    (p: unknown) => p,
    ({ params }) => {
      throw new Error(String((params as { message?: unknown } | null)?.message));
    },
  )
  .onNotification(
    "_example.com/note",
    (p: unknown) => p,
    ({ params }) => {
      log("note", params);
    },
  );

if (process.argv.includes("--serve-unadvertised")) {
  app.onRequest(acp.methods.agent.session.load, ({ params }) => {
    log("session/load (not advertised)", params.sessionId);
    return {};
  });
}

const stream = acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
const connection = app.connect(stream);
log("ready");
void connection.closed.then(() => {
  log("connection closed");
  process.exit(0);
});
