// A table with a registered extension row, generated into a temporary folder
// by the real CLI: typed handler, working decode and dispatch, and it compiles.
import { readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decode, dispatchDecoded, type Decoded } from "../../src/decode.ts";
import { connectClient, memoryPair, type Protocol, type Transport } from "../../src/index.ts";
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

  it("compiles under the repo's compiler options, typed as the handler expects", async () => {
    await writeFile(
      join(out, "usage.ts"),
      [
        'import type { AgentHandler } from "./handlers.ts";',
        'export const echo: AgentHandler["echo"] = (params) => ({ echoed: params.text });',
        "// @ts-expect-error text is a string, not a number",
        'export const wrong: AgentHandler["echo"] = (params) => ({ echoed: params.text * 2 });',
        "",
      ].join("\n"),
    );
    await writeFile(
      join(out, "tsconfig.json"),
      JSON.stringify({ extends: "../../../tsconfig.json", include: [], files: [...GENERATED, "usage.ts"] }, null, 2),
    );
    const tsc = await run("npx", ["tsc", "--noEmit", "--pretty", "false", "-p", relative(repoRoot, join(out, "tsconfig.json"))]);
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.code).toBe(0);
  }, 180_000); // a whole-folder tsc run; slow on a shared machine
});
