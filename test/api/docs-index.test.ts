// The API reference (`npm run docs`, TypeDoc) opens on a landing page, documents every
// user-facing entry, and keeps plumbing out: each plumbing export carries `@internal`, which
// typedoc.json's excludeInternal drops from the docs while the compiled .d.ts files keep it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const json = (file: string) => JSON.parse(readFileSync(join(root, file), "utf8")) as Record<string, unknown>;

/** Every export of `entry`, by name, and whether its declaration is tagged `@internal`. */
function exportsOf(program: ts.Program, entry: string): Map<string, boolean> {
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(join(root, entry));
  if (!file) throw new Error(`${entry} is not in the program`);
  const moduleSymbol = checker.getSymbolAtLocation(file);
  if (!moduleSymbol) throw new Error(`${entry} is not a module`);
  const out = new Map<string, boolean>();
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const internal = (target.declarations ?? []).some((d) => ts.getJSDocTags(d).some((t) => t.tagName.text === "internal"));
    out.set(symbol.name, internal);
  }
  return out;
}

describe("the API reference", () => {
  const config = json("typedoc.json");

  it("opens on the landing page and documents every user-facing entry of package.json, not the runtime entry", () => {
    expect(config.readme).toBe("docs/api-landing.md");
    expect(existsSync(join(root, "docs/api-landing.md"))).toBe(true);
    expect(config.entryPoints).toEqual([
      "src/index.ts",
      "src/transport/stdio.ts",
      "src/versions/index.ts",
      "src/v2/index.ts",
      "src/v2/unstable/index.ts",
      "src/unstable/index.ts",
      "src/proxy/index.ts",
      "src/remote/index.ts",
      "src/remote/node.ts",
      "src/remote/node-ws.ts",
      "src/mcp/index.ts",
      "src/tracing/otel.ts",
      "src/tracing/propagate.ts",
      "src/messages.ts",
      "method-table.ts",
      "tables/v1-unstable.ts",
      "tables/v2.ts",
    ]);
    expect(config.excludeInternal).toBe(true);
    expect(config.treatWarningsAsErrors).toBe(true);
  });

  it("hides plumbing from the docs only: the published declarations keep every @internal export", () => {
    const build = json("tsconfig.build.json").compilerOptions as Record<string, unknown>;
    expect(build.stripInternal).toBeUndefined();
    expect((json("tsconfig.json").compilerOptions as Record<string, unknown>).stripInternal).toBeUndefined();
  });

  describe.each(["src/index.ts", "src/v2/index.ts", "src/v2/unstable/index.ts", "src/unstable/index.ts"])("in the %s entry", (entry) => {
    let exported: Map<string, boolean>;
    beforeAll(() => {
      const program = ts.createProgram([join(root, entry)], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, allowImportingTsExtensions: true, noEmit: true, skipLibCheck: true, types: [] });
      exported = exportsOf(program, entry);
    }, 60_000);

    it("exports none of the router plumbing: generated code reaches it through acp-router/runtime", () => {
      const plumbing = ["openConnection", "Row", "Router", "isExtensionWire", "Decoded", "router", "inboundRow", "resultMarker", "decode", "dispatch", "agentRequestRow", "clientNotificationRow", "createAgentPeer", "createClientPeer", "rows", "bindProtocol", "defineProtocol"];
      expect(plumbing.filter((name) => exported.has(name))).toEqual([]);
    });

    it("tags what remains of the plumbing (the leniency graph, validators) @internal", () => {
      const internal = ["LeniencyGraph", "Validator", "leniency"].filter((name) => exported.has(name));
      expect(internal.filter((name) => exported.get(name) !== true)).toEqual([]);
    });

    it("leaves what users call in the index", () => {
      const api = ["connectAgent", "connectClient", "AgentHandler", "ClientHandler", "AgentPeer", "Connection", "ConnectionOptions", "Diagnostic", "RpcError", "ErrorCode", "defineAgent", "memoryPair", "PromptRequest", "SessionUpdate", "protocol"];
      expect(api.filter((name) => exported.get(name) !== false)).toEqual([]);
    });
  });
});
