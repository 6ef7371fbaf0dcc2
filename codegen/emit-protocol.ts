/**
 * Emits `protocol.ts` — the whole table as one value, data handed to the
 * runtime's `defineProtocol` — and `index.ts`, the folder's public names: the
 * types, `protocol` and its halves `agentProtocol` / `clientProtocol`
 * (`emit-router.ts`), and `connectAgent` / `connectClient` / `defineAgent`,
 * each bound to its side's half.
 */
import type { MethodRow } from "../method-table.ts";
import { lit } from "./names.ts";
import { capabilityFields, DEFAULT_PROTOCOL_INFO, type ProtocolInfo } from "./protocol-info.ts";
import type { AcpSchema } from "./schema.ts";
import { DEFAULT_PRINTER, localImport, runtimeImport, type Printer } from "./symbols.ts";

export { DEFAULT_PROTOCOL_INFO, protocolInfoOf, type ProtocolInfo } from "./protocol-info.ts";

export function emitProtocol(rows: readonly MethodRow[], schema: AcpSchema, info: ProtocolInfo = DEFAULT_PROTOCOL_INFO, p: Printer = DEFAULT_PRINTER): string {
  const fields = capabilityFields(rows);
  return [
    p.header,
    runtimeImport(p, ["defineProtocol"]),
    localImport(p, "agent", ["createClientPeer"], false),
    localImport(p, "client", ["createAgentPeer"], false),
    localImport(p, "errors", ["ErrorCode"], false),
    localImport(p, "handlers", ["TableTypes"], true),
    localImport(p, "leniency", ["leniency"], false),
    localImport(p, "router", ["agentNotificationRow", "agentRequestRow", "clientNotificationRow", "clientRequestRow", "rows"], false),
    "",
    "/**",
    ` * This table as one value (ACP ${info.name}), both sides: pass it to whatever serves or speaks it —`,
    " * `serveProtocolStdio(protocol, handler)` (`acp-router/stdio`), `createRemoteServer({ protocol, agent })`,",
    ` * \`routeAgent(transport, { v${info.version}: { protocol, handler } })\` and \`negotiateClient(transport, { v${info.version}: { protocol, handler, initialize } })\``,
    " * (`acp-router/versions`), `createAgentConnection(protocol, handler, transport)`, the tools. A",
    " * program that is one side only can pass that side's half instead (`agentProtocol`,",
    " * `clientProtocol`), which leaves the other side's validators out of its bundle.",
    " */",
    "export const protocol = /* @__PURE__ */ defineProtocol<TableTypes>({",
    `  version: ${info.version},`,
    `  name: ${lit(info.name)},`,
    "  rows,",
    "  lookup: {",
    "    agent: { request: agentRequestRow, notification: agentNotificationRow },",
    "    client: { request: clientRequestRow, notification: clientNotificationRow },",
    "  },",
    "  leniency,",
    `  capabilityFields: { params: ${lit(fields.params)}, result: ${lit(fields.result)} },`,
    "  errorCodes: ErrorCode,",
    "  peers: { agent: createAgentPeer, client: createClientPeer },",
    "});",
    "",
  ].join("\n");
}

export function emitIndex(p: Printer = DEFAULT_PRINTER): string {
  return [
    p.header,
    runtimeImport(p, ["BoundProtocol", "bindAgent", "bindClient"]),
    localImport(p, "agent", ["agentProtocol"], false),
    localImport(p, "client", ["clientProtocol"], false),
    localImport(p, "handlers", ["TableTypes"], true),
    localImport(p, "protocol", ["protocol"], false),
    "",
    `export type * from "./types${p.ext}";`,
    `export type * from "./handlers${p.ext}";`,
    `export type * from "./peers${p.ext}";`,
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
  ].join("\n");
}
