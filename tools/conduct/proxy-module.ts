/**
 * Loads a proxy module for `acp-router conduct --proxy-module FILE`: a
 * JavaScript or TypeScript file whose default export is what `defineProxy`
 * returns, hosted in the conductor's process. It may also export `options`
 * (the `ConnectionOptions` its connection is served with: `tracing`, limits).
 *
 * A `.ts`, `.mts` or `.cts` file that Node does not load by itself is loaded
 * through tsx (`tsx/esm/api`), an optional peer dependency of acp-router:
 * `npm install tsx` to host TypeScript proxies, or build them to JavaScript.
 */
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ConnectionOptions } from "../../src/connection/options.ts";
import { isDefinedProxy } from "../../src/proxy/connect-proxy.ts";
import type { HostedProxy } from "../../src/proxy/host.ts";
import type { DefinedProxy } from "../../src/proxy/hooks.ts";

const TYPESCRIPT = /\.[mc]?ts$/;

/** Imports `file`; a TypeScript one through tsx when Node cannot load it itself. */
async function importModule(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(resolve(file)).href;
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (!TYPESCRIPT.test(file) || (code !== "ERR_UNKNOWN_FILE_EXTENSION" && code !== "ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING")) throw error;
  }
  let api: { tsImport(specifier: string, parent: string): Promise<unknown> };
  try {
    api = (await import("tsx/esm/api")) as typeof api;
  } catch {
    throw new Error(`${file} is TypeScript, which this Node does not load by itself: install tsx (npm install tsx), or build the proxy to JavaScript`);
  }
  return (await api.tsImport(url, import.meta.url)) as Record<string, unknown>;
}

/** The hosted proxy of module `file`, named `proxy N (FILE's name)`; throws a message naming the file when it is not a proxy module. */
export async function loadProxyModule(file: string, index: number): Promise<HostedProxy> {
  const module = await importModule(file);
  const proxy = module.default as DefinedProxy | undefined;
  if (typeof proxy !== "object" || proxy === null || !isDefinedProxy(proxy)) {
    throw new Error(`${file}: its default export must be what defineProxy(...) returns (export default defineProxy({ fromClient: {...} })), not ${proxy === undefined ? "missing" : typeof proxy}`);
  }
  const options = module.options as ConnectionOptions | undefined;
  if (options !== undefined && (typeof options !== "object" || options === null)) throw new Error(`${file}: its options export must be an object of connection options`);
  return { proxy, name: `proxy ${index} (${basename(file)})`, options };
}
