/**
 * A pass-through ACP proxy for the proxy figure: `serveProxyStdio()` with no
 * hooks, so every message after initialize takes the pass-through path
 * (src/proxy/pass.ts) and is forwarded as text.
 *
 *   node --import tsx bench/lib/pass-proxy.ts
 */
import { serveProxyStdio } from "../../src/proxy/index.ts";

serveProxyStdio();
