/**
 * Commands for the proxy-chain tests: the repo's bin, the example proxy and agent, the SDK agent, scripted
 * misbehaving components. With `ACP_PROXY_HOSTING=in-process` (the `in-process proxies` tier of
 * vitest.config.ts) the same tests run a second time with every proxy that has a module form hosted in the
 * conductor's process: `conductCommand` gives those as `--proxy-module` (they lead the chain in both forms).
 */
import { fileURLToPath } from "node:url";

const at = (path: string) => fileURLToPath(new URL(path, import.meta.url));
/** Whether this run hosts the proxies in the conductor's process. */
export const hostedProxies = process.env.ACP_PROXY_HOSTING === "in-process";
/** Each proxy command's module form (the file `--proxy-module` hosts), by the command's array. */
const modules = new WeakMap<readonly string[], string>();
const withModule = (command: string[], module: string): string[] => (modules.set(command, at(module)), command);

export const tsx = (file: string, ...args: string[]): string[] => [process.execPath, "--import", "tsx", at(file), ...args];
export const bin = (...args: string[]): string[] => tsx("../../bin/acp-router.ts", ...args);
export const exampleProxy = (...args: string[]) => {
  const name = args[args.indexOf("--name") + 1] ?? "proxy";
  return withModule(tsx("../../examples/proxy.ts", ...args), `./modules/example-${name}${args.includes("--no-context") ? "-no-context" : ""}.ts`);
};
/** A proxy with no hooks (`pass-proxy.ts`): the pass-through path. */
export const passProxy = () => withModule(tsx("./pass-proxy.ts"), "./pass-proxy.ts");
export const exampleAgent = () => tsx("../../examples/agent.ts");
export const sdkAgent = () => tsx("../peers/sdk-agent.ts");
export const exampleClient = at("../../examples/client.ts");
/** `acp-router conduct -- c1 -- c2 …`; in the in-process run, the leading proxies with a module form as `--proxy-module FILE`. */
export const conductCommand = (...components: string[][]): string[] => {
  let hosted = 0;
  while (hostedProxies && hosted < components.length - 1 && modules.has(components[hosted] as string[])) hosted++;
  const options = components.slice(0, hosted).flatMap((c) => ["--proxy-module", modules.get(c) as string]);
  return bin("conduct", ...options, ...components.slice(hosted).flatMap((c) => ["--", ...c]));
};
/** A shell-quoted command line (for `--agent`). */
export const commandLine = (argv: readonly string[]) => argv.map((a) => (/^[\w./:=@-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(" ");
