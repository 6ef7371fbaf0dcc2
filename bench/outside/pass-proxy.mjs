#!/usr/bin/env node
// The benchmark's pass-through ACP proxy: no hooks, so every message after initialize passes verbatim.
// Plain JavaScript on the built package (`npm run build` first), as sdk-ref-agent.mjs; run from the project root.
// Both forms:
//   as a command, a process of its own:  acp-router conduct -- node bench/outside/pass-proxy.mjs -- AGENT
//   as a module, in the conductor:       acp-router conduct --proxy-module bench/outside/pass-proxy.mjs -- AGENT
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineProxy, serveProxyStdio } from "acp-router/proxy";

const proxy = defineProxy();
export default proxy;

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) serveProxyStdio(proxy);
