/**
 * `acp-router conduct [options] [--proxy-module FILE]… -- <proxy 1…> -- <proxy 2…> -- <agent…>`:
 * runs a proxy chain on stdin/stdout with {@link conduct} (src/proxy/conductor.ts).
 * Proxy modules (`--proxy-module`, proxy-module.ts) run in this process, in the
 * order given, before the components given as commands. The components' stderr
 * passes through; the conductor's own diagnostics go to stderr with `--verbose`,
 * and always when the chain ends itself (a hosted proxy failed to initialize).
 * Exits 0 when the client left and every component exited, 1 when a component
 * failed (non-zero exit or signal other than the conductor's own end) or the chain
 * ended itself, 2 on bad arguments or a module that is not a proxy.
 */
import { nodeStreamTransport } from "../../src/transport/node.ts";
import { conduct } from "../../src/proxy/conductor.ts";
import type { ComponentSpec } from "../../src/proxy/host.ts";
import { observeChain } from "./observe.ts";
import { loadProxyModule } from "./proxy-module.ts";

export const CONDUCT_USAGE = `usage: acp-router conduct [options] [--proxy-module FILE]… -- <proxy command…> [-- <proxy command…>]… -- <agent command…>
  Runs an ACP proxy chain (the Proxy Chains RFD) as one agent on stdin/stdout: every component
  but the last gets proxy/initialize, the last gets initialize (terminal mode).
  --proxy-module FILE  run the proxy FILE's default export (what defineProxy returns; JavaScript,
                 or TypeScript through tsx) in this process; repeatable, in chain order, before
                 the components given after --
  --proxy-mode   run nested inside another conductor: stdin/stdout speak to it, and every
                 component is a proxy whose last successor is that conductor's chain
  --trace FILE   write every hop's messages in the Rust conductor's trace format (Client,
                 Proxy(0), …, Agent), for acp-router inspect report and replay
  --summary FILE judge every hop with inspect's rules; FILE.json gets JSON, - stderr
  --verbose      one stderr line for each message the conductor answers itself and each exit
  Every -- starts a component; one whose own arguments hold -- (inspect, a nested conduct) runs
  through sh -c: -- sh -c 'acp-router inspect -- my-proxy'`;

/** The options before the first `--`: flags, and the values of `--proxy-module`, `--trace`, `--summary`. */
function parseOwn(own: readonly string[]): { flags: Set<string>; modules: string[]; trace: string | undefined; summary: string | undefined } | string {
  const flags = new Set<string>();
  const modules: string[] = [];
  let trace: string | undefined;
  let summary: string | undefined;
  for (let i = 0; i < own.length; i++) {
    const arg = own[i] as string;
    if (arg === "--proxy-mode" || arg === "--verbose") flags.add(arg);
    else if (arg === "--proxy-module" || arg === "--trace" || arg === "--summary") {
      const value = own[++i];
      if (value === undefined || value.startsWith("--")) return `${arg} needs a file`;
      if (arg === "--proxy-module") modules.push(value);
      else if (arg === "--trace") trace = value;
      else summary = value;
    } else return `unknown option ${JSON.stringify(arg)}`;
  }
  return { flags, modules, trace, summary };
}

/** Runs `acp-router conduct` with the arguments after `conduct`. */
export async function conductMain(argv: readonly string[]): Promise<number> {
  const first = argv.indexOf("--");
  const own = first === -1 ? [...argv] : argv.slice(0, first);
  if (own.includes("--help") || own.includes("-h")) {
    process.stderr.write(`${CONDUCT_USAGE}\n`);
    return 0;
  }
  const parsed = parseOwn(own);
  if (typeof parsed === "string") {
    process.stderr.write(`acp-router conduct: ${parsed}\n${CONDUCT_USAGE}\n`);
    return 2;
  }
  const commands: string[][] = [];
  if (first !== -1)
    for (const arg of argv.slice(first + 1)) {
      if (arg === "--" || commands.length === 0) commands.push([]);
      if (arg !== "--") (commands[commands.length - 1] as string[]).push(arg);
    }
  if (commands.length === 0 || commands.some((c) => c.length === 0)) {
    process.stderr.write(`acp-router conduct: every component needs a command after its --\n${CONDUCT_USAGE}\n`);
    return 2;
  }
  // Every module is loaded before anything is started: a file that is not a proxy leaves nothing running.
  const hosted: ComponentSpec[] = [];
  for (const [index, file] of parsed.modules.entries()) {
    try {
      hosted.push(await loadProxyModule(file, index));
    } catch (error) {
      process.stderr.write(`acp-router conduct: --proxy-module ${(error as Error).message}\n`);
      return 2;
    }
  }
  const components = [...hosted, ...commands];
  const nested = parsed.flags.has("--proxy-mode");
  const verbose = parsed.flags.has("--verbose");
  const observer = observeChain({ trace: parsed.trace, summary: parsed.summary, last: components.length - 1, nested });
  const chain = conduct({
    components,
    mode: nested ? "proxy" : "terminal",
    transport: nodeStreamTransport(process.stdin, process.stdout, { endWritable: false }),
    onDiagnostic: verbose ? (line) => void process.stderr.write(`acp-router conduct: ${line}\n`) : undefined,
    tap: observer?.tap,
  });
  const exits = await chain.closed;
  observer?.end();
  process.stdin.pause();
  process.stdin.unref?.();
  const failure = chain.failure();
  if (failure !== undefined) {
    process.stderr.write(`acp-router conduct: ${failure}; the chain ended\n`);
    return 1;
  }
  return exits.every((e) => e.code === 0 || e.lingered) ? 0 : 1;
}
