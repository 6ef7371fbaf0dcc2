// Rows per side (DESIGN §11, issue 28): each table's agent half carries no validator the client
// decodes, and an agent's bundle names none of them; the client half likewise.
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { decodedBy } from "../../codegen/emit-router.ts";
import { validatorName } from "../../codegen/emit-validators.ts";
import { methods, type MethodRow } from "../../method-table.ts";
import { createAgentConnection, createClientConnection, notDecodedHere, type Protocol } from "../../src/runtime.ts";
import * as v1 from "../../src/generated/index.ts";
import * as unstable from "../../src/unstable/generated/index.ts";
import * as v2 from "../../src/v2/generated/index.ts";
import * as v2Unstable from "../../src/v2/unstable/generated/index.ts";
import { methods as unstableMethods } from "../../tables/v1-unstable.ts";
import { methods as v2Methods } from "../../tables/v2.ts";
import { methods as v2UnstableMethods } from "../../tables/v2-unstable.ts";
import { memoryPair } from "../../src/transport/memory.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** The validator names only `side`'s peer calls: what `side`'s bundle must not contain. */
function othersOnly(rows: readonly MethodRow[], side: "agent" | "client"): string[] {
  const mine = new Set(decodedBy(rows, side));
  return decodedBy(rows, side === "agent" ? "client" : "agent")
    .filter((t) => !mine.has(t))
    .map(validatorName);
}

/** The unminified esbuild bundle of `contents` (names kept, so a validator it references appears by name). */
async function bundleOf(contents: string): Promise<string> {
  const result = await build({ stdin: { contents, resolveDir: root, loader: "ts" }, bundle: true, write: false, platform: "node", format: "esm", logLevel: "silent" });
  return result.outputFiles[0]?.text ?? "";
}

const TABLES = [
  { name: "v1", rows: methods, folder: "src/generated", table: v1 },
  { name: "v1-unstable", rows: unstableMethods, folder: "src/unstable/generated", table: unstable },
  { name: "v2", rows: v2Methods, folder: "src/v2/generated", table: v2 },
  { name: "v2-unstable", rows: v2UnstableMethods, folder: "src/v2/unstable/generated", table: v2Unstable },
] as const;

describe.each(TABLES)("the $name table's halves", ({ rows, table, folder }) => {
  it.each(["agent", "client"] as const)("the %s half decodes nothing its peer decodes, and routes the peer's rows", (side) => {
    const half = (side === "agent" ? table.agentProtocol : table.clientProtocol) as Protocol;
    const peer = side === "agent" ? "client" : "agent";
    expect(half.side).toBe(side);
    expect(half.peers[peer]).toBeTypeOf("function");
    expect(half.peers[side]).toBeUndefined();
    for (const row of half.rows[side]) {
      expect(row.params, row.wire).not.toBe(notDecodedHere);
      expect(row.result === undefined || row.result === notDecodedHere, row.wire).toBe(true);
      expect(half.inboundRow(side, row.kind, row.wire)).toBe(row);
    }
    for (const row of half.rows[peer]) {
      expect(row.params, row.wire).toBe(notDecodedHere);
      expect(row.invoke, row.wire).toBeUndefined();
      if (row.kind === "request") {
        expect(row.result, row.wire).toBeTypeOf("function");
        expect(row.result, row.wire).not.toBe(notDecodedHere);
        expect(half.resultMarker(peer, row.wire)).toBe(row);
      }
      expect(half.inboundRow(peer, row.kind, row.wire)).toBe(row);
    }
    // The same rows, wires and columns as the whole table: only the validators differ.
    const strip = (r: object) => Object.fromEntries(Object.entries(r).filter(([k]) => !["params", "result", "invoke"].includes(k)));
    expect(half.rows.agent.map(strip)).toEqual(table.protocol.rows.agent.map(strip));
    expect(half.rows.client.map(strip)).toEqual(table.protocol.rows.client.map(strip));
    // Its leniency graph covers every type it decodes that the whole graph knows, and only what those reach.
    for (const type of decodedBy(rows, side)) if (table.protocol.leniency[type]) expect(half.leniency[type], type).toEqual(table.protocol.leniency[type]);
    expect(Object.keys(half.leniency).length).toBeLessThanOrEqual(Object.keys(table.protocol.leniency).length);
  });

  it("the whole table decodes both directions", () => {
    for (const side of ["agent", "client"] as const) {
      for (const row of table.protocol.rows[side]) {
        expect(row.params, row.wire).not.toBe(notDecodedHere);
        expect(row.result, row.wire).not.toBe(notDecodedHere);
        if (row.kind === "request") expect(row.result, row.wire).toBeTypeOf("function");
      }
    }
  });

  it.each(["agent", "client"] as const)("a bundle of an %s connection on its half names no validator only the peer calls", async (side) => {
    const entry = side === "agent" ? "agentProtocol" : "clientProtocol";
    const create = side === "agent" ? "createAgentConnection" : "createClientConnection";
    const text = await bundleOf(`import { ${entry} } from "./${folder}/index.ts"; import { ${create} } from "./src/bind.ts"; import { memoryPair } from "./src/transport/memory.ts";
${create}(${entry}, {} as never, memoryPair()[0]);`);
    const absent = othersOnly(rows, side);
    expect(absent.length).toBeGreaterThan(0);
    for (const name of absent) expect(text, name).not.toContain(name);
    // …while the validators it calls are there.
    for (const type of decodedBy(rows, side)) expect(text, type).toContain(validatorName(type));
  });

  it("a half serves connections of its own side only", () => {
    const [a, b] = memoryPair();
    expect(() => createClientConnection(table.agentProtocol as Protocol, {}, a)).toThrow(TypeError);
    expect(() => createAgentConnection(table.clientProtocol as Protocol, {}, b)).toThrow(
      /^createAgentConnection\(protocol, handler, transport, options\?\): protocol must be the .* table's whole protocol or its agentProtocol; got the .* table's clientProtocol \(its client half\)\. That half decodes only what the client receives/,
    );
  });
});

describe("the v1 entry's agent", () => {
  it("serveStdio(handler) from acp-router bundles no validator only the client calls", async () => {
    const text = await bundleOf('import { serveStdio } from "./src/index.ts"; serveStdio({ initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }), newSession: () => ({ sessionId: "s" }), prompt: () => ({ stopReason: "end_turn" }) } as never);');
    for (const name of othersOnly(methods, "agent")) expect(text, name).not.toContain(name);
    expect(text).toContain("validatePromptRequest");
    expect(text).toContain("validateRequestPermissionResponse");
  });

  it("connectAgent and connectClient of the default entry each bundle their own half only", async () => {
    const agent = await bundleOf('import { connectAgent, memoryPair } from "./src/index.ts"; connectAgent({} as never, memoryPair()[0]);');
    for (const name of othersOnly(methods, "agent")) expect(agent, name).not.toContain(name);
    const client = await bundleOf('import { connectClient, memoryPair } from "./src/index.ts"; connectClient({} as never, memoryPair()[0]);');
    for (const name of othersOnly(methods, "client")) expect(client, name).not.toContain(name);
  });

  it("a connection over the agent half still talks to a client over the whole table", async () => {
    const [agentEnd, clientEnd] = memoryPair();
    const agent = v1.connectAgent(
      {
        initialize: () => ({ protocolVersion: 1, agentCapabilities: {}, authMethods: [] }),
        newSession: () => ({ sessionId: "s" }),
        prompt: async (_p, ctx) => {
          const answer = await ctx.peer.requestPermission({ sessionId: "s", toolCall: { toolCallId: "t" }, options: [{ optionId: "o", name: "Allow", kind: "allow_once" }] });
          await ctx.peer.sessionUpdate({ sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: JSON.stringify(answer.outcome) } } });
          return { stopReason: "end_turn" };
        },
      },
      agentEnd,
    );
    const updates: unknown[] = [];
    const client = createClientConnection(v1.protocol, { requestPermission: () => ({ outcome: { outcome: "selected", optionId: "o" } }), sessionUpdate: (p) => void updates.push(p.update) }, clientEnd);
    await client.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    await client.agent.newSession({ cwd: "/", mcpServers: [] });
    expect(await client.agent.prompt({ sessionId: "s", prompt: [{ type: "text", text: "hi" }] })).toEqual({ stopReason: "end_turn" });
    expect(updates).toEqual([{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: '{"outcome":"selected","optionId":"o"}' } }]);
    agent.close();
    client.close();
  });
});
