// SSE resumption (issue 21 item 8): every event has an id; a stream cut mid-turn is reopened by our
// client with Last-Event-ID and the server replays exactly what was missed, from a bounded buffer;
// past the buffer the client fails with a clear error instead of a silent gap.
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import type { AgentHandler } from "../../src/index.ts";
import { httpClientTransport } from "../../src/remote/http-client.ts";
import { deferred } from "../support/async.ts";
import { connectOver, recordingClient, startServer, until, within } from "./support.ts";

/** An agent whose `steps` turn sends chunks 1–5, waits for `cut`, then sends chunks 6–10 and ends. */
function steppingAgent(probe: { cut: Promise<void>; reached: () => void }): AgentHandler {
  return {
    initialize: () => ({ protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [] }),
    authenticate: () => ({}),
    newSession: () => ({ sessionId: "sess-1" }),
    async prompt(params, ctx) {
      const say = (text: string) => ctx.peer.sessionUpdate({ sessionId: params.sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });
      for (let i = 1; i <= 5; i++) await say(`chunk ${i}`);
      probe.reached();
      await probe.cut;
      for (let i = 6; i <= 10; i++) await say(`chunk ${i}`);
      return { stopReason: "end_turn" };
    },
  };
}

const ALL = Array.from({ length: 10 }, (_, i) => `chunk ${i + 1}`);

describe("SSE resumption", () => {
  it("a stream cut mid-turn (server-side socket destroyed) is resumed with Last-Event-ID: every update once, in order, then the answer", async () => {
    const cut = deferred();
    const reached = deferred();
    const { url, listening, remote } = await startServer({ agent: () => steppingAgent({ cut: cut.promise, reached: reached.resolve }) });
    // The server-side sockets of the event stream GETs, and the Last-Event-ID each GET carried.
    const streams: { socket: Socket; lastEventId: string | undefined }[] = [];
    listening.server.on("request", (req: IncomingMessage) => {
      if (req.method === "GET") streams.push({ socket: req.socket, lastEventId: req.headers["last-event-id"] as string | undefined });
    });
    const client = recordingClient();
    const conn = await connectOver(httpClientTransport(url), client.handler);
    const { sessionId } = await within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new");
    const turn = conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "steps" }] });
    await within(reached.promise, "the first five chunks");
    await until(() => client.chunks.length === 5, "the client to see five chunks");
    expect(streams).toHaveLength(1);
    (streams[0] as { socket: Socket }).socket.destroy();
    await until(() => remote.stats().streams === 0, "the server to see the stream drop");
    // Written while no reader is attached: they wait, and the resumed stream carries them.
    cut.resolve();
    expect((await within(turn, "the prompt's answer")).stopReason).toBe("end_turn");
    expect(client.chunks).toEqual(ALL);
    expect(streams).toHaveLength(2);
    // The connection stream's events before the cut: session/new's answer (id 1) and five chunks (ids 2–6).
    expect(streams[1]?.lastEventId).toBe("6");
    // The connection carries on over the resumed stream.
    expect((await within(conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "steps" }] }), "a second turn")).stopReason).toBe("end_turn");
    expect(client.chunks).toEqual([...ALL, ...ALL]);
  });

  it("a stream the client lost while the server still wrote to it replays what was written after the last event the client got", async () => {
    const cut = deferred();
    const reached = deferred();
    const { url } = await startServer({ agent: () => steppingAgent({ cut: cut.promise, reached: reached.resolve }) });
    const client = recordingClient();
    const cutter = cuttingFetch(3);
    const conn = await connectOver(httpClientTransport(url, { fetch: cutter.fetch }), client.handler);
    const { sessionId } = await within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new");
    const turn = conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "steps" }] });
    await within(reached.promise, "the first five chunks");
    cut.resolve();
    expect((await within(turn, "the prompt's answer")).stopReason).toBe("end_turn");
    expect(client.chunks).toEqual(ALL);
    expect(cutter.resumedWith).toEqual(["3"]);
  });

  it("past the replay buffer the client fails with a clear error, never a gap", async () => {
    const cut = deferred();
    const reached = deferred();
    const { url } = await startServer({ replayBytes: 0, agent: () => steppingAgent({ cut: cut.promise, reached: reached.resolve }) });
    const client = recordingClient();
    const cutter = cuttingFetch(3);
    const conn = await connectOver(httpClientTransport(url, { fetch: cutter.fetch }), client.handler);
    const { sessionId } = await within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new");
    const turn = conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "steps" }] }).catch((e: unknown) => e);
    await within(reached.promise, "the first five chunks");
    const closed = await within(conn.closed, "the connection to fail");
    expect(closed.error?.message).toMatch(/the event stream dropped .* and the event stream was not resumed: HTTP 410 .*events 4 to \d+ of this stream are no longer held \(replayBytes 0\)/);
    expect(await within(turn, "the prompt to settle")).toBeInstanceOf(Error);
    // What arrived before the cut arrived once; nothing after a gap was delivered.
    expect(client.chunks).toEqual(["chunk 1", "chunk 2"]);
    cut.resolve();
  });
});

/**
 * A fetch whose first event stream fails on the client's side after `events` events (the server
 * still has its reader and keeps writing); records the Last-Event-ID of each later GET.
 */
function cuttingFetch(events: number): { fetch: typeof globalThis.fetch; resumedWith: (string | null)[] } {
  const resumedWith: (string | null)[] = [];
  let first = true;
  const cutting: typeof globalThis.fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init);
    const headers = new Headers(init?.headers);
    if (init?.method !== "GET" || !response.body) return response;
    if (!first) {
      resumedWith.push(headers.get("last-event-id"));
      return response;
    }
    first = false;
    const reader = response.body.getReader();
    let text = "";
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        text += decoder.decode(value, { stream: true });
        // Pass whole events up to the `events`-th, then fail as a dropped connection does.
        const parts = text.split("\n\n");
        if (parts.length - 1 >= events) {
          controller.enqueue(encoder.encode(`${parts.slice(0, events).join("\n\n")}\n\n`));
          controller.error(new TypeError("terminated"));
          return;
        }
        text = parts.pop() as string;
        if (parts.length > 0) controller.enqueue(encoder.encode(`${parts.join("\n\n")}\n\n`));
        events -= parts.length;
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return { fetch: cutting, resumedWith };
}
