/**
 * The client side of the flood-into-a-held-handler heap tests (stdio and remote): a client whose
 * `sessionUpdate` handler is held while its agent floods one prompt's updates. Samples the live
 * heap every 100 ms until `state()` says the agent finished or stalled, then releases the
 * handler, awaits the prompt's answer and closes the connection.
 */
import { connectClient, type ConnectionOptions, type Diagnostic, type SessionNotification, type Transport } from "../../src/index.ts";
import { liveBytes } from "./heap.ts";

/** What one run measured; `state` is the agent's last word with its number replaced by N. */
export interface HeldRun {
  readonly maxGrowthMiB: number;
  readonly state: string;
  readonly delivered: number;
  readonly inOrder: boolean;
  readonly stopReason: string;
  /** The connection reported "reading paused" (backpressure). */
  readonly paused: boolean;
}

/** Runs one flood over `transport`; `state()` returns "" while the agent is still writing. */
export async function floodHeldClient(transport: Transport, state: () => string, options: ConnectionOptions = {}): Promise<HeldRun> {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let delivered = 0;
  let inOrder = true;
  const diagnostics: Diagnostic[] = [];
  const conn = connectClient(
    {
      requestPermission: () => ({ outcome: { outcome: "cancelled" } }),
      sessionUpdate: async (n: SessionNotification) => {
        if (n.update.sessionUpdate === "agent_message_chunk" && n.update.content.type === "text" && n.update.content.text !== String(delivered)) inOrder = false;
        delivered++;
        await gate;
      },
    },
    transport,
    {
      ...options,
      onDiagnostic: (d) => {
        diagnostics.push(d);
        options.onDiagnostic?.(d);
      },
    },
  );

  await conn.agent.initialize({ protocolVersion: 1 });
  const { sessionId } = await conn.agent.newSession({ cwd: "/", mcpServers: [] });
  const base = liveBytes();
  const turn = conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "flood" }] });
  let maxGrowth = 0;
  let last = "";
  while (last === "") {
    await sleep(100);
    maxGrowth = Math.max(maxGrowth, liveBytes() - base);
    last = state();
  }
  maxGrowth = Math.max(maxGrowth, liveBytes() - base);
  release();
  const { stopReason } = await turn;
  conn.close();
  await conn.closed;
  return {
    maxGrowthMiB: Math.round((maxGrowth / 2 ** 20) * 10) / 10,
    state: last.replace(/\d+/, "N"),
    delivered,
    inOrder,
    stopReason,
    paused: diagnostics.some((d) => d.kind === "backpressure" && d.message.startsWith("reading paused")),
  };
}
