// Prototype pollution: method names and keys named `__proto__`, `constructor`, `prototype` (and
// other Object.prototype members) anywhere in a message change no prototype, reach no handler
// as a method, and do not fool the capability gates.
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectAgent, connectClient, RpcError } from "../../src/index.ts";
import type { AgentHandler, ClientHandler } from "../../src/index.ts";
import { agentInbound, allClientCapabilities, clientInbound, countingAgent, countingClient, pathsOf, rawWire, turn, type Calls, type JsonObject } from "./support.ts";

const PROTO_NAMES = ["__proto__", "constructor", "prototype", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "__defineGetter__", "__lookupGetter__"] as const;
/** Those that are not extension names (`_`-prefixed names other than `__proto__` are, by the spec). */
const NOT_EXTENSIONS = PROTO_NAMES.filter((n) => n === "__proto__" || !n.startsWith("_"));

/** What the built-in prototypes look like; compared before and after every test. */
function snapshot(): Record<string, string[]> {
  const names = (o: object) => Reflect.ownKeys(o).map(String).sort();
  return {
    object: names(Object.prototype),
    array: names(Array.prototype),
    function: names(Function.prototype),
    string: names(String.prototype),
    promise: names(Promise.prototype),
    error: names(Error.prototype),
  };
}

function expectNoPollution(before: Record<string, string[]>): void {
  expect(snapshot()).toEqual(before);
  const probe = {} as Record<string, unknown>;
  for (const key of ["polluted", "loadSession", "terminal", "fs", "isAdmin", "n"]) expect(probe[key]).toBeUndefined();
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
}

/** Gives `handler` own spy methods named like Object.prototype members (`__proto__` as an own data property). */
function withProtoSpies<H extends object>(handler: H, calls: Calls): H {
  for (const name of PROTO_NAMES) {
    Object.defineProperty(handler, name, {
      value: () => {
        calls.set(`own ${name}`, (calls.get(`own ${name}`) ?? 0) + 1);
        return {};
      },
      enumerable: true,
      configurable: true,
      writable: true,
    });
  }
  return handler;
}

let before: Record<string, string[]>;
beforeEach(() => {
  before = snapshot();
});
afterEach(() => {
  expectNoPollution(before);
});

/** An initialized agent on a raw wire whose handler has prototype-named spies. */
function spiedAgent(handler: AgentHandler = countingAgent()) {
  const calls = (handler as { calls?: Calls }).calls ?? new Map();
  const wire = rawWire();
  const conn = connectAgent(withProtoSpies(handler, calls), wire.transport);
  wire.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1 } });
  calls.clear();
  wire.take();
  return { wire, conn, calls };
}

async function spiedClient() {
  const calls: Calls = new Map();
  const wire = rawWire();
  const conn = connectClient(withProtoSpies(countingClient(calls), calls), wire.transport);
  const init = conn.agent.initialize({ protocolVersion: 1, clientCapabilities: allClientCapabilities });
  wire.take();
  wire.send({ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1, agentCapabilities: {} } });
  await init;
  return { wire, conn, calls };
}

describe("a method named like an Object.prototype member", () => {
  it.each(NOT_EXTENSIONS)("%s as a request to the agent is answered -32601 and reaches no handler", async (name) => {
    const { wire, calls } = spiedAgent();
    wire.send({ jsonrpc: "2.0", id: 7, method: name, params: {} });
    wire.send({ jsonrpc: "2.0", method: name, params: {} });
    await turn();
    expect(wire.take()).toEqual([{ jsonrpc: "2.0", id: 7, error: { code: -32601, message: "Method not found", data: { method: name } } }]);
    expect([...calls]).toEqual([]);
  });

  it.each(NOT_EXTENSIONS)("%s as a request to the client is answered -32601 and reaches no handler", async (name) => {
    const { wire, calls } = await spiedClient();
    wire.send({ jsonrpc: "2.0", id: "x", method: name, params: { sessionId: "s1" } });
    wire.send({ jsonrpc: "2.0", method: name, params: { sessionId: "s1" } });
    await turn();
    expect(wire.take()).toEqual([{ jsonrpc: "2.0", id: "x", error: { code: -32601, message: "Method not found", data: { method: name } } }]);
    expect([...calls]).toEqual([]);
  });

  it("other `_`-prefixed names, __defineGetter__ included, are extension methods: extMethod gets the wire name as a string, no own method runs", async () => {
    const { wire, calls } = spiedAgent();
    for (const [i, name] of ["__proto__/x", "___proto__", "__defineGetter__", "__lookupGetter__"].entries()) {
      wire.send({ jsonrpc: "2.0", id: i, method: name, params: {} });
      wire.send({ jsonrpc: "2.0", method: name, params: {} });
    }
    await turn();
    expect(wire.take().map((a) => a.result)).toEqual([{ ok: true }, { ok: true }, { ok: true }, { ok: true }]);
    expect([...calls.keys()].filter((k) => k.startsWith("own "))).toEqual([]);
    expect(calls.get("extMethod:__defineGetter__")).toBe(1);
    expect(calls.get("extNotification:__lookupGetter__")).toBe(1);
  });
});

describe("keys named __proto__, constructor and prototype inside messages", () => {
  const evil = '{"polluted":true,"isAdmin":true,"loadSession":true,"terminal":true,"fs":{"readTextFile":true}}';
  const evilKeys = `"__proto__":${evil},"constructor":{"prototype":${evil}},"prototype":${evil}`;

  it("in params, nested _meta and content blocks reach the handler as own data, with Object.prototype as the params' prototype", async () => {
    const seen: unknown[] = [];
    const handler = countingAgent();
    handler.prompt = (params) => {
      seen.push(params);
      return { stopReason: "end_turn" };
    };
    const { wire } = spiedAgent(handler);
    wire.send(`{${evilKeys},"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{${evilKeys},"sessionId":"s1","prompt":[{${evilKeys},"type":"text","text":"hi"}],"_meta":{${evilKeys},"deep":{${evilKeys}}}}}`);
    await turn();
    expect(wire.take()).toEqual([{ jsonrpc: "2.0", id: 3, result: { stopReason: "end_turn" } }]);
    const params = seen[0] as Record<string, unknown>;
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
    expect(Object.hasOwn(params, "__proto__")).toBe(true);
    expect(params.polluted).toBeUndefined();
    const block = (params.prompt as Record<string, unknown>[])[0] as Record<string, unknown>;
    expect(Object.getPrototypeOf(block)).toBe(Object.prototype);
    expect(block.isAdmin).toBeUndefined();
  });

  it("in the client capabilities of initialize do not advertise anything: the agent's gated calls still reject locally", async () => {
    const wire = rawWire();
    const conn = connectAgent(countingAgent(), wire.transport);
    wire.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"__proto__":{"terminal":true,"fs":{"readTextFile":true,"writeTextFile":true}},"fs":{"__proto__":{"readTextFile":true}}}}}`);
    expect(wire.take()[0]?.result).toBeDefined();
    await expect(conn.client.createTerminal({ sessionId: "s1", command: "ls" })).rejects.toMatchObject({ code: -32601 });
    await expect(conn.client.readTextFile({ sessionId: "s1", path: "/etc/passwd" })).rejects.toMatchObject({ code: -32601 });
    expect(wire.take()).toEqual([]);
  });

  it("in the agent capabilities of an initialize result do not advertise anything: the client's gated calls still reject locally", async () => {
    const wire = rawWire();
    const conn = connectClient(countingClient(), wire.transport);
    const init = conn.agent.initialize({ protocolVersion: 1 });
    wire.take();
    wire.send(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"__proto__":{"loadSession":true,"sessionCapabilities":{"list":{}}},"constructor":{"prototype":{"loadSession":true}}}}}`);
    const result = await init;
    expect(Object.getPrototypeOf(result.agentCapabilities)).toBe(Object.prototype);
    await expect(conn.agent.loadSession({ sessionId: "s1", cwd: "/", mcpServers: [] })).rejects.toMatchObject({ code: -32601 });
    await expect(conn.agent.listSessions({})).rejects.toMatchObject({ code: -32601 });
    expect(wire.take()).toEqual([]);
  });

  it("in an agent's own initialize result do not open its inbound capability gates", async () => {
    const handler = countingAgent();
    handler.initialize = () => JSON.parse('{"protocolVersion":1,"agentCapabilities":{"__proto__":{"loadSession":true,"sessionCapabilities":{"list":{}}}}}') as never;
    const wire = rawWire();
    connectAgent(handler, wire.transport);
    wire.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1 } });
    wire.send({ jsonrpc: "2.0", id: 1, method: "session/load", params: { sessionId: "s1", cwd: "/", mcpServers: [] } });
    wire.send({ jsonrpc: "2.0", id: 2, method: "session/list", params: {} });
    expect(wire.take().map((a) => [a.id, a.error?.code])).toEqual([
      [0, undefined],
      [1, -32601],
      [2, -32601],
    ]);
    expect(handler.calls.get("loadSession")).toBeUndefined();
    expect(handler.calls.get("listSessions")).toBeUndefined();
  });

  it("in result objects sent back to our client stay own data of a plain object", async () => {
    const wire = rawWire();
    const conn = connectClient(countingClient(), wire.transport);
    const call = conn.request("_example.com/get", {});
    const [sent] = wire.take();
    wire.send(`{"jsonrpc":"2.0","id":${String(sent?.id)},"result":{${evilKeys},"nested":[{${evilKeys}}]}}`);
    const result = (await call) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.keys(result)).toEqual(["__proto__", "constructor", "prototype", "nested"]);
    expect(result.polluted).toBeUndefined();
    expect(typeof result.constructor).toBe("object"); // own data, not Object
  });

  it("in error objects and their data reach the caller's RpcError without touching prototypes", async () => {
    const wire = rawWire();
    const conn = connectClient(countingClient(), wire.transport);
    const call = conn.request("_example.com/get", {});
    const [sent] = wire.take();
    wire.send(`{"jsonrpc":"2.0","id":${String(sent?.id)},"error":{${evilKeys},"code":-32000,"message":"no","data":{${evilKeys}}}}`);
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe(-32000);
    expect(Object.getPrototypeOf((error as RpcError).data)).toBe(Object.prototype);
  });

  it("in session/update notifications that need repair are repaired without touching prototypes", async () => {
    const updates: unknown[] = [];
    const handler: ClientHandler = { ...countingClient(), sessionUpdate: (p) => void updates.push(p) };
    const wire = rawWire();
    const conn = connectClient(handler, wire.transport);
    const init = conn.agent.initialize({ protocolVersion: 1 });
    wire.take();
    wire.send({ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1, agentCapabilities: {} } });
    await init;
    // `_meta: 5` and `cost: "x"` are lenient locations: repaired (removed), not rejected.
    wire.send(`{"jsonrpc":"2.0","method":"session/update","params":{${evilKeys},"sessionId":"s1","update":{${evilKeys},"sessionUpdate":"usage_update","used":1,"size":2,"cost":"x","_meta":5}}}`);
    await turn();
    expect(updates).toHaveLength(1);
    const update = (updates[0] as { update: Record<string, unknown> }).update;
    expect(Object.hasOwn(update, "cost")).toBe(false);
    expect(Object.hasOwn(update, "_meta")).toBe(false);
    expect(Object.hasOwn(update, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(update)).toBe(Object.prototype);
  });
});

// ── property: dangerous keys injected anywhere ─────────────────────────

const DANGEROUS = ["__proto__", "constructor", "prototype", "polluted", "toString", "hasOwnProperty", "sessionId", "_meta", "isAdmin"];

/** JSON text of a tree whose object keys are drawn from DANGEROUS. */
const dangerousTree: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("true", "1", '"x"', "null", "{}", "[]"),
    fc.array(fc.tuple(fc.constantFrom(...DANGEROUS), tie("node")), { maxLength: 4 }).map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`),
    fc.array(tie("node"), { maxLength: 3 }).map((items) => `[${items.join(",")}]`),
  ),
})).node;

/** Inserts `"key": tree` into the object at the chosen path of `message` (text level, so `__proto__` stays a key). */
function inject(message: JsonObject, pick: number, key: string, tree: string): string {
  const copy = structuredClone(message);
  const objects = [[] as (string | number)[], ...pathsOf(copy)].filter((p) => {
    let node: unknown = copy;
    for (const k of p) node = (node as Record<string | number, unknown>)[k];
    return typeof node === "object" && node !== null && !Array.isArray(node);
  });
  let target: Record<string | number, unknown> = copy;
  for (const k of objects[pick % objects.length] ?? []) target = target[k] as Record<string | number, unknown>;
  target.INJECTION_POINT_7f3a = 0;
  return JSON.stringify(copy).replace('"INJECTION_POINT_7f3a":0', `${JSON.stringify(key)}:${tree}`);
}

describe("dangerous keys injected anywhere in valid messages (property)", () => {
  it("change no prototype and call no prototype-named handler method, on either side", async () => {
    const agent = spiedAgent();
    const client = await spiedClient();
    const injected = (corpus: readonly JsonObject[]) => fc.tuple(fc.nat(corpus.length - 1), fc.nat(), fc.constantFrom(...DANGEROUS), dangerousTree).map(([i, pick, key, tree]) => inject(corpus[i] as JsonObject, pick, key, tree));
    await fc.assert(
      fc.asyncProperty(injected(agentInbound), injected(clientInbound), async (toAgent, toClient) => {
        agent.wire.send(toAgent);
        client.wire.send(toClient);
        await turn();
        agent.wire.take();
        client.wire.take();
        const protoCalls = [...agent.calls.keys(), ...client.calls.keys()].filter((k) => k.startsWith("own "));
        if (protoCalls.length > 0) throw new Error(`prototype-named handler methods were called: ${protoCalls.join(", ")}`);
        expectNoPollution(before);
        return true;
      }),
      { numRuns: 3000 },
    );
    // The connections still serve valid requests afterwards.
    agent.wire.send({ jsonrpc: "2.0", id: "after", method: "session/new", params: { cwd: "/", mcpServers: [] } });
    expect(agent.wire.take()).toEqual([{ jsonrpc: "2.0", id: "after", result: { sessionId: "s1" } }]);
  });
});
