// Fuzzing the inbound side: arbitrary bytes, arbitrary JSON, message-shaped objects, mutated valid
// ACP messages and random chunk boundaries, 10,000 inputs per property. For every input: nothing
// throws, no unhandled rejection, every `request`-classified line gets exactly one answer echoing
// its id, everything else that is answered is answered with `id: null`, and a valid request sent
// afterwards is still served. The expected answers come from the oracle in support.ts, written
// from DESIGN §4.3. fast-check prints the seed and the shrunk input on failure.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectAgent, connectClient } from "../../src/index.ts";
import type { AgentConnection, ClientConnection } from "../../src/index.ts";
import { agentInbound, answerProblem, anyLine, chunked, clientInbound, countingAgent, countingClient, expectText, allClientCapabilities, messageShaped, mutatedFrom, rawWire, rejectionSpy, turn, type Answer, type RawWire } from "./support.ts";

const RUNS = 10_000;
const rejections = rejectionSpy();
beforeAll(() => rejections.install());
afterAll(() => rejections.uninstall());

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const newSession = (id: string) => ({ jsonrpc: "2.0", id, method: "session/new", params: { cwd: "/", mcpServers: [] } });

/** An initialized agent connection on a raw wire. */
function agentOnWire(): { wire: RawWire; conn: AgentConnection } {
  const wire = rawWire();
  const conn = connectAgent(countingAgent(), wire.transport);
  wire.send({ jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: 1 } });
  const [init] = wire.take();
  if (init?.id !== "init" || init.result === undefined) throw new Error(`initialize failed: ${JSON.stringify(init)}`);
  return { wire, conn };
}

/**
 * Feeds one input (already split into chunks), then a probe request, and
 * checks every answer. Returns a problem description or undefined.
 */
async function exercise(wire: RawWire, chunks: readonly (string | Uint8Array)[], inputText: string, probe: (id: string) => object, run: number): Promise<string | undefined> {
  try {
    for (const c of chunks) wire.feed(c);
  } catch (error) {
    return `feeding the input threw: ${String(error)}`;
  }
  await turn();
  const answers = wire.take();
  const problem = answerProblem(answers, expectText(inputText));
  if (problem) return problem;
  const probeId = `\u0001probe-${run}`;
  try {
    wire.send(probe(probeId));
  } catch (error) {
    return `the probe threw: ${String(error)}`;
  }
  await turn();
  const after = wire.take();
  const probeAnswer = after.find((a: Answer) => a.id === probeId);
  if (after.length !== 1 || probeAnswer?.result === undefined) return `the probe was not served: ${JSON.stringify(after)}`;
  if (rejections.seen.length > 0) return `unhandled rejection: ${String(rejections.seen[0])}`;
  return undefined;
}

/** fast-check property body that fails with the problem text (so the report shows it). */
const ok = (problem: string | undefined): boolean => {
  if (problem !== undefined) throw new Error(problem);
  return true;
};

describe("the agent's inbound side, fuzzed over one long-lived connection", () => {
  it("survives arbitrary bytes cut at arbitrary chunk boundaries", async () => {
    const { wire, conn } = agentOnWire();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), fc.array(fc.nat(), { maxLength: 6 }), async (bytes, cuts) => {
        const input = new Uint8Array(bytes.length + 1);
        input.set(bytes);
        input[bytes.length] = 10; // "\n": each input ends its own line
        return ok(await exercise(wire, chunked(input, cuts), decoder.decode(input), newSession, run++));
      }),
      { numRuns: RUNS },
    );
    expect(run).toBeGreaterThanOrEqual(RUNS);
    expect(conn.stats()).toEqual({ pendingOutbound: 0, inFlightInbound: 0, busyLanes: 0, timers: 0, abortListeners: 0 });
  });

  it("survives arbitrary JSON values and message-shaped objects with every field retyped", async () => {
    const { wire, conn } = agentOnWire();
    let run = 0;
    const line = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      messageShaped.map((m) => JSON.stringify(m)),
    );
    await fc.assert(
      fc.asyncProperty(line, async (text) => ok(await exercise(wire, [`${text}\n`], `${text}\n`, newSession, run++))),
      { numRuns: RUNS },
    );
    expect(conn.stats().inFlightInbound).toBe(0);
  });

  it("survives mutated valid messages: fields dropped, retyped, duplicated, deeply nested or huge", async () => {
    const { wire, conn } = agentOnWire();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(mutatedFrom(agentInbound), async (text) => ok(await exercise(wire, [`${text}\n`], `${text}\n`, newSession, run++))),
      { numRuns: RUNS },
    );
    expect(conn.stats().inFlightInbound).toBe(0);
  });
});

describe("the agent's inbound side, fuzzed with a fresh connection per input", () => {
  it("answers batches of mixed lines split at random byte boundaries, initialized or not", async () => {
    let run = 0;
    const input = fc.record({
      lines: fc.array(anyLine(agentInbound), { minLength: 1, maxLength: 12 }),
      crlf: fc.boolean(),
      cuts: fc.array(fc.nat(), { maxLength: 12 }),
      initialized: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(input, async ({ lines, crlf, cuts, initialized }) => {
        const wire = rawWire();
        connectAgent(countingAgent(), wire.transport);
        if (initialized) {
          wire.send({ jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: 1 } });
          wire.take();
        }
        const text = `${lines.join(crlf ? "\r\n" : "\n")}\n`;
        const bytes = encoder.encode(text);
        // `initialize` is valid in any state, so it is the probe here.
        const probe = (id: string) => ({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: 1 } });
        return ok(await exercise(wire, chunked(bytes, cuts), decoder.decode(bytes), probe, run++));
      }),
      { numRuns: RUNS },
    );
    expect(run).toBeGreaterThanOrEqual(RUNS);
  }, 90_000); // the heaviest property here: ~15 s alone, ~30 s on a loaded 2-core machine, so a bound well past the default 30 s
});

describe("the client's inbound side, fuzzed over one connection with outbound calls pending", () => {
  it("answers only requests, settles each pending call at most once, and keeps serving", async () => {
    const wire = rawWire();
    const conn: ClientConnection = connectClient(countingClient(), wire.transport);
    const init = conn.agent.initialize({ protocolVersion: 1, clientCapabilities: allClientCapabilities });
    const [sent] = wire.take();
    wire.send({ jsonrpc: "2.0", id: sent?.id, result: { protocolVersion: 1, agentCapabilities: {} } });
    await init;
    let settled = 0;
    let run = 0;
    const permission = (id: string) => ({ ...(clientInbound[0] as object), id });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          anyLine(clientInbound),
          fc.integer({ min: 0, max: 3 }).map((k) => `{"jsonrpc":"2.0","id":@${k},"result":{"pong":1}}`),
        ),
        fc.boolean(),
        async (template, twice) => {
          // One outbound call per run; the input may answer it (the `@k` ids point at recent calls).
          const call = conn.request("_example.com/ping", {});
          call.then(
            () => settled++,
            () => settled++,
          );
          const outbound = wire.take();
          const ping = outbound[0];
          if (outbound.length !== 1 || ping?.method !== "_example.com/ping" || typeof ping.id !== "number") return ok(`expected the ping request, got ${JSON.stringify(outbound)}`);
          const text = template.replace(/@(\d)/, (_m, k: string) => String(Math.max(0, (ping.id as number) - Number(k))));
          const input = twice ? `${text}\n${text}\n` : `${text}\n`;
          return ok(await exercise(wire, [input], input, permission, run++));
        },
      ),
      { numRuns: RUNS },
    );
    // Calls answered by the fuzzer settled; the others are still pending. Nothing settled twice.
    expect(settled + conn.stats().pendingOutbound).toBe(RUNS);
    conn.close("fuzzing done");
    await turn();
    expect(conn.stats().pendingOutbound).toBe(0);
  });
});

describe("the corpus the mutations start from", () => {
  it("is valid: every request in it is answered with a result and every notification is delivered", async () => {
    const calls = new Map<string, number>();
    const wire = rawWire();
    connectAgent(countingAgent(calls), wire.transport);
    for (const message of agentInbound) wire.send({ ...message, ...(message.id === undefined ? {} : { id: `${String(message.method)}` }) });
    await turn();
    const answers = wire.take();
    const requests = agentInbound.filter((m) => m.method !== undefined && m.id !== undefined);
    const byId = (list: unknown[][]) => list.sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(byId(answers.map((a) => [a.id, a.error]))).toEqual(byId(requests.map((m) => [m.method, undefined])));
    expect(calls.get("extNotification:_example.com/note")).toBe(1);

    const clientCalls = new Map<string, number>();
    const cwire = rawWire();
    const conn = connectClient(countingClient(clientCalls), cwire.transport);
    const init = conn.agent.initialize({ protocolVersion: 1, clientCapabilities: allClientCapabilities });
    cwire.take();
    cwire.send({ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1, agentCapabilities: {} } });
    await init;
    for (const message of clientInbound) cwire.send({ ...message, ...(message.method === undefined || message.id === undefined ? {} : { id: `${String(message.method)}` }) });
    await turn();
    const clientRequests = clientInbound.filter((m) => m.method !== undefined && m.id !== undefined);
    expect(byId(cwire.take().map((a) => [a.id, a.error]))).toEqual(byId(clientRequests.map((m) => [m.method, undefined])));
    expect(clientCalls.get("sessionUpdate")).toBe(4);
  });
});

describe("what handlers receive", () => {
  it("never get a content block or a session update that is not an object", async () => {
    const blocks: unknown[] = [];
    const handler = countingAgent();
    handler.prompt = (params) => {
      blocks.push(...params.prompt);
      return { stopReason: "end_turn" };
    };
    const wire = rawWire();
    connectAgent(handler, wire.transport);
    wire.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1 } });
    wire.send({ jsonrpc: "2.0", id: 1, method: "session/prompt", params: { sessionId: "s1", prompt: [null, 1, "text", []] } });
    await turn();
    expect(blocks).toEqual([]);
    expect(wire.take().at(-1)).toMatchObject({ id: 1, error: { code: -32602 } });

    const updates: unknown[] = [];
    const cwire = rawWire();
    const conn = connectClient({ ...countingClient(), sessionUpdate: (p) => void updates.push(p.update) }, cwire.transport);
    const init = conn.agent.initialize({ protocolVersion: 1 });
    cwire.send({ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1, agentCapabilities: {} } });
    await init;
    cwire.send({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: null } });
    await turn();
    expect(updates).toEqual([]);
  });
});
