// The agent-side version router, side by side with the SDK's agentProtocolRouter on the same inputs:
// the same answers (id, code; data where the SDK's is an object) before routing, the same version selected,
// the same initialize handed on. Where the SDK's router writes `data` as a bare string, ours writes an
// object (one error vocabulary with the connection: test/versions/same-errors.test.ts).
import { agentProtocolRouter } from "@agentclientprotocol/sdk/experimental/v2";
import { describe, expect, it } from "vitest";
import { memoryPair, type Transport } from "../../src/index.ts";
import { routeTransport } from "../../src/versions/route-agent.ts";

type Json = Record<string, unknown>;
interface Outcome {
  /** Answers written before routing: id, code and data (messages are worded differently). */
  readonly answers: { id: unknown; code: unknown; data: unknown }[];
  readonly version: number | undefined;
  /** The first message the selected version's connection read. */
  readonly initialize: Json | undefined;
}

const errorsOf = (lines: Json[]) => lines.map((l) => ({ id: l.id, code: (l.error as Json | undefined)?.code, data: (l.error as Json | undefined)?.data }));

/** Feeds `lines` to our router (v1 and/or v2 configured) and collects what happened. */
async function ours(lines: string[], versions: readonly (1 | 2)[]): Promise<Outcome> {
  const [mine, theirs] = memoryPair();
  const written: Json[] = [];
  let buffered = "";
  theirs.start({ data: (c) => void (buffered += typeof c === "string" ? c : new TextDecoder().decode(c)), end: () => {} });
  const firstLine = (t: Transport) =>
    new Promise<Json>((resolve) => {
      let text = "";
      t.start({
        data: (c) => {
          text += typeof c === "string" ? c : new TextDecoder().decode(c);
          const nl = text.indexOf("\n");
          if (nl >= 0) resolve(JSON.parse(text.slice(0, nl)) as Json);
        },
        end: () => {},
      });
    });
  const routed = routeTransport(mine, versions, (_version, t) => firstLine(t));
  for (const line of lines) theirs.write(`${line}\n`);
  theirs.close();
  const result = await routed;
  await new Promise((r) => setImmediate(r));
  for (const l of buffered.split("\n")) if (l !== "") written.push(JSON.parse(l) as Json);
  return { answers: errorsOf(written), version: result?.version, initialize: result ? await result.connection : undefined };
}

/** Feeds the same lines, as parsed messages, to the SDK's router with stub connectors. */
async function sdk(lines: string[], versions: readonly (1 | 2)[]): Promise<Outcome> {
  const written: Json[] = [];
  let picked: { version: number; initialize: Promise<Json> } | undefined;
  const connector = (version: number) => ({
    connect(stream: { readable: ReadableStream<unknown> }) {
      const reader = stream.readable.getReader();
      picked = { version, initialize: reader.read().then((r) => r.value as Json) };
      return { closed: new Promise<void>(() => {}) };
    },
  });
  const router = agentProtocolRouter();
  if (versions.includes(1)) router.withV1(connector(1) as never);
  if (versions.includes(2)) router.withV2(connector(2) as never);
  const readable = new ReadableStream({
    start(c) {
      for (const l of lines) c.enqueue(JSON.parse(l));
      c.close();
    },
  });
  const writable = new WritableStream({ write: (m) => void written.push(m as Json) });
  const conn = router.connect({ readable, writable } as never);
  await Promise.race([conn.closed, new Promise((r) => setTimeout(r, 200))]);
  return { answers: errorsOf(written), version: picked?.version, initialize: picked ? await picked.initialize : undefined };
}

const init = (id: unknown, params: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params });
const v2Init = (version: number, extra: Json = {}) => init(1, { protocolVersion: version, info: { name: "c", version: "1" }, capabilities: { elicitation: { form: {} } }, ...extra });

const cases: [string, string[], (1 | 2)[]][] = [
  ["a batch before initialize gets one -32600 with id null, then v2 is routed", ["[]", v2Init(2)], [1, 2]],
  ["notifications and responses before initialize are ignored", [JSON.stringify({ jsonrpc: "2.0", method: "session/cancel", params: {} }), JSON.stringify({ jsonrpc: "2.0", id: 9, result: {} }), init(1, { protocolVersion: 1 })], [1, 2]],
  ["another request first gets -32600 with its id", [JSON.stringify({ jsonrpc: "2.0", id: 4, method: "session/new", params: {} }), init(5, { protocolVersion: 1 })], [1, 2]],
  ["a protocolVersion that is not a version gets -32602 with the id", [init(1, { protocolVersion: "1" }), init(2, { protocolVersion: 70000 }), init(3, { protocolVersion: 1 })], [1, 2]],
  ["a version below every configured one gets -32022 with requested and supported", [init(1, { protocolVersion: 0 }), init(2, { protocolVersion: 1 })], [1, 2]],
  ["a v1 client on a v2-only agent gets -32022", [init(1, { protocolVersion: 1 }), v2Init(2)], [2]],
  ["a newer client is downgraded to v2, its missing info replaced by unknown", [init(1, { protocolVersion: 3, capabilities: {} })], [1, 2]],
  ["a v2 client of a v1-only agent is routed to v1 with its initialize rewritten", [v2Init(2)], [1]],
  ["a v2 client of a v1 and v2 agent is routed to v2, params unchanged", [v2Init(2)], [1, 2]],
  ["an initialize with a null id on a v2 route gets -32600 with id null", [init(null, { protocolVersion: 2, info: { name: "c", version: "1" } }), v2Init(2)], [1, 2]],
];

describe("routeAgent against the SDK's agentProtocolRouter", () => {
  it.each(cases)("%s", async (_name, lines, versions) => {
    const [a, b] = await Promise.all([ours(lines, versions), sdk(lines, versions)]);
    expect(a.answers.map(({ id, code }) => ({ id, code }))).toEqual(b.answers.map(({ id, code }) => ({ id, code })));
    for (const [i, answer] of a.answers.entries()) {
      if (answer.data !== undefined) expect(typeof answer.data === "object" && answer.data !== null && !Array.isArray(answer.data)).toBe(true);
      const theirs = b.answers[i]?.data;
      if (typeof theirs === "object" && theirs !== null) expect(answer.data).toEqual(theirs);
    }
    expect(a.version).toBe(b.version);
    expect(a.version).toBeDefined();
    const requested = (JSON.parse(lines.at(-1) as string) as { params: { protocolVersion: number } }).params.protocolVersion;
    // A rewritten initialize is the SDK's, field for field. One for exactly the selected version is handed
    // on as sent (the selected table validates it); the SDK's router hands on its zod-normalized copy instead.
    if (requested !== a.version) expect(a.initialize).toEqual(b.initialize);
    else expect(a.initialize).toEqual(JSON.parse(lines.at(-1) as string));
  });
});

describe("routeAgent with v1ShapeToV1", () => {
  /** Routes one initialize line with v1 and v2 configured; the version and the initialize handed on. */
  async function route(params: Json, v1ShapeToV1: boolean): Promise<{ version: number | undefined; initialize: Json | undefined }> {
    const [mine, theirs] = memoryPair();
    theirs.start({ data: () => {}, end: () => {} });
    const firstLine = (t: Transport) =>
      new Promise<Json>((resolve) => {
        let text = "";
        t.start({
          data: (c) => {
            text += typeof c === "string" ? c : new TextDecoder().decode(c);
            const nl = text.indexOf("\n");
            if (nl >= 0) resolve(JSON.parse(text.slice(0, nl)) as Json);
          },
          end: () => {},
        });
      });
    const routed = routeTransport(mine, [1, 2], (_version, t) => firstLine(t), { v1ShapeToV1 });
    theirs.write(`${init(1, params)}\n`);
    const result = await routed;
    theirs.close();
    return { version: result?.version, initialize: result ? await result.connection : undefined };
  }
  const v1Shaped = { protocolVersion: 7, clientCapabilities: { fs: { readTextFile: true } }, clientInfo: { name: "c", version: "1" } };

  it("hands a v1-shaped initialize naming version 7 to v1 unchanged, where the SDK's rule picks v2", async () => {
    expect(await route(v1Shaped, true)).toEqual({ version: 1, initialize: JSON.parse(init(1, v1Shaped)) });
    expect((await route(v1Shaped, false)).version).toBe(2);
  });

  it("still routes a v2-shaped initialize to v2", async () => {
    expect((await route({ protocolVersion: 2, info: { name: "c", version: "1" }, capabilities: {} }, true)).version).toBe(2);
  });
});
