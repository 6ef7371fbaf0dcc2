// Flow control on the server's connection transports (PITFALLS #16): a client floods extension
// notifications at an agent whose handler is held. Past maxQueuedNotifications the connection
// pauses its transport: over Streamable HTTP the next POST is not answered (the flooding client
// stops), over WebSocket the socket stops being read (the client's sends back up in TCP). After the
// handler is released every notification arrives, in order. Client-side flow control is in
// flow-client.test.ts.
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import type { AgentHandler, Diagnostic } from "../../src/index.ts";
import { deferred } from "../support/async.ts";
import { INIT, initialize } from "./raw.ts";
import { onCleanup, remoteAgent, startServer, until, within } from "./support.ts";

/** The tests' agent plus an extension-notification handler that records `params.i` and waits for `gate`. */
function heldAgent(gate: Promise<void>, seen: number[]): AgentHandler {
  return Object.assign(remoteAgent(), {
    extNotification: async (_method: string, params: Record<string, unknown>) => {
      seen.push(params.i as number);
      await gate;
    },
  });
}

const note = (i: number, pad = "") => JSON.stringify({ jsonrpc: "2.0", method: "_flood/note", params: { i, pad } });
const backpressure = (diagnostics: Diagnostic[]) => diagnostics.filter((d) => d.kind === "backpressure").map((d) => d.message.replace(/\d+/, "N"));
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe("server-side flow control", () => {
  it("over Streamable HTTP holds the POSTs past the bound unanswered, then delivers all of them in order", async () => {
    const gate = deferred<void>();
    const seen: number[] = [];
    const diagnostics: Diagnostic[] = [];
    const { url } = await startServer({ agent: heldAgent(gate.promise, seen), connection: { maxQueuedNotifications: 10, onDiagnostic: (d) => void diagnostics.push(d) } });
    const id = await initialize(url);
    const COUNT = 200;
    let answered = 0;
    let state = "";
    const flood = (async () => {
      for (let i = 0; i < COUNT; i++) {
        // One POST at a time, as our client sends a lane's messages; "stalled" once one waited 300 ms.
        const timer = setTimeout(() => (state ||= "stalled"), 300);
        const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", "acp-connection-id": id }, body: note(i) });
        clearTimeout(timer);
        if (res.status !== 202) throw new Error(`HTTP ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
        answered++;
      }
      state ||= "all answered";
    })();
    flood.catch(() => {}); // awaited below; a failed assertion before that must not leave it unhandled
    await until(() => state !== "", "the flood to stall or finish", 20_000);
    // One notification in its handler, eleven waiting (over the bound of 10), the thirteenth POST held.
    expect({ state, answered, seen: seen.length, flow: backpressure(diagnostics) }).toEqual({ state: "stalled", answered: 12, seen: 1, flow: ["reading paused: N notifications wait for their handlers"] });
    gate.resolve();
    await within(flood, "the rest of the flood", 20_000);
    await until(() => seen.length === COUNT, "every notification", 20_000);
    expect(seen).toEqual(range(COUNT));
    expect(backpressure(diagnostics)).toEqual(["reading paused: N notifications wait for their handlers", "reading resumed: N notifications wait"]);
  });

  it("over WebSocket stops reading the socket, so the client's sends back up, then delivers all of them in order", async () => {
    const gate = deferred<void>();
    const seen: number[] = [];
    const diagnostics: Diagnostic[] = [];
    const { url } = await startServer({ agent: heldAgent(gate.promise, seen), connection: { maxQueuedNotifications: 10, onDiagnostic: (d) => void diagnostics.push(d) } });
    const ws = new WebSocket(url.replace(/^http/, "ws"));
    onCleanup(() => ws.terminate());
    const first = new Promise<string>((resolve, reject) => ws.once("message", (data) => resolve(String(data))).once("error", reject));
    await within(new Promise((resolve) => ws.once("open", resolve)), "open");
    ws.send(JSON.stringify(INIT));
    expect(JSON.parse(await within(first, "initialize answer"))).toMatchObject({ id: 0, result: { protocolVersion: 1 } });
    // 100,000 frames of about 600 bytes (60 MB): far more than socket buffers hold.
    const COUNT = 100_000;
    const pad = "x".repeat(560);
    let sent = 0;
    let state = "";
    const flood = (async () => {
      while (sent < COUNT) {
        // Up to 500 frames, then wait until the socket took them; "stalled" once a wait took 300 ms.
        const last = Math.min(COUNT, sent + 500);
        while (sent < last - 1) ws.send(note(sent++, pad));
        const timer = setTimeout(() => (state ||= "stalled"), 300);
        await new Promise<void>((resolve, reject) => ws.send(note(sent++, pad), (error) => (error ? reject(error) : resolve())));
        clearTimeout(timer);
      }
      state ||= "all sent";
    })();
    flood.catch(() => {}); // awaited below
    await until(() => state !== "", "the flood to stall or finish", 30_000);
    expect({ state, seen: seen.length, flow: backpressure(diagnostics) }).toEqual({ state: "stalled", seen: 1, flow: ["reading paused: N notifications wait for their handlers"] });
    // What the server took before it stopped reading: socket buffers' worth, not the flood.
    expect(sent).toBeLessThan(COUNT / 4);
    gate.resolve();
    await within(flood, "the rest of the flood", 60_000);
    await until(() => seen.length === COUNT, "every notification", 60_000);
    expect(seen.every((i, k) => i === k)).toBe(true);
    expect(backpressure(diagnostics).slice(0, 2)).toEqual(["reading paused: N notifications wait for their handlers", "reading resumed: N notifications wait"]);
  });
});
