// A proxy with no hooks: every message takes the pass-through path (src/proxy/pass.ts) once initialized.
// As a command it serves itself on stdio; as a module (`conduct --proxy-module`) its default export is hosted.
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { defineProxy, serveProxyStdio } from "../../src/proxy/index.ts";

const proxy = defineProxy();
export default proxy;

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) serveProxyStdio(proxy);
