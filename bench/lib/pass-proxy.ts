/**
 * A pass-through ACP proxy for the proxy figure: `serveProxyStdio()` with no
 * hooks, so every message is validated by the proxy table and forwarded.
 *
 *   node --import tsx bench/lib/pass-proxy.ts
 */
import { serveProxyStdio } from "../../src/proxy/index.ts";

serveProxyStdio();
