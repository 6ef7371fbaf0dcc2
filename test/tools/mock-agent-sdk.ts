/**
 * A client built on the official SDK (`@agentclientprotocol/sdk` 2.4.0, v1
 * stable and experimental v2) for the mock-agent tests, over any message
 * stream: a spawned agent's stdio (`ndJsonStream`) or one of our remote
 * client transports (Streamable HTTP, WebSocket) bridged to the SDK's
 * `Stream`. It answers fs from disk, terminals with real processes,
 * elicitation with `{ name: "sdk" }`, permission with the first option.
 */
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import type { AnyMessage } from "@agentclientprotocol/sdk";
import * as acp2 from "@agentclientprotocol/sdk/experimental/v2";
import { httpClientTransport } from "../../src/remote/http-client.ts";
import { nodeWebSocket } from "../../src/remote/node-ws.ts";
import { webSocketClientTransport } from "../../src/remote/ws-client.ts";
import type { Transport } from "../../src/index.ts";
import { startTerminal, type TestTerminal } from "../support/terminal.ts";

export interface MessageStream {
  readonly readable: ReadableStream<AnyMessage>;
  readonly writable: WritableStream<AnyMessage>;
  /** Ends the stream (and the process behind it); resolves with its exit code (0 for a remote stream). */
  close(): Promise<number | null>;
}

/** Spawns `command` and frames its stdio with the SDK's NDJSON stream. */
export function spawnedStream(command: readonly string[]): MessageStream {
  const [file, ...args] = command as [string, ...string[]];
  const child = spawn(file, args, { stdio: ["pipe", "pipe", "pipe"] });
  child.stderr.resume();
  child.stdin.on("error", () => {});
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
  return { ...stream, close: () => (child.stdin.end(), exited) };
}

/** Bridges one of our client transports (NDJSON text in and out) to the SDK's message stream. */
export function remoteStream(url: string): MessageStream {
  const transport: Transport = /^wss?:/.test(url) ? webSocketClientTransport(url, { WebSocket: nodeWebSocket }) : httpClientTransport(url);
  const decoder = new TextDecoder();
  let buffer = "";
  const readable = new ReadableStream<AnyMessage>({
    start(controller) {
      transport.start({
        data(chunk) {
          buffer += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
          for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
            const line = buffer.slice(0, nl).trim();
            buffer = buffer.slice(nl + 1);
            if (line !== "") controller.enqueue(JSON.parse(line) as AnyMessage);
          }
        },
        end: () => controller.close(),
      });
    },
  });
  const writable = new WritableStream<AnyMessage>({ write: (message) => transport.write(`${JSON.stringify(message)}\n`) });
  return { readable, writable, close: () => (transport.close(), Promise.resolve(0)) };
}

/** Counts the `session/update` notifications that arrive, before the SDK validates (and maybe drops) them. */
function tapped(stream: MessageStream): { stream: MessageStream; arrived: () => number } {
  let arrived = 0;
  const readable = stream.readable.pipeThrough(
    new TransformStream<AnyMessage, AnyMessage>({
      transform(message, controller) {
        if ("method" in message && message.method === "session/update") arrived++;
        controller.enqueue(message);
      },
    }),
  );
  return { stream: { ...stream, readable }, arrived: () => arrived };
}

/** What the tests read back from either SDK client. */
export interface SdkMockClient<Update> {
  /** Every `session/update` the SDK delivered to the handler, in order. */
  readonly updates: Update[];
  /** Updates that arrived on the wire but that the SDK dropped (it validates with zod). */
  dropped(): number;
  close(): Promise<number | null>;
}

/** The read-back of an SDK client `connection` over `source`: its agent, the updates delivered, those dropped; `close` runs `before` (terminals to kill), then closes both. */
function readBack<Agent, Update>(connection: { readonly agent: Agent; close(): void }, updates: Update[], arrived: () => number, source: MessageStream, before?: () => void): SdkMockClient<Update> & { readonly agent: Agent } {
  return {
    agent: connection.agent,
    updates,
    dropped: () => arrived() - updates.length,
    async close() {
      before?.();
      connection.close();
      return source.close();
    },
  };
}

type Terminals = Map<string, TestTerminal>;

function terminal(terminals: Terminals, id: string): TestTerminal {
  const t = terminals.get(id);
  if (!t) throw acp.RequestError.resourceNotFound(`terminal:${id}`);
  return t;
}

/** An SDK v1 client over `source`; `agent` is the SDK's ClientContext. */
export function sdkV1Client(source: MessageStream): SdkMockClient<acp.SessionNotification> & { readonly agent: acp.ClientContext } {
  const { stream, arrived } = tapped(source);
  const updates: acp.SessionNotification[] = [];
  const terminals: Terminals = new Map();
  let next = 0;
  const m = acp.methods.client;
  const connection = acp
    .client({ name: "sdk-mock-client" })
    .onNotification(m.session.update, ({ params }) => void updates.push(params))
    .onRequest(m.session.requestPermission, ({ params }) => ({ outcome: { outcome: "selected", optionId: params.options[0]?.optionId ?? "" } }))
    .onRequest(m.fs.readTextFile, async ({ params }) => ({ content: await readFile(params.path, "utf8") }))
    .onRequest(m.fs.writeTextFile, async ({ params }) => (await writeFile(params.path, params.content), {}))
    .onRequest(m.terminal.create, async ({ params }) => {
      const terminalId = `sdk-term-${++next}`;
      terminals.set(terminalId, await startTerminal(params));
      return { terminalId };
    })
    .onRequest(m.terminal.output, ({ params }) => {
      const t = terminal(terminals, params.terminalId);
      return { output: t.output, truncated: t.truncated, exitStatus: t.exitStatus };
    })
    .onRequest(m.terminal.waitForExit, ({ params }) => terminal(terminals, params.terminalId).exited)
    .onRequest(m.terminal.kill, ({ params }) => (terminal(terminals, params.terminalId).proc.kill(), {}))
    .onRequest(m.terminal.release, ({ params }) => {
      terminal(terminals, params.terminalId).proc.kill();
      terminals.delete(params.terminalId);
      return {};
    })
    .onRequest(m.elicitation.create, () => ({ action: "accept", content: { name: "sdk" } }))
    .connect(stream);
  return readBack(connection, updates, arrived, source, () => {
    for (const t of terminals.values()) t.proc.kill();
  });
}

/** An SDK v2 client over `source` (v2 has no fs or terminal methods). */
export function sdkV2Client(source: MessageStream): SdkMockClient<acp2.UpdateSessionNotification> & { readonly agent: acp2.ClientContext } {
  const { stream, arrived } = tapped(source);
  const updates: acp2.UpdateSessionNotification[] = [];
  const m = acp2.methods.client;
  const connection = acp2
    .client({ name: "sdk-mock-client-v2" })
    .onNotification(m.session.update, ({ params }) => void updates.push(params))
    .onRequest(m.session.requestPermission, ({ params }) => ({ outcome: { outcome: "selected", optionId: params.options[0]?.optionId ?? "" } }))
    .onRequest(m.elicitation.create, () => ({ action: "accept", content: { name: "sdk" } }))
    .connect(stream);
  return readBack(connection, updates, arrived, source);
}
