// A proxy with no hooks: every message takes the pass-through path (src/proxy/pass.ts) once initialized.
// As a command it serves itself on stdio; as a module (`conduct --proxy-module`) its default export is hosted.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineProxy, serveProxyStdio } from "../../src/proxy/index.ts";

const proxy = defineProxy();
export default proxy;

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) serveProxyStdio(proxy);
