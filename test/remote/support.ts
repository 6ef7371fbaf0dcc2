/**
 * Shared pieces of the remote transport tests: an agent with the turns the
 * tests need (chunks, a permission request, a turn that waits for cancel),
 * a client that records what it saw, servers bound to 127.0.0.1 port 0 that
 * are always closed, and raw HTTP helpers. Every wait has a deadline.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";
import { connectClient, protocol, type ClientConnection, type ClientHandler, type SessionNotification, type Transport } from "../../src/index.ts";
import { listen, type Listening, type ListenOptions } from "../../src/remote/node.ts";
import type { RemoteServerOptions } from "../../src/remote/options.ts";
import { createRemoteServer, type RemoteServer } from "../../src/remote/server.ts";
import { until, within } from "../support/async.ts";
import { remoteAgent } from "./agent.ts";

export { until, within };

export { remoteAgent, type AgentProbe } from "./agent.ts";

/** A client handler that records chunk texts and answers permission requests with `choice`. */
export function recordingClient(choice = "allow"): { handler: ClientHandler; chunks: string[]; updates: SessionNotification[]; permissions: number } {
  const seen = { chunks: [] as string[], updates: [] as SessionNotification[], permissions: 0 };
  const handler: ClientHandler = {
    requestPermission: () => {
      seen.permissions++;
      return { outcome: { outcome: "selected", optionId: choice } };
    },
    sessionUpdate: (n) => {
      seen.updates.push(n);
      const u = n.update;
      if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") seen.chunks.push(u.content.text);
    },
  };
  return Object.assign(seen, { handler });
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await within(cleanup(), "cleanup", 10_000);
});

/** Registers a cleanup run after the current test (last registered runs first). */
export function onCleanup(cleanup: () => Promise<void> | void): void {
  cleanups.push(async () => {
    await cleanup();
  });
}

/** A remote server for the test agent (or `options.agent`), listening on 127.0.0.1, port 0; closed after the test. */
export async function startServer(options: Partial<RemoteServerOptions> = {}, listenOptions: ListenOptions = {}): Promise<{ remote: RemoteServer; listening: Listening; url: string }> {
  const remote = createRemoteServer({ protocol, agent: () => remoteAgent(), ...options });
  const listening = await listen(remote, { host: "127.0.0.1", port: 0, ...listenOptions });
  onCleanup(() => listening.close({ graceMs: 0 }));
  return { remote, listening, url: listening.url };
}

/** Connects a client over `transport`, initializes, and closes it after the test. */
export async function connectOver(transport: Transport, handler: ClientHandler): Promise<ClientConnection> {
  const conn = connectClient(handler, transport);
  onCleanup(async () => {
    conn.close();
    await within(conn.closed, "client closed", 5000);
  });
  await within(conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} }), "initialize", 5000);
  return conn;
}

const exampleAgentPath = fileURLToPath(new URL("../../examples/agent.ts", import.meta.url));

/** Starts `examples/agent.ts --listen 127.0.0.1:0 [...extra]`; resolves with the URL it prints on stderr and its exit. */
export async function listeningAgent(extra: string[] = []): Promise<{ url: string; stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, ["--import", "tsx", exampleAgentPath, "--listen", "127.0.0.1:0", ...extra], { stdio: ["ignore", "ignore", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  onCleanup(async () => {
    if (child.exitCode === null) child.kill("SIGKILL");
    await exited;
  });
  let stderr = "";
  const url = await within(
    new Promise<string>((resolve, reject) => {
      child.stderr.setEncoding("utf8").on("data", (d: string) => {
        stderr += d;
        const m = /serving at (\S+)/.exec(stderr);
        if (m) resolve(m[1] as string);
      });
      child.once("exit", () => reject(new Error(`the agent exited: ${stderr}`)));
    }),
    "the agent to listen",
    20_000,
  );
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      return within(exited, "the agent to exit", 10_000);
    },
  };
}
