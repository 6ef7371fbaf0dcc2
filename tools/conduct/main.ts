/**
 * `acp-router conduct [--proxy-mode] -- <proxy 1…> -- <proxy 2…> -- <agent…>`:
 * runs a proxy chain on stdin/stdout with {@link conduct} (src/proxy/conductor.ts).
 * The components' stderr passes through; the conductor's own diagnostics go
 * to stderr with `--verbose`. Exits 0 when the client left and every
 * component exited, 1 when a component failed (non-zero exit or signal other
 * than the conductor's own end), 2 on bad arguments.
 */
import { nodeStreamTransport } from "../../src/transport/node.ts";
import { conduct } from "../../src/proxy/conductor.ts";

export const CONDUCT_USAGE = `usage: acp-router conduct [--proxy-mode] [--verbose] -- <proxy command…> [-- <proxy command…>]… -- <agent command…>
  Runs an ACP proxy chain (the Proxy Chains RFD) as one agent on stdin/stdout: every component
  but the last gets proxy/initialize, the last gets initialize (terminal mode).
  --proxy-mode   run nested inside another conductor: stdin/stdout speak to it, and every
                 component is a proxy whose last successor is that conductor's chain
  --verbose      one stderr line for each message the conductor answers itself and each exit
  Every -- starts a component; one whose own arguments hold -- (inspect, a nested conduct) runs
  through sh -c: -- sh -c 'acp-router inspect -- my-proxy'`;

/** Runs `acp-router conduct` with the arguments after `conduct`. */
export async function conductMain(argv: readonly string[]): Promise<number> {
  const first = argv.indexOf("--");
  const own = first === -1 ? [...argv] : argv.slice(0, first);
  if (own.includes("--help") || own.includes("-h")) {
    process.stderr.write(`${CONDUCT_USAGE}\n`);
    return 0;
  }
  const unknown = own.filter((a) => a !== "--proxy-mode" && a !== "--verbose");
  if (unknown.length > 0) {
    process.stderr.write(`acp-router conduct: unknown option ${JSON.stringify(unknown[0])}\n${CONDUCT_USAGE}\n`);
    return 2;
  }
  const components: string[][] = [];
  if (first !== -1) for (const arg of argv.slice(first + 1)) {
    if (arg === "--" || components.length === 0) components.push([]);
    if (arg !== "--") (components[components.length - 1] as string[]).push(arg);
  }
  if (components.length === 0 || components.some((c) => c.length === 0)) {
    process.stderr.write(`acp-router conduct: every component needs a command after its --\n${CONDUCT_USAGE}\n`);
    return 2;
  }
  const verbose = own.includes("--verbose");
  const chain = conduct({
    components,
    mode: own.includes("--proxy-mode") ? "proxy" : "terminal",
    transport: nodeStreamTransport(process.stdin, process.stdout, { endWritable: false }),
    onDiagnostic: verbose ? (line) => void process.stderr.write(`acp-router conduct: ${line}\n`) : undefined,
  });
  const exits = await chain.closed;
  process.stdin.pause();
  process.stdin.unref?.();
  return exits.every((e) => e.code === 0 || e.lingered) ? 0 : 1;
}
