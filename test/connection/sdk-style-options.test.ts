// The two options that let a connection behave as the official SDK's apps (the SDK drop-in sets
// them): `initializeFirst: false` serves requests before `initialize`; `customMethods: "any"` hands
// methods outside the table to `extMethod` / `extNotification` without a leading `_`. Both default
// to the stricter behaviour, which the other gate tests pin.
import { describe, expect, it } from "vitest";
import { params, testAgent } from "../support/handlers.ts";
import { notification, request } from "../support/messages.ts";
import { rawAgent } from "../support/raw-peer.ts";

describe("initializeFirst: false", () => {
  it("serves a request that comes before initialize, and still answers initialize after it", async () => {
    const agent = testAgent();
    const d = rawAgent(agent.handler, { connection: { initializeFirst: false } });
    d.send(request(1, "session/new", params.newSession()));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { sessionId: "sess-1" } });
    await d.initialize();
    expect(agent.calls).toEqual(["newSession", "initialize"]);
  });

  it("keeps the capability gate: before initialize nothing is advertised, so a capability's rows stay refused", async () => {
    const agent = testAgent({ loadSession: () => ({}) });
    const d = rawAgent(agent.handler, { connection: { initializeFirst: false } });
    d.send(request(1, "session/load", { sessionId: "s", cwd: "/", mcpServers: [] }));
    expect(await d.next()).toMatchObject({ id: 1, error: { code: -32601 } });
    expect(agent.calls).toEqual([]);
  });

  it("is true by default: the same request is answered -32600", async () => {
    const d = rawAgent(testAgent().handler);
    d.send(request(1, "session/new", params.newSession()));
    expect(await d.next()).toMatchObject({ id: 1, error: { code: -32600 } });
  });
});

describe('customMethods: "any"', () => {
  const seen: string[] = [];
  const handler = () =>
    testAgent({
      extMethod: (wire: string, p: unknown) => {
        seen.push(`request ${wire}`);
        return { echoed: p };
      },
      extNotification: (wire: string) => {
        seen.push(`notification ${wire}`);
      },
    } as never).handler;

  it("hands a request and a notification outside the table to extMethod / extNotification without a leading _", async () => {
    seen.length = 0;
    const d = rawAgent(handler(), { connection: { customMethods: "any" } });
    await d.initialize();
    d.send(notification("vendor/ping", { n: 1 }));
    d.send(request(1, "vendor/echo", { n: 2 }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { echoed: { n: 2 } } });
    expect(seen).toEqual(["notification vendor/ping", "request vendor/echo"]);
  });

  it("keeps table methods on their rows", async () => {
    seen.length = 0;
    const d = rawAgent(handler(), { connection: { customMethods: "any" } });
    await d.initialize();
    d.send(request(1, "session/new", params.newSession()));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { sessionId: "sess-1" } });
    expect(seen).toEqual([]);
  });

  it('is "underscore" by default: the same request is answered -32601 and extMethod is not called', async () => {
    seen.length = 0;
    const d = rawAgent(handler());
    await d.initialize();
    d.send(request(1, "vendor/echo", {}));
    expect(await d.next()).toMatchObject({ id: 1, error: { code: -32601 } });
    d.send(request(2, "_vendor/echo", { n: 3 }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 2, result: { echoed: { n: 3 } } });
    expect(seen).toEqual(["request _vendor/echo"]);
  });
});
