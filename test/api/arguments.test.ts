// Wrong arguments fail at the call: every public entry that takes a protocol, a handler, a
// transport or options throws a TypeError naming the function, what it got and what to pass —
// never a TypeError from deep inside the connection, never an unhandled rejection, and nothing
// half-started (no transport read, no server state, no timers).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as v1 from "../../src/index.ts";
import { createRemoteServer } from "../../src/remote/server.ts";
import { listen } from "../../src/remote/node.ts";
import * as stdio from "../../src/transport/stdio.ts";
import type { Transport } from "../../src/transport/transport.ts";
import * as unstable from "../../src/unstable/index.ts";
import * as v2 from "../../src/v2/index.ts";
import { negotiateClient, routeAgent } from "../../src/versions/index.ts";
import { testAgent, testClient } from "../support/handlers.ts";

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeAll(() => void process.on("unhandledRejection", onUnhandled));
afterAll(async () => {
  // Give any stray promise a few turns to reject before checking.
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  process.off("unhandledRejection", onUnhandled);
  expect(unhandled).toEqual([]);
});

const v2Agent: v2.AgentHandler = {
  initialize: () => ({ protocolVersion: 2, info: { name: "a", version: "1" }, capabilities: { session: {} } }),
  newSession: () => ({ sessionId: "s" }),
  prompt: () => ({ messageId: "m" }),
};

/** A transport that fails the test if anything starts reading or writing it. */
function untouched(): Transport & { readonly touched: () => boolean } {
  let touched = false;
  return {
    start: () => void (touched = true),
    write: () => void (touched = true),
    close: () => void (touched = true),
    touched: () => touched,
  };
}

/** Calls `fn` and returns the TypeError it throws synchronously (failing when it returns or throws another kind). */
function thrown(fn: () => unknown): TypeError {
  let result: unknown;
  try {
    result = fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return error as TypeError;
  }
  if (result instanceof Promise) result.catch(() => {});
  throw new Error(`expected a synchronous TypeError, got ${result instanceof Promise ? "a promise" : String(result)}`);
}

describe("connectAgent / connectClient", () => {
  it("connectAgent(undefined) names the function, the parameter and what was given", () => {
    const error = thrown(() => v1.connectAgent(undefined as never, untouched()));
    expect(error.message).toBe("connectAgent(handler, transport, options?): handler must be an object implementing the agent's methods (AgentHandler); got undefined. Pass your AgentHandler, e.g. { initialize, newSession, prompt }.");
  });

  it("connectClient(undefined) on every table entry", () => {
    for (const entry of [v1, v2, unstable]) {
      expect(thrown(() => entry.connectClient(undefined as never, untouched())).message).toMatch(/^connectClient\(handler, transport, options\?\): handler must be .*ClientHandler.*; got undefined\./);
    }
  });

  it("a missing transport, a protocol in the handler's place, options that are not an object", () => {
    expect(thrown(() => v1.connectAgent(testAgent().handler, undefined as never)).message).toMatch(/^connectAgent\(handler, transport, options\?\): transport must be a Transport .*; got undefined\. Pass one from memoryPair\(\)/);
    const transport = untouched();
    expect(thrown(() => v2.connectAgent(v2.protocol as never, transport)).message).toMatch(/handler must be .*; got the v2 protocol \(version 2\)\. A protocol goes in the protocol parameter\./);
    expect(thrown(() => v1.connectAgent(testAgent().handler, transport, "strict" as never)).message).toMatch(/options must be an options object or undefined; got a string "strict"\./);
    expect(transport.touched()).toBe(false);
  });
});

describe("serveStdio: one name, one signature", () => {
  it("acp-router/stdio has no serveStdio; its serveProtocolStdio(handler) says to pass a protocol or use the entry's one-liner", () => {
    expect("serveStdio" in stdio).toBe(false);
    const error = thrown(() => stdio.serveProtocolStdio(testAgent().handler as never, undefined as never));
    expect(error.message).toMatch(/^serveProtocolStdio\(protocol, handler, options\?\): protocol must be a protocol; got an object with keys initialize, .*\. Pass a table's `protocol` first .* or call the one-liner `serveStdio\(handler\)` of that table's entry/);
  });

  it("every table entry's serveStdio takes (handler, options?) and says so when given a protocol", () => {
    for (const [entry, name] of [
      [v1, '"acp-router"'],
      [v2, '"acp-router/v2"'],
      [unstable, '"acp-router/unstable"'],
    ] as const) {
      const error = thrown(() => entry.serveStdio(entry.protocol as never));
      expect(error.message).toContain(`serveStdio(handler, options?) of ${name}: handler must be an object implementing the agent's methods (AgentHandler); got the ${entry.protocol.name} protocol`);
      expect(error.message).toContain("takes no protocol");
      expect(thrown(() => entry.serveStdio(undefined as never)).message).toContain("got undefined.");
    }
  });
});

describe("spawnAgent", () => {
  it("checks its command, args and options before starting anything", () => {
    expect(thrown(() => stdio.spawnAgent(undefined as never)).message).toBe('spawnAgent(command, args?, options?): command must be a non-empty string (the program to run); got undefined. e.g. spawnAgent("npx", ["my-agent", "--acp"]).');
    expect(thrown(() => stdio.spawnAgent("node", "--version" as never)).message).toMatch(/args must be an array of strings; got a string "--version"\./);
    expect(thrown(() => stdio.spawnAgent("node", [], 5 as never)).message).toMatch(/options must be an options object or undefined; got number 5\./);
  });
});

describe("createRemoteServer and the Node adapters", () => {
  it("createRemoteServer({ agent }) without a protocol throws at the call, naming what to pass", () => {
    const error = thrown(() => createRemoteServer({ agent: testAgent().handler } as never));
    expect(error.message).toBe('createRemoteServer({ protocol, agent, connection?, … }): options.protocol must be a protocol; got undefined. Pass the table every connection speaks: createRemoteServer({ protocol, agent }) with `import { protocol } from "acp-router"` (v1) or "acp-router/v2".');
  });

  it("rejects no options, a missing agent and connection options that are not an object", () => {
    expect(thrown(() => createRemoteServer(undefined as never)).message).toMatch(/^createRemoteServer\(.*\): options must be an object \{ protocol, agent, … \}; got undefined\./);
    expect(thrown(() => createRemoteServer({ protocol: v1.protocol } as never)).message).toMatch(/options\.agent must be .*AgentHandler.*; got undefined\. Pass your AgentHandler, or a function \(info\) => AgentHandler/);
    expect(thrown(() => createRemoteServer({ protocol: v1.protocol, agent: testAgent().handler, connection: 5 as never })).message).toMatch(/options\.connection must be an options object or undefined; got number 5\./);
  });

  it("listen(options) instead of listen(createRemoteServer(options)) rejects with the same kind of message", async () => {
    await expect(listen({ protocol: v1.protocol, agent: testAgent().handler } as never)).rejects.toThrow(/^listen\(remote, options\?\): remote must be a RemoteServer; got an object with keys protocol, agent\. Pass what createRemoteServer/);
  });
});

describe("routeAgent / negotiateClient", () => {
  it("a v1 protocol under v2 (a v1 protocol with a v2 handler) is refused at the call; the transport is never read", () => {
    const transport = untouched();
    const error = thrown(() => routeAgent(transport, { v2: { protocol: v1.protocol, handler: v2Agent } } as never));
    expect(error.message).toMatch(
      /^routeAgent\(transport, \{ v1\?: \{ protocol, handler \}, v2\?: \{ protocol, handler \} \}, options\?\): routes\.v2\.protocol must be a protocol of version 2; got the v1 protocol \(version 1\)\. Pass the `protocol` value from "acp-router\/v2" \(or "acp-router\/v2\/unstable"\), or put this one under v1\.$/,
    );
    expect(transport.touched()).toBe(false);
  });

  it("a connect factory, a non-protocol, no route at all", () => {
    const transport = untouched();
    expect(thrown(() => routeAgent(transport, { v1: ((t: Transport) => v1.connectAgent(testAgent().handler, t)) as never })).message).toMatch(
      /routes\.v1 must be \{ protocol, handler \}; got a function \(v1\)\. Pass the version's `protocol` value from "acp-router" .*\(a connect function is no longer taken/,
    );
    expect(thrown(() => routeAgent(transport, { v1: { protocol: { version: 1 }, handler: testAgent().handler } } as never)).message).toMatch(/routes\.v1\.protocol must be a protocol; got an object with keys version\./);
    expect(thrown(() => routeAgent(transport, {})).message).toMatch(/routes must be an object with v1, v2 or both; got an object with no keys\./);
    expect(thrown(() => routeAgent(transport, { v1: { protocol: v1.protocol, handler: undefined as never } })).message).toMatch(/routes\.v1\.handler must be .*AgentHandler.*; got undefined\./);
    expect(thrown(() => routeAgent(transport, { v3: { protocol: v2.protocol, handler: v2Agent } } as never)).message).toMatch(/routes\.v3 must be absent: only v1 and v2 are routed/);
    expect(transport.touched()).toBe(false);
  });

  it("negotiateClient throws (does not reject) for a v2 protocol under v1, a missing initialize, a non-transport", () => {
    const transport = untouched();
    expect(thrown(() => negotiateClient(transport, { v1: { protocol: v2.protocol, handler: testClient().handler, initialize: { protocolVersion: 1, clientCapabilities: {} } } } as never)).message).toMatch(
      /^negotiateClient\(.*\): versions\.v1\.protocol must be a protocol of version 1; got the v2 protocol \(version 2\)\./,
    );
    expect(thrown(() => negotiateClient(transport, { v1: { protocol: v1.protocol, handler: testClient().handler, initialize: undefined as never } })).message).toMatch(
      /versions\.v1\.initialize must be the initialize params of that version; got undefined\. e\.g\. \{ protocolVersion: 1, clientCapabilities: \{\} \}\./,
    );
    expect(thrown(() => negotiateClient(transport, { v1: { protocol: v1.protocol, handler: testClient().handler, initialize: { protocolVersion: 1, clientCapabilities: {} } } }, { reconnect: transport as never })).message).toMatch(
      /options\.reconnect must be a function returning a new Transport .*; got an object with keys start, write, close, touched\./,
    );
    expect(thrown(() => negotiateClient(undefined as never, { v1: { protocol: v1.protocol, handler: testClient().handler, initialize: { protocolVersion: 1, clientCapabilities: {} } } })).message).toMatch(/^negotiateClient\(.*\): transport must be a Transport/);
    expect(transport.touched()).toBe(false);
  });
});

describe("defineExtension", () => {
  it("is exported by every table entry and checks its spec in the same format", () => {
    for (const entry of [v1, v2, unstable]) {
      expect(typeof entry.defineExtension).toBe("function");
      expect(thrown(() => entry.defineExtension(undefined as never)).message).toMatch(/^defineExtension\(spec\): spec must be an object \{ wire, params, result\?, capability\? \}; got undefined\./);
    }
  });
});
