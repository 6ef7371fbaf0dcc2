/**
 * A client on acp-router driving an agent command over real stdio, for the
 * figures that put a process between a client and an agent (8: inspect,
 * 15: a proxy chain): one session, `prompt()` is one `"ping"` round trip.
 */
import { tmpdir } from "node:os";
import { connectClient, type ClientConnection } from "../../src/index.ts";
import { spawnAgent } from "../../src/transport/stdio.ts";

export interface ProcessClient {
  readonly prompt: () => Promise<unknown>;
  /** Prompts sent so far. */
  readonly sent: () => number;
  readonly close: () => Promise<unknown>;
}

/** Spawns `command`, initializes and opens a session. */
export async function openProcessClient(command: readonly string[]): Promise<ProcessClient> {
  const [file, ...args] = command as [string, ...string[]];
  const child = spawnAgent(file, args, { stderr: "inherit" });
  const conn: ClientConnection = connectClient({ requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => undefined }, child.transport);
  await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await conn.agent.newSession({ cwd: tmpdir(), mcpServers: [] });
  let sent = 0;
  return {
    prompt: () => {
      sent++;
      return conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "ping" }] });
    },
    sent: () => sent,
    close: async () => {
      conn.close("bench done");
      return child.exited;
    },
  };
}
