// The emitters are line printers: a tiny in-memory table in, exact lines out.
import { describe, expect, it } from "vitest";
import { emitHandlers, emitPeers } from "../../codegen/emit-handlers.ts";
import { DEFAULT_PROTOCOL_INFO, emitIndex, emitProtocol } from "../../codegen/emit-protocol.ts";
import { emitHalf, emitRouter, emitRoutes } from "../../codegen/emit-router.ts";
import { generate } from "../../codegen/generate.ts";
import { HEADER } from "../../codegen/names.ts";
import { methods, type MethodRow } from "../../method-table.ts";
import { realSchema } from "./support.ts";

/** A tiny table: the real rows for these wires, in table order. */
const tiny: readonly MethodRow[] = methods.filter((r) => ["initialize", "session/set_mode", "session/prompt", "session/cancel", "session/update", "fs/read_text_file", "$/cancel_request"].includes(r.wire));

const lines = (text: string) => text.split("\n");

/** The lines of the `switch` inside `function name(...)`, without the braces. */
function switchOf(text: string, name: string): string[] {
  const all = lines(text);
  const start = all.findIndex((l) => l.startsWith(`export function ${name}(`));
  const end = all.indexOf("  }", start);
  return all.slice(start + 2, end);
}

describe("emitRouter", () => {
  const router = emitRouter(tiny);

  it("emits one switch case per row a side handles, for each kind, in table order", () => {
    expect(switchOf(router, "agentRequestRow")).toEqual(['    case "initialize": return A_initialize;', '    case "session/set_mode": return A_session_set_mode;', '    case "session/prompt": return A_session_prompt;', "    default: return undefined;"]);
    expect(switchOf(router, "agentNotificationRow")).toEqual(['    case "session/cancel": return A_session_cancel;', '    case "$/cancel_request": return A___cancel_request;', "    default: return undefined;"]);
    expect(switchOf(router, "clientRequestRow")).toEqual(['    case "fs/read_text_file": return C_fs_read_text_file;', "    default: return undefined;"]);
    expect(switchOf(router, "clientNotificationRow")).toEqual(['    case "session/update": return C_session_update;', '    case "$/cancel_request": return C___cancel_request;', "    default: return undefined;"]);
  });

  it("makes each whole-table row the handling half's row with the result validator the other half decodes", () => {
    expect(lines(router)).toContain("const A_session_prompt: Row<AgentHandler, AgentContext> = { ...A.A_session_prompt, result: V.validatePromptResponse };");
    expect(lines(router)).toContain("const C_fs_read_text_file: Row<ClientHandler, ClientContext> = { ...C.C_fs_read_text_file, result: V.validateReadTextFileResponse };");
    expect(lines(router)).toContain("const A_session_cancel: Row<AgentHandler, AgentContext> = A.A_session_cancel;");
  });

  it("lists every row each side handles, in table order", () => {
    const all = lines(router);
    const at = all.indexOf("export const rows: { readonly agent: readonly Row<never, never>[]; readonly client: readonly Row<never, never>[] } = {");
    expect(all.slice(at, at + 4)).toEqual([
      "export const rows: { readonly agent: readonly Row<never, never>[]; readonly client: readonly Row<never, never>[] } = {",
      "  agent: [A_initialize, A_session_set_mode, A_session_prompt, A_session_cancel, A___cancel_request],",
      "  client: [C_session_update, C_fs_read_text_file, C___cancel_request],",
      "};",
    ]);
  });

  it("prints no logic shared by every table: decode, dispatch and the lookups over both sides are the runtime's", () => {
    for (const text of [router, emitHalf(tiny, "agent", DEFAULT_PROTOCOL_INFO), emitHalf(tiny, "client", DEFAULT_PROTOCOL_INFO)]) {
      for (const name of ["inboundRow", "resultMarker", "decode(", "dispatch", "defineAgent", "check("]) expect(text).not.toContain(name);
    }
  });

  it("never indexes an object with a wire string", () => {
    expect(router).not.toMatch(/\[\s*wire\s*\]/);
    expect(emitHalf(tiny, "agent", DEFAULT_PROTOCOL_INFO)).not.toMatch(/\[\s*wire\s*\]/);
  });
});

describe("emitHalf", () => {
  const agent = emitHalf(tiny, "agent", DEFAULT_PROTOCOL_INFO);
  const client = emitHalf(tiny, "client", DEFAULT_PROTOCOL_INFO);

  it("prints a route per row that reads like the table row", () => {
    const routes = lines(emitRoutes(tiny));
    const at = routes.indexOf("export const A_session_prompt: Route = {");
    expect(routes.slice(at, at + 5)).toEqual([
      "export const A_session_prompt: Route = {",
      '  wire: "session/prompt", kind: "request", layer: "app", callback: "prompt",',
      '  capability: undefined, auth: true, onCancel: {"stopReason":"cancelled"}, cancelsSession: false, lifecycle: undefined,',
      '  paramsType: "PromptRequest", resultType: "PromptResponse",',
      "};",
    ]);
  });

  it("makes each own row its route with its params validator and handler call; the result is decoded by the other side", () => {
    expect(lines(agent)).toContain("export const A_session_prompt: Row<AgentHandler, AgentContext> = { ...R.A_session_prompt, params: V.validatePromptRequest, result: notDecodedHere, invoke: (h, p, c) => h.prompt(p as PromptRequest, c) };");
  });

  it("makes the peer's rows routing data with the result validator of the requests this side sends", () => {
    expect(lines(agent)).toContain("const C_fs_read_text_file: Row<never, never> = { ...R.C_fs_read_text_file, params: notDecodedHere, result: V.validateReadTextFileResponse, invoke: undefined };");
    expect(lines(agent)).toContain("const C_session_update: Row<never, never> = { ...R.C_session_update, params: notDecodedHere, result: undefined, invoke: undefined };");
  });

  it("names no validator the other side decodes", () => {
    expect(agent).not.toContain("V.validateReadTextFileRequest");
    expect(agent).not.toContain("V.validateSessionNotification");
    expect(agent).not.toContain("V.validatePromptResponse");
    expect(client).toContain("V.validateSessionNotification");
    expect(client).toContain("V.validatePromptResponse");
    expect(client).not.toContain("V.validatePromptRequest");
    expect(client).not.toContain("V.validateReadTextFileResponse");
  });

  it("calls a gated handler method only when it exists, else answers method-not-found", () => {
    expect(client).toContain('invoke: (h, p, c) => (h.readTextFile ? h.readTextFile(p as ReadTextFileRequest, c) : notImplemented("fs/read_text_file")) };');
  });

  it("calls an optional handler method only when it exists, like a gated one", () => {
    expect(agent).toContain('invoke: (h, p, c) => (h.setSessionMode ? h.setSessionMode(p as SetSessionModeRequest, c) : notImplemented("session/set_mode")) };');
  });

  it("drops a notification whose optional handler method is missing, instead of failing it", () => {
    const optionalUpdate = tiny.map((r) => (r.wire === "session/update" ? { ...r, optional: true } : r));
    expect(emitHalf(optionalUpdate, "client", DEFAULT_PROTOCOL_INFO)).toContain("invoke: (h, p, c) => (h.sessionUpdate ? h.sessionUpdate(p as SessionNotification, c) : undefined) };");
    const handlers = lines(emitHandlers(optionalUpdate));
    const at = handlers.indexOf("  sessionUpdate?(params: SessionNotification, ctx: ClientContext): Awaitable<void>;");
    expect(handlers[at - 1]).toBe("  /** `session/update` notification. Optional: without it the notification is dropped. */");
  });

  it("gives connection-routed rows no callback and no invoke", () => {
    const routes = lines(emitRoutes(tiny));
    expect(routes[routes.indexOf("export const A_session_cancel: Route = {") + 1]).toBe('  wire: "session/cancel", kind: "notification", layer: "session_control",');
    expect(lines(agent)).toContain("export const A_session_cancel: Row<AgentHandler, AgentContext> = { ...R.A_session_cancel, params: V.validateCancelNotification, result: undefined, invoke: undefined };");
  });

  it("hands the runtime its side, its leniency graph and the one peer factory it calls", () => {
    const all = lines(agent);
    const at = all.indexOf("export const agentProtocol = /* @__PURE__ */ defineProtocol<TableTypes>({");
    expect(all.slice(at + 1, at + 5)).toEqual(["  version: 1,", '  name: "v1",', '  side: "agent",', "  rows: {"]);
    expect(all).toContain("  leniency: agentLeniency,");
    expect(all).toContain("  peers: { client: createClientPeer },");
    expect(lines(client)).toContain("  peers: { agent: createAgentPeer },");
  });
});

describe("emitHandlers", () => {
  const handlers = emitHandlers(tiny);

  it("prints one handler method per app row", () => {
    expect(lines(handlers)).toContain("  prompt(params: PromptRequest, ctx: AgentContext): Awaitable<PromptResponse>;");
    expect(lines(handlers)).toContain("  initialize(params: InitializeRequest, ctx: AgentContext): Awaitable<InitializeResponse>;");
    expect(lines(handlers)).toContain("  sessionUpdate(params: SessionNotification, ctx: ClientContext): Awaitable<void>;");
  });

  it("makes a capability-gated method optional and says which capability gates it", () => {
    const all = lines(handlers);
    const at = all.indexOf("  readTextFile?(params: ReadTextFileRequest, ctx: ClientContext): Awaitable<ReadTextFileResponse>;");
    expect(at).toBeGreaterThan(0);
    expect(all[at - 1]).toBe("  /** `fs/read_text_file` request. Gated by `fs.readTextFile`. */");
  });

  it("makes a row the table marks optional an optional method, and says what its absence answers", () => {
    const all = lines(handlers);
    const at = all.indexOf("  setSessionMode?(params: SetSessionModeRequest, ctx: AgentContext): Awaitable<SetSessionModeResponse>;");
    expect(at).toBeGreaterThan(0);
    expect(all[at - 1]).toBe("  /** `session/set_mode` request. Optional: without it the request answers -32601. */");
  });

  it("prints, per side, which handler methods an advertised capability requires", () => {
    const all = lines(handlers);
    expect(all).toContain("export type RequiredAgentMethods<C> = RequiredMethods<AgentGates, C>;");
    expect(all.slice(all.indexOf("export interface AgentGates {"), all.indexOf("export interface AgentGates {") + 2)).toEqual(["export interface AgentGates {", "}"]);
    const at = all.indexOf("export interface ClientGates {");
    expect(all.slice(at, at + 3)).toEqual(["export interface ClientGates {", '  readonly readTextFile: readonly ["fs", "readTextFile"];', "}"]);
    expect(all).toContain("export type RequiredClientMethods<C> = RequiredMethods<ClientGates, C>;");
    expect(handlers).not.toContain("function ");
  });

  it("gives connection-routed rows no handler method", () => {
    expect(handlers).not.toContain("session/cancel");
    expect(handlers).not.toContain("$/cancel_request");
  });

  it("ends each handler with the optional extension fallbacks", () => {
    expect(lines(handlers)).toContain("  extMethod?(method: string, params: Record<string, unknown>, ctx: AgentContext): Awaitable<object>;");
    expect(lines(handlers)).toContain("  extNotification?(method: string, params: Record<string, unknown>, ctx: ClientContext): Awaitable<void>;");
  });
});

describe("emitPeers", () => {
  const peers = emitPeers(tiny);

  it("prints a typed proxy method and its one-line call into the caller", () => {
    expect(lines(peers)).toContain("  prompt(params: PromptRequest, options?: RequestOptions): Promise<PromptResponse>;");
    expect(lines(emitHalf(tiny, "client", DEFAULT_PROTOCOL_INFO))).toContain('    prompt: (params, options) => caller.request("session/prompt", params, options) as Promise<PromptResponse>,');
    expect(peers).not.toContain("function ");
  });

  it("sends notifications with notify, named after the last wire segment when there is no callback", () => {
    expect(lines(peers)).toContain("  cancel(params: CancelNotification): Promise<void>;");
    expect(lines(emitHalf(tiny, "client", DEFAULT_PROTOCOL_INFO))).toContain('    cancel: (params) => caller.notify("session/cancel", params),');
  });

  it("maps every request wire to its params and result types", () => {
    expect(lines(peers)).toContain('  "session/prompt": { params: PromptRequest; result: PromptResponse };');
    expect(lines(peers)).toContain('  "fs/read_text_file": { params: ReadTextFileRequest; result: ReadTextFileResponse };');
  });

  it("leaves protocol rows to the connection", () => {
    expect(peers).not.toContain("$/cancel_request");
  });
});

describe("every generated file", () => {
  it("has a fixed header naming the table and the command, with no timestamp or version", () => {
    expect(HEADER).toContain("method-table.ts");
    expect(HEADER).toContain("npm run codegen");
    expect(HEADER).not.toMatch(/\d{4}-\d\d-\d\d|\d+\.\d+\.\d+/);
  });

  it("starts with that header, for the emitters on the tiny table", () => {
    for (const text of [emitRoutes(tiny), emitRouter(tiny), emitHalf(tiny, "agent", DEFAULT_PROTOCOL_INFO), emitHalf(tiny, "client", DEFAULT_PROTOCOL_INFO), emitHandlers(tiny), emitPeers(tiny), emitProtocol(tiny, realSchema().schema), emitIndex()]) expect(text.startsWith(`${HEADER}\n`)).toBe(true);
  });

  it("starts with that header and is byte-identical when the real table is generated twice", async () => {
    const { schema } = realSchema();
    const first = await generate(methods, schema);
    const second = await generate(methods, schema);
    expect([...first.keys()]).toEqual(["types.ts", "validators.ts", "leniency.ts", "errors.ts", "routes.ts", "agent.ts", "client.ts", "router.ts", "handlers.ts", "peers.ts", "protocol.ts", "index.ts"]);
    for (const [name, text] of first) {
      expect(text.startsWith(`${HEADER}\n`), name).toBe(true);
      expect(second.get(name) === text, name).toBe(true);
    }
  });
});

describe("emitProtocol and emitIndex", () => {
  const text = lines(emitProtocol(tiny, realSchema().schema, { version: 2, name: "v2" }));

  it("print the table as one value of data for the runtime's defineProtocol", () => {
    const at = text.indexOf("export const protocol = /* @__PURE__ */ defineProtocol<TableTypes>({");
    expect(text.slice(at + 1, at + 5)).toEqual(["  version: 2,", '  name: "v2",', "  rows,", "  lookup: {"]);
    expect(text).toContain('  capabilityFields: { params: "clientCapabilities", result: "agentCapabilities" },');
    expect(text).toContain("  errorCodes: ErrorCode,");
    expect(text).toContain("  peers: { agent: createAgentPeer, client: createClientPeer },");
  });

  it("export the folder's user names only: types, protocol, its halves, and the entry points bound to the halves", () => {
    expect(lines(emitIndex())).toEqual([
      ...HEADER.split("\n"),
      'import { bindAgent, bindClient, type BoundProtocol } from "acp-router/runtime";',
      'import { agentProtocol } from "./agent.js";',
      'import { clientProtocol } from "./client.js";',
      'import type { TableTypes } from "./handlers.js";',
      'import { protocol } from "./protocol.js";',
      "",
      'export type * from "./types.js";',
      'export type * from "./handlers.js";',
      'export type * from "./peers.js";',
      "export { agentProtocol, clientProtocol, protocol };",
      "",
      "// Each entry point names only its side's half, so a bundle of an agent leaves the client's validators out.",
      "/** Serves `handler` as an ACP agent over `transport`, routed by this table; call the client through `.client`. */",
      'export const connectAgent: BoundProtocol<TableTypes>["connectAgent"] = /* @__PURE__ */ bindAgent<TableTypes>(agentProtocol);',
      "/** Serves `handler` as an ACP client over `transport`, routed by this table; call the agent through `.agent`. */",
      'export const connectClient: BoundProtocol<TableTypes>["connectClient"] = /* @__PURE__ */ bindClient<TableTypes>(clientProtocol);',
      "/** Returns `handler` unchanged, after the compiler checked that every capability its `initialize` advertises has its method. */",
      'export const defineAgent: BoundProtocol<TableTypes>["defineAgent"] = (handler) => handler;',
      "",
    ]);
  });
});
