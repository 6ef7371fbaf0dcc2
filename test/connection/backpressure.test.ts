// Notifications queued behind a slow handler are bounded: past maxQueuedNotifications
// the connection pauses its transport, resumes at half, and drops nothing. Tested in memory and
// over real pipes, where a wrapper that dropped pause/resume once let the heap grow (PITFALLS #16).
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { connectClient, memoryPair, type Diagnostic, type SessionNotification, type Transport, type TransportReceiver } from "../../src/index.ts";
import { nodeStreamTransport, spawnAgent } from "../../src/transport/stdio.ts";
import { webStreamTransport } from "../../src/transport/web.ts";
import { runNode } from "../reliability/support.ts";

/** A transport the test feeds by hand, recording pause/resume calls. */
function manualTransport() {
  let receiver: TransportReceiver | undefined;
  const flow: string[] = [];
  const transport: Transport = {
    start: (r) => void (receiver = r),
    write: () => {},
    close: () => {},
    pause: () => void flow.push("pause"),
    resume: () => void flow.push("resume"),
  };
  return { transport, flow, feed: (text: string) => receiver?.data(text) };
}

const update = (sessionId: string, i: number) => JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${i}` } } } });

describe("maxQueuedNotifications", () => {
  it("pauses reading once more notifications wait than the bound, resumes at half, and delivers every one in order", async () => {
    const wire = manualTransport();
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const diagnostics: Diagnostic[] = [];
    connectClient(
      {
        requestPermission: () => ({ outcome: { outcome: "cancelled" } }),
        sessionUpdate: async (n: SessionNotification) => {
          if (n.update.sessionUpdate === "agent_message_chunk" && n.update.content.type === "text") seen.push(n.update.content.text);
          await gate;
        },
      },
      wire.transport,
      { maxQueuedNotifications: 10, onDiagnostic: (d) => void diagnostics.push(d) },
    );
    wire.feed(Array.from({ length: 30 }, (_, i) => update("s", i)).join("\n") + "\n");
    // One handler runs, 29 wait: over the bound of 10, so reading paused once.
    expect(seen).toEqual(["0"]);
    expect(wire.flow).toEqual(["pause"]);
    expect(diagnostics.filter((d) => d.kind === "backpressure").map((d) => d.message)).toEqual(["reading paused: 11 notifications wait for their handlers"]);
    release();
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => `${i}`));
    expect(wire.flow).toEqual(["pause", "resume"]);
  });

  it("holds a memory pair's deliveries while paused and passes them on, end of stream included, after resume", async () => {
    const [a, b] = memoryPair();
    const got: string[] = [];
    let ended = false;
    b.pause?.();
    b.start({ data: (chunk) => void got.push(new TextDecoder().decode(chunk as Uint8Array)), end: () => void (ended = true) });
    a.write("one\n");
    a.close();
    await new Promise((r) => setTimeout(r, 5));
    expect([got, ended]).toEqual([[], false]);
    b.resume?.();
    expect([got, ended]).toEqual([["one\n"], true]);
  });
});

describe("flow control on the real transports", () => {
  it("is offered by the stream transports, the memory pair and spawnAgent's wrapper around nodeStreamTransport", async () => {
    const agent = spawnAgent(process.execPath, ["-e", ""], { stderr: "ignore" });
    const transports: Record<string, Transport> = {
      nodeStreamTransport: nodeStreamTransport(new PassThrough(), new PassThrough()),
      webStreamTransport: webStreamTransport(new ReadableStream(), new WritableStream()),
      memoryPair: memoryPair()[0],
      spawnAgent: agent.transport,
    };
    const offered = Object.entries(transports).map(([name, t]) => [name, typeof t.pause, typeof t.resume]);
    expect(offered).toEqual(Object.keys(transports).map((name) => [name, "function", "function"]));
    await agent.exited;
  });

  // The measuring side runs in a child process with --expose-gc. Before spawnAgent passed
  // pause/resume through, this burst retained about 124 MiB (linear: +40 MiB per 100,000 updates).
  it("keeps a spawnAgent client's heap bounded while 300,000 updates wait for a held handler over real pipes, then delivers all of them in order", async () => {
    const fixture = fileURLToPath(new URL("./fixtures/slow-client-heap.ts", import.meta.url));
    const run = await runNode(["--expose-gc", "--import", "tsx", fixture, "300000"], 60_000);
    expect(run.stderr).toBe("");
    const { maxGrowthMiB, ...rest } = JSON.parse(run.stdout) as { maxGrowthMiB: number; agentState: string; delivered: number; inOrder: boolean; stopReason: string; paused: boolean };
    expect(maxGrowthMiB).toBeLessThan(16);
    // The agent stalled on a full pipe: the client stopped reading instead of buffering.
    expect(rest).toEqual({ agentState: "stalled after N", delivered: 300000, inOrder: true, stopReason: "end_turn", paused: true });
  });
});
