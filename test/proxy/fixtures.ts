/** Commands for the proxy-chain tests: the repo's bin, the example proxy and agent, the SDK agent, scripted misbehaving components. */
import { fileURLToPath } from "node:url";

const at = (path: string) => fileURLToPath(new URL(path, import.meta.url));
export const tsx = (file: string, ...args: string[]): string[] => [process.execPath, "--import", "tsx", at(file), ...args];
export const bin = (...args: string[]): string[] => tsx("../../bin/acp-router.ts", ...args);
export const exampleProxy = (...args: string[]) => tsx("../../examples/proxy.ts", ...args);
/** A proxy with no hooks (`pass-proxy.ts`): the pass-through path. */
export const passProxy = () => tsx("./pass-proxy.ts");
export const exampleAgent = () => tsx("../../examples/agent.ts");
export const sdkAgent = () => tsx("../peers/sdk-agent.ts");
export const exampleClient = at("../../examples/client.ts");
/** `acp-router conduct -- c1 -- c2 …`. */
export const conductCommand = (...components: string[][]): string[] => bin("conduct", ...components.flatMap((c) => ["--", ...c]));
/** A shell-quoted command line (for `--agent`). */
export const commandLine = (argv: readonly string[]) => argv.map((a) => (/^[\w./:=@-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(" ");
