/** The v2 draft unstable table's flat method maps and protocol version (see constants.ts). */
import { protocol } from "acp-router/v2/unstable";
import type { AgentMethods, AgentNotifications, ClientMethods, ClientNotifications } from "acp-router/v2/unstable";
import { flatMethods, protocolMethods } from "./constants.ts";

/** Every method the agent handles, keyed the SDK's way. */
export const AGENT_METHODS = flatMethods<Exclude<keyof AgentMethods | keyof AgentNotifications, `$/${string}`> & string>(protocol, "agent");
/** Every method the client handles. */
export const CLIENT_METHODS = flatMethods<Exclude<keyof ClientMethods | keyof ClientNotifications, `$/${string}`> & string>(protocol, "client");
/** `$/cancel_request`. */
export const PROTOCOL_METHODS = protocolMethods(protocol);
/** The ACP version this table speaks. */
export const PROTOCOL_VERSION = 2;
/** The proxy-chain methods (`proxy/initialize`, `proxy/successor`), as the SDK's unstable entries name them. */
export const PROXY_METHODS = { proxy_initialize: "proxy/initialize", proxy_successor: "proxy/successor" } as const;
