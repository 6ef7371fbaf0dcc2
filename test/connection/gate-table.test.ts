// DESIGN §11 "Gate": one gate, one wording. For every capability-gated row of the v1 and v2
// tables, in every direction — an inbound request (answered -32601), an inbound notification
// (dropped with a diagnostic), an outbound request and an outbound notification (refused
// locally, nothing written) — and for extensions, the refusal is the one `gate` gives, naming
// the field by the protocol's own capability field names (v2: `capabilities.…`). inspect's
// monitor reports the same words for the same traffic.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openConnection } from "../../src/connection/connect.ts";
import { gate } from "../../src/connection/gate.ts";
import type { Diagnostic } from "../../src/connection/options.ts";
import { defineExtension } from "../../src/extensions/define.ts";
import { protocol as v1 } from "../../src/generated/protocol.ts";
import type { Protocol } from "../../src/protocol.ts";
import type { Row } from "../../src/row.ts";
import type { Transport, TransportReceiver } from "../../src/transport/transport.ts";
import { protocol as v2 } from "../../src/v2/generated/protocol.ts";
import { createMonitor } from "../../tools/inspect/monitor.ts";

type Side = "agent" | "client";
type Json = Record<string, unknown>;

const other = (side: Side): Side => (side === "agent" ? "client" : "agent");

/** What each version's `initialize` looks like with nothing advertised. */
const INIT: Record<number, { params: Json; result: Json }> = {
  1: { params: { protocolVersion: 1, clientCapabilities: {} }, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } },
  2: { params: { protocolVersion: 2, info: { name: "t", version: "1" }, capabilities: {} }, result: { protocolVersion: 2, info: { name: "t", version: "1" }, capabilities: {} } },
};

/** A transport the test drives by hand: `lines` is what the connection wrote, `send` feeds it. */
function wire(): { transport: Transport; lines: Json[]; send(m: Json): void } {
  let receiver: TransportReceiver | undefined;
  const lines: Json[] = [];
  return {
    transport: {
      start: (r) => void (receiver = r),
      write: (text) => {
        for (const line of text.split("\n")) if (line) lines.push(JSON.parse(line) as Json);
      },
      close: () => undefined,
    },
    lines,
    send: (m) => receiver?.data(`${JSON.stringify(m)}\n`),
  };
}

/** A handler with every method (answers `{}`), and `initialize` answering with nothing advertised. */
function handlerFor(version: number): object {
  return new Proxy(
    {},
    {
      get: (_, key) => (key === "then" ? undefined : key === "initialize" ? () => INIT[version]?.result : () => ({})),
    },
  );
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A connection of `side` on `protocol`, past `initialize` with nothing advertised by either side. */
async function initialized(protocol: Protocol, side: Side, extensions: object[] = []) {
  const w = wire();
  const diagnostics: Diagnostic[] = [];
  const { connection } = openConnection<unknown, { request(w: unknown, p: unknown): Promise<unknown>; notify(w: unknown, p: unknown): Promise<void> }>(protocol, side, handlerFor(protocol.version), w.transport, {
    onDiagnostic: (d) => diagnostics.push(d),
    extensions: extensions as never,
  });
  const init = INIT[protocol.version] as { params: Json; result: Json };
  if (side === "agent") {
    w.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: init.params });
    await flush();
  } else {
    const answered = connection.request("initialize", init.params);
    await flush();
    w.send({ jsonrpc: "2.0", id: (w.lines[0] as { id: number }).id, result: init.result });
    await answered;
  }
  w.lines.length = 0;
  return { ...w, connection, diagnostics };
}

/** Every row a side handles that a capability gates (its own, or its caller's). */
function gatedRows(protocol: Protocol): { row: Row<never, never>; handler: Side }[] {
  return (["agent", "client"] as const).flatMap((handler) => protocol.rows[handler].filter((r) => r.layer === "app" && (r.capability !== undefined || r.callerCapability !== undefined)).map((row) => ({ row, handler })));
}

const NOTHING = { agentCapabilities: {}, clientCapabilities: {} };

describe.each([
  ["v1", v1, "agentCapabilities", "clientCapabilities"],
  ["v2", v2, "capabilities", "capabilities"],
] as const)("the one gate on %s", (_name, protocol, agentField, clientField) => {
  const cases = gatedRows(protocol as Protocol).map(({ row, handler }) => [`${handler} handles ${row.kind} ${row.wire}`, row, handler] as const);

  it("has gated rows to judge on both sides", () => {
    expect(cases.some(([, , h]) => h === "agent")).toBe(true);
    expect(cases.some(([, , h]) => h === "client")).toBe(true);
  });

  it.each(cases)("%s: the same refusal inbound, outbound and in inspect", async (_title, row, handler) => {
    const p = protocol as Protocol;
    const refusal = gate(p, NOTHING, row, handler);
    expect(refusal).toBeDefined();
    const message = refusal?.message as string;
    const missing = row.capability !== undefined ? handler : other(handler);
    expect(message).toMatch(new RegExp(`^${missing === "agent" ? agentField : clientField}\\.[\\w.]+ was not advertised by the ${missing}$`));

    // Inbound, on the side that handles it.
    const inbound = await initialized(p, handler);
    if (row.kind === "request") {
      inbound.send({ jsonrpc: "2.0", id: 5, method: row.wire, params: {} });
      await flush();
      expect(inbound.lines).toEqual([{ jsonrpc: "2.0", id: 5, error: { code: -32601, message: "Method not found", data: { method: row.wire, reason: message } } }]);
    } else {
      inbound.send({ jsonrpc: "2.0", method: row.wire, params: {} });
      await flush();
      expect(inbound.lines).toEqual([]);
      expect(inbound.diagnostics.filter((d) => d.kind === "gated_notification").map((d) => d.message)).toEqual([`dropped "${row.wire}": ${message}`]);
    }

    // Outbound, on the side that calls it: refused locally, nothing written.
    const outbound = await initialized(p, other(handler));
    const sent = row.kind === "request" ? outbound.connection.request(row.wire, {}) : outbound.connection.notify(row.wire, {});
    await expect(sent).rejects.toMatchObject({ code: -32601, data: { method: row.wire, reason: `${message}; not sent` } });
    expect(outbound.lines).toEqual([]);

    // inspect's monitor, watching the same call go by.
    const monitor = createMonitor();
    const init = INIT[p.version] as { params: Json; result: Json };
    const lines: [Side, Json][] = [
      ["client", { jsonrpc: "2.0", id: 0, method: "initialize", params: init.params }],
      ["agent", { jsonrpc: "2.0", id: 0, result: init.result }],
      [other(handler), row.kind === "request" ? { jsonrpc: "2.0", id: 1, method: row.wire, params: {} } : { jsonrpc: "2.0", method: row.wire, params: {} }],
    ];
    const found = lines.flatMap(([from, m], i) => monitor.observe(from, JSON.stringify(m), i).violations).filter((v) => v.rule === "capability-gate");
    expect(found.map((v) => v.message)).toEqual([`${other(handler)} ${row.kind === "request" ? "called" : "sent"} ${row.wire} but ${message}`]);
  });

  it.each(["request", "notification"] as const)("refuses an extension %s in the same words, both directions", async (kind) => {
    const p = protocol as Protocol;
    const ext = kind === "request" ? defineExtension({ wire: "_acme/gated", params: z.object({}), result: z.object({}), capability: ["_meta", "acme"] }) : defineExtension({ wire: "_acme/gated", params: z.object({}), capability: ["_meta", "acme"] });
    const message = `${agentField}._meta.acme was not advertised by the agent`;
    expect(gate(p, NOTHING, ext, "agent")?.message).toBe(message);

    const agent = await initialized(p, "agent", [ext.handle(() => ({}) as never)]);
    if (kind === "request") {
      agent.send({ jsonrpc: "2.0", id: 5, method: ext.wire, params: {} });
      await flush();
      expect(agent.lines).toEqual([{ jsonrpc: "2.0", id: 5, error: { code: -32601, message: "Method not found", data: { method: ext.wire, reason: message } } }]);
    } else {
      agent.send({ jsonrpc: "2.0", method: ext.wire, params: {} });
      await flush();
      expect(agent.diagnostics.filter((d) => d.kind === "gated_notification").map((d) => d.message)).toEqual([`dropped "${ext.wire}": ${message}`]);
    }

    const client = await initialized(p, "client");
    const sent = kind === "request" ? client.connection.request(ext, {}) : client.connection.notify(ext, {});
    await expect(sent).rejects.toMatchObject({ code: -32601, data: { method: ext.wire, reason: `${message}; not sent` } });
    expect(client.lines).toEqual([]);
  });
});
