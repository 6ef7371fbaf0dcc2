/**
 * Small helpers shared by the conformance tests (test/conformance/*.test.ts).
 * The drivers themselves come from test/support: `rawAgent`, `rawClient`,
 * `initializedRawClient`, `connectPair`, `testAgent`, `testClient`.
 */
import { PassThrough } from "node:stream";
import { webStreamTransport, type Transport } from "../../src/index.ts";
import { nodeStreamTransport } from "../../src/transport/stdio.ts";

export { notification, request, rpcError } from "../support/messages.ts";

/** `data.reason` of an error (capability gates name the capability there). */
export function reasonOf(error: { readonly data?: unknown } | undefined): string {
  const data = error?.data as { reason?: unknown } | undefined;
  return typeof data?.reason === "string" ? data.reason : "";
}

/**
 * A transport under test over real byte streams, with the test holding the
 * other ends: `feed` writes raw bytes to the connection, `output()` is every
 * byte the connection wrote so far.
 */
export interface BytePipe {
  readonly transport: Transport;
  feed(bytes: Uint8Array): Promise<void>;
  output(): Uint8Array;
}

export type ByteTransportKind = "nodeStreamTransport" | "webStreamTransport";

export function bytePipe(kind: ByteTransportKind): BytePipe {
  const written: Uint8Array[] = [];
  const output = () => {
    const total = written.reduce((n, c) => n + c.length, 0);
    const all = new Uint8Array(total);
    let at = 0;
    for (const c of written) {
      all.set(c, at);
      at += c.length;
    }
    return all;
  };
  if (kind === "nodeStreamTransport") {
    const input = new PassThrough();
    const out = new PassThrough();
    out.on("data", (chunk: Buffer) => written.push(new Uint8Array(chunk)));
    return {
      transport: nodeStreamTransport(input, out),
      feed: (bytes) => new Promise((resolve) => input.write(Buffer.from(bytes), () => resolve())),
      output,
    };
  }
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const readable = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  const writable = new WritableStream<Uint8Array>({
    write(chunk) {
      written.push(chunk);
    },
  });
  return {
    transport: webStreamTransport(readable, writable),
    feed: async (bytes) => {
      controller.enqueue(bytes);
      await new Promise((resolve) => setImmediate(resolve));
    },
    output,
  };
}

/** Valid params for every capability-gated method the agent handles, and where its capability lives. */
export const agentGated = {
  "session/load": { params: { sessionId: "s", cwd: "/work", mcpServers: [] }, capability: "loadSession" },
  "session/list": { params: {}, capability: "sessionCapabilities.list" },
  "session/delete": { params: { sessionId: "s" }, capability: "sessionCapabilities.delete" },
  "session/resume": { params: { sessionId: "s", cwd: "/work" }, capability: "sessionCapabilities.resume" },
  "session/close": { params: { sessionId: "s" }, capability: "sessionCapabilities.close" },
  logout: { params: {}, capability: "auth.logout" },
} as const;

export type AgentGatedWire = keyof typeof agentGated;

/** Valid params for every capability-gated request the client handles, and where its capability lives. */
export const clientGated = {
  "fs/read_text_file": { params: { sessionId: "s", path: "/project/a.txt" }, capability: "fs.readTextFile" },
  "fs/write_text_file": { params: { sessionId: "s", path: "/project/a.txt", content: "x" }, capability: "fs.writeTextFile" },
  "terminal/create": { params: { sessionId: "s", command: "ls" }, capability: "terminal" },
  "terminal/output": { params: { sessionId: "s", terminalId: "t" }, capability: "terminal" },
  "terminal/release": { params: { sessionId: "s", terminalId: "t" }, capability: "terminal" },
  "terminal/wait_for_exit": { params: { sessionId: "s", terminalId: "t" }, capability: "terminal" },
  "terminal/kill": { params: { sessionId: "s", terminalId: "t" }, capability: "terminal" },
  "elicitation/create": { params: { sessionId: "s", mode: "form", message: "Name?", requestedSchema: { type: "object", properties: {} } }, capability: "elicitation" },
} as const;

export type ClientGatedWire = keyof typeof clientGated;

/** Agent handler methods for every optional (gated) row, each answering a small valid result. */
export const allAgentMethods = {
  loadSession: () => ({}),
  listSessions: () => ({ sessions: [] }),
  deleteSession: () => ({}),
  resumeSession: () => ({}),
  closeSession: () => ({}),
  logout: () => ({}),
};

/** Client handler methods for every optional (gated) row, each answering a small valid result. */
export const allClientMethods = {
  readTextFile: () => ({ content: "" }),
  writeTextFile: () => ({}),
  createTerminal: () => ({ terminalId: "t" }),
  terminalOutput: () => ({ output: "", truncated: false }),
  releaseTerminal: () => ({}),
  waitForTerminalExit: () => ({ exitCode: 0 }),
  killTerminal: () => ({}),
  createElicitation: () => ({ action: "decline" as const }),
  completeElicitation: () => undefined,
};
