/**
 * A pass-through ACP proxy for the proxy figure: no hooks, so every message
 * after initialize passes verbatim (src/proxy/verbatim.ts). As a command it
 * serves itself on stdio (its pass-through path, src/proxy/pass.ts, forwards
 * as text); as a module (`conduct --proxy-module`) the conductor hosts it
 * and carries what it passes verbatim past it.
 *
 *   node --import tsx bench/lib/pass-proxy.ts
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineProxy, serveProxyStdio } from "../../src/proxy/index.ts";

const proxy = defineProxy();
export default proxy;

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) serveProxyStdio(proxy);
