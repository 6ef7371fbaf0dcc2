// A table that extends another (tables/proxy.ts extends tables/v1-unstable.ts): codegen prints
// only the delta, and the runtime's extendProtocol lays it over the base folder's values.
import { describe, expect, it } from "vitest";
import { tableDelta } from "../../codegen/extension-delta.ts";
import { generate } from "../../codegen/generate.ts";
import { methods as stableRows } from "../../method-table.ts";
import { realSchema } from "./support.ts";
import type { MethodRow } from "../../method-table.ts";
import { protocol as proxy, agentProtocol as proxyAgent } from "../../src/proxy/generated/index.ts";
import { protocol as unstable, agentProtocol as unstableAgent } from "../../src/unstable/generated/index.ts";
import { methods as proxyRows, proxyMethods } from "../../tables/proxy.ts";
import { methods as unstableRows } from "../../tables/v1-unstable.ts";

const row = (wire: string, extra: Partial<MethodRow> = {}): MethodRow => ({ wire, side: "agent", kind: "request", callback: wire.replace("/", "_"), params: "P", result: "R", layer: "app", ...extra });

describe("the delta of a table that extends another", () => {
  it("is the rows it adds and the base rows whose columns it changes, in table order", () => {
    const base = [row("a/x"), row("a/y")];
    const { delta, added, changed } = tableDelta([row("a/x", { optional: true }), row("a/y"), row("a/z")], base);
    expect(delta.map((r) => r.wire)).toEqual(["a/x", "a/z"]);
    expect(added.map((r) => r.wire)).toEqual(["a/z"]);
    expect(changed.map((r) => r.wire)).toEqual(["a/x"]);
  });

  it("refuses to drop a base row or to change its callback or types", () => {
    expect(() => tableDelta([row("a/x")], [row("a/x"), row("a/y")])).toThrow(/drops the base row agent request a\/y/);
    expect(() => tableDelta([row("a/x", { params: "Q" })], [row("a/x")])).toThrow(/changes params of the base row agent request a\/x/);
  });

  it("of the proxy table is its two proxy methods (five rows) and the initialize it answers only if it chooses", () => {
    const { added, changed } = tableDelta(proxyRows, unstableRows);
    expect(added).toEqual([...proxyMethods]);
    expect(changed.map((r) => [r.wire, r.lifecycle, r.optional])).toEqual([["initialize", undefined, true]]);
  });
});

describe("the proxy protocol, laid over the unstable one", () => {
  it("has its own name", () => {
    expect([proxy.name, proxyAgent.name, unstable.name]).toEqual(["v1-proxy", "v1-proxy", "v1-unstable"]);
  });

  it("has the unstable rows in their order, initialize replaced in place, then its own", () => {
    for (const side of ["agent", "client"] as const) {
      const wires = proxy.rows[side].map((r) => `${r.kind} ${r.wire}`);
      const base = unstable.rows[side].map((r) => `${r.kind} ${r.wire}`);
      expect(wires.slice(0, base.length)).toEqual(base);
      expect(wires.slice(base.length)).toEqual(proxyMethods.filter((r) => r.side === side).map((r) => `${r.kind} ${r.wire}`));
    }
    const init = proxy.inboundRow("agent", "request", "initialize");
    expect(init?.lifecycle).toBeUndefined();
    expect(unstable.inboundRow("agent", "request", "initialize")?.lifecycle).toBe("initialize");
  });

  it("finds the base's rows (the same objects) and its own, and nothing for a prototype key", () => {
    expect(proxyAgent.inboundRow("agent", "request", "session/prompt")).toBe(unstableAgent.inboundRow("agent", "request", "session/prompt"));
    expect(proxy.inboundRow("agent", "request", "proxy/successor")?.callback).toBe("fromSuccessor");
    expect(proxy.inboundRow("agent", "notification", "proxy/successor")?.callback).toBe("fromSuccessorNotification");
    expect(proxy.resultMarker("client", "proxy/successor")?.resultType).toBe("ProxySuccessorResponse");
    for (const wire of ["__proto__", "constructor", "toString"]) expect(proxy.inboundRow("agent", "request", wire)).toBeUndefined();
  });

  it("has the base's leniency graph and its own nodes", () => {
    for (const [name, node] of Object.entries(unstable.leniency)) expect(proxy.leniency[name], name).toEqual(node);
    expect(
      Object.keys(proxy.leniency)
        .filter((n) => !(n in unstable.leniency))
        .sort(),
    ).toEqual(["InitializeProxyRequest", "InitializeProxyResponse", "ProxySuccessorNotification", "ProxySuccessorRequest"]);
  });
});

describe("a user's table that extends the stable table (acp-router codegen --base)", () => {
  const extra: MethodRow = { wire: "_mine/ping", side: "agent", kind: "request", callback: "minePing", params: "NewSessionRequest", result: "NewSessionResponse", layer: "app", extension: true };

  it("generates every file, each printing only the delta and importing the rest from the base folder", async () => {
    const files = await generate([...stableRows, extra], realSchema().schema, { base: { rows: stableRows, folder: "../base" }, protocol: { version: 1, name: "v1-mine" } });
    expect([...files.keys()].sort()).toEqual(["agent.ts", "client.ts", "errors.ts", "handlers.ts", "index.ts", "leniency.ts", "peers.ts", "protocol.ts", "router.ts", "routes.ts", "types.ts", "validators.ts"]);
    expect(files.get("types.ts")).toContain('export type * from "../base/types.js";');
    expect(files.get("validators.ts")).not.toContain("errorKinds"); // no new type: nothing compiled
    expect(files.get("routes.ts")).toContain("export const A__mine_ping: Route = {");
    expect(files.get("routes.ts")).not.toContain("A_session_prompt");
    expect(files.get("agent.ts")).toContain('import { agentProtocol as base, createClientPeer as baseClientPeer } from "../base/agent.js";');
    expect(files.get("protocol.ts")).toContain('name: "v1-mine",');
    expect(files.get("handlers.ts")).toContain('export interface AgentHandler extends WithContext<Omit<B.AgentHandler, "extMethod" | "extNotification">, AgentContext> {');
  });
});
