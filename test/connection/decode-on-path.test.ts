// DESIGN §10: the table-driven decode and dispatch are the inbound path itself. A protocol whose
// validator for one row is broken — accepting everything, or rejecting everything — changes what the
// connection answers, so breaking the decode fails connection-level tests, not only codegen tests.
import { describe, expect, it } from "vitest";
import { createAgentConnection, createClientConnection } from "../../src/bind.ts";
import { decode } from "../../src/decode.ts";
import { protocol } from "../../src/index.ts";
import { defineProtocol, type Protocol, type ProtocolTypes } from "../../src/protocol.ts";
import type { Row } from "../../src/row.ts";
import type { Validator } from "../../src/validation/validator.ts";
import { params, testAgent, testClient } from "../support/handlers.ts";
import { request } from "../support/messages.ts";
import { rawDriver } from "../support/raw-peer.ts";

type TypesOfV1 = typeof protocol extends Protocol<infer T> ? T : never;

const acceptAll: Validator = () => true;
const rejectAll: Validator = Object.assign(() => false, { errors: [{ instancePath: "/mutated", schemaPath: "#", keyword: "mutation", params: {}, message: "rejected by the mutated validator" }] });

/** The v1 protocol with `wire`'s params validator (on `side`, for `kind`) replaced by `validator`. */
function mutated(side: "agent" | "client", kind: "request" | "notification", wire: string, validator: Validator): Protocol<TypesOfV1> {
  const swap = (lookup: (w: string) => Row<never, never> | undefined) => {
    const original = lookup(wire);
    const broken = original === undefined ? undefined : { ...original, params: validator };
    return (w: string) => (w === wire ? broken : lookup(w));
  };
  const lookups = protocol.lookup[side];
  const replaced = kind === "request" ? { request: swap(lookups.request), notification: lookups.notification } : { request: lookups.request, notification: swap(lookups.notification) };
  return defineProtocol<TypesOfV1>({ ...protocol, lookup: { ...protocol.lookup, [side]: replaced } });
}

/** A raw client driving an agent connection of `p`, initialized. */
async function agentOf(p: Protocol<TypesOfV1>, agent = testAgent()) {
  const d = rawDriver((t, o) => createAgentConnection(p, agent.handler, t, o));
  d.send(request("init", "initialize", params.initialize()));
  expect(await d.next()).toMatchObject({ id: "init", result: {} });
  return { d, agent };
}

describe("the connection runs the protocol's decode", () => {
  it("answers -32602 with the broken validator's errors to valid session/new params when that validator rejects everything", async () => {
    const { d, agent } = await agentOf(mutated("agent", "request", "session/new", rejectAll));
    d.send(request(1, "session/new", params.newSession()));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Invalid params", data: { errors: [{ path: "/mutated", message: "rejected by the mutated validator" }] } } });
    expect(agent.calls).toEqual(["initialize"]);
  });

  it("lets invalid session/new params reach the handler when that validator accepts everything, and rejects them with the real one", async () => {
    const broken = await agentOf(mutated("agent", "request", "session/new", acceptAll));
    broken.d.send(request(1, "session/new", { cwd: 42 }));
    expect(await broken.d.next()).toMatchObject({ id: 1, result: { sessionId: expect.any(String) } });
    expect(broken.agent.calls).toEqual(["initialize", "newSession"]);

    const real = await agentOf(protocol);
    real.d.send(request(1, "session/new", { cwd: 42 }));
    expect(await real.d.next()).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(real.agent.calls).toEqual(["initialize"]);
  });

  it("drops a notification the broken validator rejects, with the same diagnostic as a real rejection", async () => {
    const client = testClient();
    const d = rawDriver((t, o) => createClientConnection(mutated("client", "notification", "session/update", rejectAll), client.handler, t, o));
    d.send({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } } } });
    d.send(request(9, "_probe", {}));
    // Any answer to the probe means the notification before it was processed (a client not initialized answers -32600).
    expect(await d.next()).toMatchObject({ id: 9, error: { code: -32600 } });
    expect(client.calls).toEqual([]);
    expect(d.diagnostics.filter((x) => x.kind === "invalid_notification")).toEqual([{ kind: "invalid_notification", message: 'dropped "session/update" with invalid params', data: { errors: [{ path: "/mutated", message: "rejected by the mutated validator" }] } }]);
  });

  it("agrees with decode() for the same protocol: what decode rejects the connection answers -32602", async () => {
    const broken = mutated("agent", "request", "session/prompt", rejectAll);
    const valid = { sessionId: "s", prompt: [{ type: "text", text: "hi" }] };
    expect(decode(protocol, "agent", "request", "session/prompt", valid).tag).toBe("ok");
    expect(decode(broken, "agent", "request", "session/prompt", valid)).toMatchObject({ tag: "invalid_params", errors: [{ path: "/mutated" }] });
    const { d } = await agentOf(broken);
    d.send(request(2, "session/prompt", valid));
    expect(await d.next()).toMatchObject({ id: 2, error: { code: -32602, data: { errors: [{ path: "/mutated" }] } } });
  });
});

// Unused-type guard: the mutated protocols are typed as the v1 table.
export type V1Types = TypesOfV1 extends ProtocolTypes ? TypesOfV1 : never;
