// A table with a registered extension row, generated into a temporary folder
// by the real CLI: typed handler, working decode and dispatch, and it compiles.
import { readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decode, dispatchDecoded, type Decoded } from "../../src/decode.ts";
import { connectClient, memoryPair, type Protocol, type Transport } from "../../src/index.ts";
import { createMonitor } from "../../tools/inspect/monitor.ts";
import { loadTables } from "../../tools/inspect/tables.ts";
import type { Summary } from "../../tools/inspect/summary.ts";
import { converse, inspectCommand } from "../tools/support.ts";
import { repoRoot, run, tempDirIn, type Ran } from "./support.ts";

/** The runtime's decode and dispatch over the generated folder's protocol value, loaded from a runtime path. */
interface GeneratedRouter {
  decode(side: "agent" | "client", kind: "request" | "notification", wire: string, params: unknown): Decoded<never, never>;
  dispatch(handler: object, decoded: Decoded<never, never>, ctx: { requestId: unknown }): unknown;
  resultMarker(side: "agent" | "client", wire: string): { result: ((value: unknown) => boolean) | undefined } | undefined;
}

const GENERATED = ["types.ts", "validators.ts", "leniency.ts", "errors.ts", "routes.ts", "agent.ts", "client.ts", "router.ts", "handlers.ts", "peers.ts", "protocol.ts", "index.ts"];

describe("a table with a registered extension row", () => {
  let out: string;
  let codegen: Ran;
  let router: GeneratedRouter;
  const read = (name: string) => readFile(join(out, name), "utf8");

  beforeAll(async () => {
    out = await tempDirIn("test/codegen", "out-");
    codegen = await run("npx", ["tsx", "codegen/main.ts", "--table", "test/codegen/fixtures/ext-table.ts", "--out", relative(repoRoot, out)]);
    if (codegen.code === 0) {
      const { protocol } = (await import(pathToFileURL(join(out, "protocol.ts")).href)) as { protocol: Protocol };
      router = { decode: (side, kind, wire, params) => decode(protocol, side, kind, wire, params), dispatch: dispatchDecoded, resultMarker: protocol.resultMarker };
    }
  }, 180_000); // codegen of the whole v1 table in a subprocess; slow on a shared machine

  afterAll(async () => {
    if (out) await rm(out, { recursive: true, force: true });
  });

  it("generates every file with `codegen --table --out`", async () => {
    expect(codegen.stderr).toContain("codegen: wrote 12 files to test/codegen/.out-");
    expect(codegen.code).toBe(0);
    for (const name of GENERATED) expect((await read(name)).length).toBeGreaterThan(0);
  });

  it("imports the runtime through the one runtime module, relative to the output folder", async () => {
    for (const name of GENERATED) {
      const imports = (await read(name)).split("\n").filter((line) => line.startsWith("import "));
      for (const line of imports) expect(line, name).toMatch(/ from "(\.\.\/\.\.\/\.\.\/src\/runtime\.ts|\.\/[a-z]+\.ts)";$/);
    }
    expect(await read("router.ts")).toContain('import type { Row } from "../../../src/runtime.ts";');
    expect(await read("agent.ts")).toContain('import { defineProtocol, notDecodedHere, notImplemented, type PeerCaller, type Row } from "../../../src/runtime.ts";');
  });

  it("names the inline schemas after the callback and uses them in the handler", async () => {
    const handlers = (await read("handlers.ts")).split("\n");
    expect(handlers).toContain("  echo(params: EchoParams, ctx: AgentContext): Awaitable<EchoResult>;");
    expect(await read("types.ts")).toMatch(/export interface EchoParams \{\n\s+text: string\n\}/);
  });

  it("adds the extension to the typed peer and its method map", async () => {
    const peers = (await read("peers.ts")).split("\n");
    expect(peers).toContain("  echo(params: EchoParams, options?: RequestOptions): Promise<EchoResult>;");
    expect(peers).toContain('  "_example.com/echo": { params: EchoParams; result: EchoResult };');
  });

  it("decodes valid params and dispatches them to the handler's echo method", async () => {
    const decoded = router.decode("agent", "request", "_example.com/echo", { text: "hi" });
    expect(decoded.tag).toBe("ok");
    const calls: unknown[] = [];
    const handler = { echo: (params: { text: string }, ctx: object) => (calls.push([params, ctx]), { echoed: params.text }) };
    const ctx = { requestId: 7, sessionId: undefined, signal: new AbortController().signal, peer: {}, agentCapabilities: undefined, clientCapabilities: undefined };
    expect(await router.dispatch(handler, decoded, ctx)).toEqual({ echoed: "hi" });
    expect(calls).toEqual([[{ text: "hi" }, ctx]]);
  });

  it("rejects params that break the inline schema, per location", () => {
    expect(router.decode("agent", "request", "_example.com/echo", { text: 5 })).toMatchObject({ tag: "invalid_params", errors: [{ path: "/text" }] });
    expect(router.decode("agent", "request", "_example.com/echo", {})).toMatchObject({ tag: "invalid_params", errors: [{ path: "/text" }] });
  });

  it("checks the answer with the inline result schema", () => {
    const check = router.resultMarker("agent", "_example.com/echo")?.result;
    expect(check?.({ echoed: "hi" })).toBe(true);
    expect(check?.({ echoed: 1 })).toBe(false);
  });

  it("keeps the registered row apart from unregistered extensions and the other side", () => {
    expect(router.decode("agent", "request", "_example.com/other", { text: "hi" })).toEqual({ tag: "ext", wire: "_example.com/other", params: { text: "hi" } });
    expect(router.decode("client", "request", "_example.com/echo", { text: "hi" }).tag).toBe("ext");
  });

  it("serves the extension over a real connection with the generated connectAgent", async () => {
    const { connectAgent } = (await import(pathToFileURL(join(out, "index.ts")).href)) as { connectAgent: (h: object, t: Transport) => { close(): void } };
    const [agentEnd, clientEnd] = memoryPair();
    const handler = {
      initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }),
      echo: (params: { text: string }) => ({ echoed: params.text.toUpperCase() }),
    };
    connectAgent(handler, agentEnd);
    const client = connectClient({ requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {} }, clientEnd);
    await client.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    expect(await client.request("_example.com/echo", { text: "hi" })).toEqual({ echoed: "HI" });
    await expect(client.request("_example.com/echo", { text: 5 })).rejects.toMatchObject({ code: -32602, data: { errors: [{ path: "/text" }] } });
    client.close();
  });

  it("lets inspect's monitor judge the extension with --table's loader, and only with it", async () => {
    const lines = [
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}',
      '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{},"authMethods":[]}}',
      '{"jsonrpc":"2.0","id":1,"method":"_example.com/echo","params":{"text":5}}',
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params"}}',
      '{"jsonrpc":"2.0","id":2,"method":"_example.com/echo","params":{"text":"hi"}}',
      '{"jsonrpc":"2.0","id":2,"result":{"echoed":7}}',
    ];
    const judge = (monitor: ReturnType<typeof createMonitor>) => {
      lines.forEach((line, i) => monitor.observe(i % 2 === 0 ? "client" : "agent", line, i));
      return monitor.violations.map((v) => `${v.rule} ${v.by}: ${v.message}`);
    };
    expect(judge(createMonitor(await loadTables(out)))).toEqual(["schema client: _example.com/echo params do not match v1 EchoParams: /text: must be string", "schema agent: _example.com/echo result do not match v1 EchoResult: /echoed: must be string"]);
    expect(judge(createMonitor())).toEqual([]);
  });

  it("runs `inspect --table <folder>` end to end: the extension's result checked off the forwarding thread; a folder without a table is one line and exit 2", async () => {
    const summary = join(out, "summary.json");
    // An agent answering initialize, and `_example.com/echo` with a number where the table says a string.
    const agent = `process.stdin.setEncoding("utf8");let b="";process.stdin.on("data",(c)=>{b+=c;let i;while((i=b.indexOf("\\n"))>=0){const m=JSON.parse(b.slice(0,i));b=b.slice(i+1);const result=m.method==="initialize"?{protocolVersion:1,agentCapabilities:{},authMethods:[]}:{echoed:7};process.stdout.write(JSON.stringify({jsonrpc:"2.0",id:m.id,result})+"\\n");}});`;
    const ran = await converse(
      inspectCommand(["--table", out, "--summary", summary], [process.execPath, "-e", agent]),
      [
        { line: '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}', awaitAnswer: 0 },
        { line: '{"jsonrpc":"2.0","id":1,"method":"_example.com/echo","params":{"text":"hi"}}', awaitAnswer: 1 },
      ],
      40_000,
    );
    expect(ran.code).toBe(0);
    const judged = JSON.parse(await readFile(summary, "utf8")) as Summary;
    expect(judged.violations.map((v) => `${v.rule} ${v.by} ${v.count}: ${v.example}`)).toEqual(["schema agent 1: _example.com/echo result do not match v1 EchoResult: /echoed: must be string"]);

    const missing = await run(process.execPath, ["--import", "tsx", "test/tools/fixtures/run-inspect.ts", "--table", "test/codegen", "--", process.execPath, "-e", ""]);
    expect({ code: missing.code, stderr: missing.stderr }).toEqual({
      code: 2,
      stderr: "acp-router inspect: --table test/codegen: no protocol.js or protocol.ts in it (is it the folder acp-router codegen wrote?)\n",
    });
  }, 60_000);

  it("compiles under the repo's compiler options, typed as the handler expects", async () => {
    await writeFile(
      join(out, "usage.ts"),
      ['import type { AgentHandler } from "./handlers.ts";', 'export const echo: AgentHandler["echo"] = (params) => ({ echoed: params.text });', "// @ts-expect-error text is a string, not a number", 'export const wrong: AgentHandler["echo"] = (params) => ({ echoed: params.text * 2 });', ""].join(
        "\n",
      ),
    );
    await writeFile(join(out, "tsconfig.json"), JSON.stringify({ extends: "../../../tsconfig.json", include: [], files: [...GENERATED, "usage.ts"] }, null, 2));
    const tsc = await run("npx", ["tsc", "--noEmit", "--pretty", "false", "-p", relative(repoRoot, join(out, "tsconfig.json"))]);
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.code).toBe(0);
  }, 180_000); // a whole-folder tsc run; slow on a shared machine
});
